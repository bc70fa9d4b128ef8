import {
  type Abi,
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  erc20Abi,
  maxUint256,
  parseAbi,
  parseEther,
  parseEventLogs,
  toFunctionSelector,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollReceipt } from '../../../src/chain/pollReceipt.js'
import {
  AERODROME_ADDRESSES,
  type AerodromeDeployment,
  aerodromeStandInAbi,
  deployAerodrome,
} from '../../../src/devnet/deploy/aerodrome.js'
import { deployTokens, fundToken } from '../../../src/devnet/deploy/tokens.js'
import { RECEIPT } from '../../helpers/chainChecks.js'
import { sendTx } from '../../helpers/expectMined.js'
import { type Harness, startHarness } from './harness.js'

const router = AERODROME_ADDRESSES.router
const factory = AERODROME_ADDRESSES.poolFactory
const abi: Abi = [...aerodromeStandInAbi, ...erc20Abi]

let h: Harness
let usdc: Address
let weth: Address
let user: Address
let deployment: AerodromeDeployment

const send = (address: Address, functionName: string, args: readonly unknown[], value?: bigint) =>
  sendTx(h.ctx.publicClient, h.users[0]!, { address, abi, functionName, args, value })

const read = <T>(address: Address, functionName: string, args: readonly unknown[] = []) =>
  h.ctx.read<T>({ address, abi, functionName, args })

beforeAll(async () => {
  h = await startHarness()
  const tokens = await deployTokens(h.ctx, { ethUsd: 3_500, btcUsd: 100_000 })
  usdc = tokens.USDC
  weth = tokens.WETH
  deployment = await deployAerodrome(h.ctx, { usdc, weth })
  user = h.users[0]!.account.address
  await fundToken(h.ctx, usdc, user, 100_000n * 10n ** 6n)
  const wallet = h.users[0]!
  const hash = await wallet.writeContract({
    address: weth,
    abi: parseAbi(['function deposit() payable']),
    functionName: 'deposit',
    value: parseEther('20'),
  })
  await pollReceipt(h.ctx.publicClient, hash, RECEIPT)
  await send(usdc, 'approve', [router, maxUint256])
  await send(weth, 'approve', [router, maxUint256])
}, 60_000)

afterAll(async () => {
  await h?.stop()
})

describe('Aerodrome stand-in', () => {
  it('behavior: router selectors and deterministic pool address', async () => {
    expect(
      toFunctionSelector(
        aerodromeStandInAbi.find((i) => i.type === 'function' && i.name === 'addLiquidity')!,
      ),
    ).toBe('0x5a47ddc3')
    expect(
      toFunctionSelector(
        aerodromeStandInAbi.find((i) => i.type === 'function' && i.name === 'removeLiquidity')!,
      ),
    ).toBe('0x0dede6c4')
    expect(
      toFunctionSelector(
        aerodromeStandInAbi.find((i) => i.type === 'function' && i.name === 'quoteAddLiquidity')!,
      ),
    ).toBe('0xce700c29')
    expect(
      toFunctionSelector(aerodromeStandInAbi.find((i) => i.type === 'function' && i.name === 'poolFor')!),
    ).toBe('0x874029d9')
    const pool = deployment.pools[0]!
    expect(await read<Address>(router, 'poolFor', [usdc, weth, false, factory])).toBe(pool)
    expect(await read<Address>(factory, 'getPool', [usdc, weth, false])).toBe(pool)
    expect(await read<string>(pool, 'symbol')).toBe(
      usdc.toLowerCase() < weth.toLowerCase() ? 'vAMM-USDC/WETH' : 'vAMM-WETH/USDC',
    )
    expect(await read<bigint>(factory, 'getFee', [pool, false])).toBe(30n)
  })

  it('behavior: add and remove liquidity moves real tokens and LP shares', async () => {
    const pool = deployment.pools[0]!
    const [qa, qb, qLiquidity] = await read<readonly [bigint, bigint, bigint]>(router, 'quoteAddLiquidity', [
      weth,
      usdc,
      false,
      factory,
      parseEther('1'),
      10_000n * 10n ** 6n,
    ])
    expect(qa).toBe(parseEther('1'))
    expect(qb).toBe(3_500n * 10n ** 6n) // pool ratio 100 WETH : 350,000 USDC
    const usdcBefore = await read<bigint>(usdc, 'balanceOf', [user])
    const receipt = await send(router, 'addLiquidity', [
      weth,
      usdc,
      false,
      parseEther('1'),
      10_000n * 10n ** 6n,
      0n,
      0n,
      user,
      maxUint256,
    ])
    expect(parseEventLogs({ abi, logs: receipt.logs, eventName: 'Mint' })).toHaveLength(1)
    expect(parseEventLogs({ abi, logs: receipt.logs, eventName: 'Sync' })).toHaveLength(1)
    const lp = await read<bigint>(pool, 'balanceOf', [user])
    expect(lp).toBe(qLiquidity)
    expect(usdcBefore - (await read<bigint>(usdc, 'balanceOf', [user]))).toBe(qb)

    const [ra, rb] = await read<readonly [bigint, bigint]>(router, 'quoteRemoveLiquidity', [
      weth,
      usdc,
      false,
      factory,
      lp / 2n,
    ])
    await send(pool, 'approve', [router, lp])
    const wethBefore = await read<bigint>(weth, 'balanceOf', [user])
    const burn = await send(router, 'removeLiquidity', [weth, usdc, false, lp / 2n, ra, rb, user, maxUint256])
    expect(parseEventLogs({ abi, logs: burn.logs, eventName: 'Burn' })).toHaveLength(1)
    expect((await read<bigint>(weth, 'balanceOf', [user])) - wethBefore).toBe(ra)
    expect(await read<bigint>(pool, 'balanceOf', [user])).toBe(lp - lp / 2n)
  })

  it('behavior: swapExactTokensForTokens pays the getAmountsOut quote (0.3% fee, x*y=k)', async () => {
    const routes = [{ from: usdc, to: weth, stable: false, factory }]
    const amountIn = 3_500n * 10n ** 6n
    const amounts = await read<readonly bigint[]>(router, 'getAmountsOut', [amountIn, routes])
    const [reserveUsdc, reserveWeth] = await read<readonly [bigint, bigint]>(router, 'getReserves', [
      usdc,
      weth,
      false,
      factory,
    ])
    const afterFee = amountIn - (amountIn * 30n) / 10_000n
    expect(amounts[1]).toBe((afterFee * reserveWeth) / (reserveUsdc + afterFee))
    const wethBefore = await read<bigint>(weth, 'balanceOf', [user])
    const receipt = await send(router, 'swapExactTokensForTokens', [
      amountIn,
      amounts[1]!,
      routes,
      user,
      maxUint256,
    ])
    expect(parseEventLogs({ abi, logs: receipt.logs, eventName: 'Swap' })).toHaveLength(1)
    expect((await read<bigint>(weth, 'balanceOf', [user])) - wethBefore).toBe(amounts[1])
    await expect(
      send(router, 'swapExactTokensForTokens', [amountIn, amounts[1]! * 2n, routes, user, maxUint256]),
    ).rejects.toThrow(/InsufficientOutputAmount/)
  })

  it('behavior: inputs whose fee has a fraction swap for exactly the quote (the K check floors the fee as the quote does)', async () => {
    // The real Pool takes floor(amountIn * fee / 10,000) out as its fee and checks K on what is left; a K
    // check with the exact fee refused some of its own quotes by a wei (the price pusher once had to round).
    const routes = [{ from: usdc, to: weth, stable: false, factory }]
    for (const amountIn of [1_000_001n, 33_333_333n, 777_777_777n, 1_234_567_891n, 2_000_000_003n]) {
      expect((amountIn * 30n) % 10_000n).not.toBe(0n)
      const amounts = await read<readonly bigint[]>(router, 'getAmountsOut', [amountIn, routes])
      const wethBefore = await read<bigint>(weth, 'balanceOf', [user])
      await send(router, 'swapExactTokensForTokens', [amountIn, amounts[1]!, routes, user, maxUint256])
      expect((await read<bigint>(weth, 'balanceOf', [user])) - wethBefore).toBe(amounts[1])
    }
  })

  it('error: unimplemented selectors (ETH variants) revert NotImplemented', async () => {
    try {
      await h.ctx.publicClient.simulateContract({
        account: user,
        address: router,
        abi: [
          ...abi,
          ...parseAbi([
            'function swapExactETHForTokens(uint256 amountOutMin, (address from, address to, bool stable, address factory)[] routes, address to, uint256 deadline) payable returns (uint256[] amounts)',
          ]),
        ],
        functionName: 'swapExactETHForTokens',
        args: [0n, [{ from: weth, to: usdc, stable: false, factory }], user, maxUint256],
        value: 1n,
      })
      expect.unreachable()
    } catch (error) {
      const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
      expect((reverted as ContractFunctionRevertedError).data?.errorName).toBe('NotImplemented')
    }
  })
})
