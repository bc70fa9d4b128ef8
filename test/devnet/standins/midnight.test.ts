import { existsSync, readFileSync } from 'node:fs'
import {
  type Abi,
  type AbiFunction,
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  erc20Abi,
  type Hex,
  parseAbi,
  parseEther,
  toFunctionSelector,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollReceipt } from '../../../src/chain/pollReceipt.js'
import {
  deployMidnight,
  MIDNIGHT_ADDRESSES,
  type MidnightDeployment,
  type MidnightOffer,
  midnightStandInAbi,
} from '../../../src/devnet/deploy/midnight.js'
import { deployTokens } from '../../../src/devnet/deploy/tokens.js'
import { RECEIPT } from '../../helpers/chainChecks.js'
import { sendTx } from '../../helpers/expectMined.js'
import { type Harness, startHarness } from './harness.js'

const REFERENCE_ABI = new URL('../../../docs/abi/morpho-midnight.json', import.meta.url)
const midnight = MIDNIGHT_ADDRESSES.midnight
const ZERO: Address = '0x0000000000000000000000000000000000000000'
const marketStateAbi = parseAbi([
  'function marketState(bytes32 id) view returns (uint128 totalUnits, uint128 lossFactor, uint128 withdrawable, uint128 continuousFeeCredit, uint16 settlementFeeCbp0, uint16 settlementFeeCbp1, uint16 settlementFeeCbp2, uint16 settlementFeeCbp3, uint16 settlementFeeCbp4, uint16 settlementFeeCbp5, uint16 settlementFeeCbp6, uint32 continuousFee, uint8 tickSpacing)',
])

let h: Harness
let abi: Abi
let usdc: Address
let weth: Address
let deployment: MidnightDeployment

const send = (
  userIndex: number,
  address: Address,
  callAbi: Abi,
  functionName: string,
  args: readonly unknown[],
) => sendTx(h.ctx.publicClient, h.users[userIndex]!, { address, abi: callAbi, functionName, args })

const read = <T>(functionName: string, args: readonly unknown[]) =>
  h.ctx.publicClient.readContract({ address: midnight, abi, functionName, args }) as Promise<T>

const usdcOf = (account: Address) =>
  h.ctx.publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [account],
  })

async function liveOffers(marketId: Hex) {
  const [, offers, ratifierData, remaining] = await h.ctx.publicClient.readContract({
    address: MIDNIGHT_ADDRESSES.offerBook,
    abi: midnightStandInAbi,
    functionName: 'liveOffers',
    args: [marketId],
  })
  return offers.map((offer, i) => ({
    offer: offer as MidnightOffer,
    ratifierData: ratifierData[i]!,
    remaining: remaining[i]!,
  }))
}

beforeAll(async () => {
  h = await startHarness()
  const tokens = await deployTokens(h.ctx, { ethUsd: 3_500, btcUsd: 100_000 })
  usdc = tokens.USDC
  weth = tokens.WETH
  // 1 WETH (1e18) = 3500 USDC (1e6): price = 3500e6 * 1e36 / 1e18
  deployment = await deployMidnight(h.ctx, {
    usdc,
    collaterals: [{ token: weth, lltv: 860_000_000_000_000_000n, price: 3_500n * 10n ** 24n }],
  })
  abi = [...h.ctx.artifact('MidnightStandIn').abi, ...midnightStandInAbi]
  for (const wallet of h.users) {
    const hash = await wallet.writeContract({
      address: weth,
      abi: parseAbi(['function deposit() payable']),
      functionName: 'deposit',
      value: parseEther('5'),
    })
    await pollReceipt(h.ctx.publicClient, hash, RECEIPT)
  }
}, 60_000)

afterAll(async () => {
  await h?.stop()
})

describe('Morpho Midnight stand-in', () => {
  it('behavior: selectors match abi/morpho-midnight.json', () => {
    const take = abi.find((i): i is AbiFunction => i.type === 'function' && i.name === 'take')!
    expect(toFunctionSelector(take)).toBe('0x6a14c9ef')
    if (!existsSync(REFERENCE_ABI)) return
    const reference = JSON.parse(readFileSync(REFERENCE_ABI, 'utf8')) as Abi
    const selectors = new Set(
      reference.filter((i): i is AbiFunction => i.type === 'function').map(toFunctionSelector),
    )
    const own = h.ctx
      .artifact('MidnightStandIn')
      .abi.filter(
        (i): i is AbiFunction =>
          i.type === 'function' && reference.some((r) => 'name' in r && r.name === i.name),
      )
    expect(own.length).toBeGreaterThan(30)
    for (const fn of own) expect(selectors.has(toFunctionSelector(fn)), fn.name).toBe(true)
  })

  it('behavior: markets and seeded book on both sides', async () => {
    expect(deployment.markets).toHaveLength(2)
    const { id, market } = deployment.markets[0]!
    expect(await read<Hex>('toId', [market])).toBe(id)
    const state = (await h.ctx.publicClient.readContract({
      address: midnight,
      abi: marketStateAbi,
      functionName: 'marketState',
      args: [id],
    })) as readonly unknown[]
    expect(state).toHaveLength(13)
    expect(state[12]).toBe(4) // tick spacing
    const offers = await liveOffers(id)
    expect(offers.filter((o) => o.offer.buy)).toHaveLength(1)
    expect(offers.filter((o) => !o.offer.buy)).toHaveLength(1)
    const bid = offers.find((o) => o.offer.buy)!
    const ask = offers.find((o) => !o.offer.buy)!
    const bidPrice = await read<bigint>('tickToPrice', [bid.offer.tick])
    const askPrice = await read<bigint>('tickToPrice', [ask.offer.tick])
    expect(bidPrice).toBeLessThan(askPrice) // lender-maker wants 7%, borrower-maker pays 5%: no cross
    expect(askPrice).toBeLessThan(10n ** 18n)
    expect(await read<bigint>('tickToPrice', [3372n])).toBe(5n * 10n ** 17n) // MAX_TICK / 2 -> price 0.5
  })

  it('behavior: borrower takes a bid, repays, lender withdraws', async () => {
    const { id, market } = deployment.markets[0]!
    const borrower = h.users[0]!.account.address
    await send(0, weth, erc20Abi, 'approve', [midnight, parseEther('1')])
    await send(0, midnight, abi, 'supplyCollateral', [market, 0n, parseEther('1'), borrower])
    const bid = (await liveOffers(id)).find((o) => o.offer.buy)!
    const units = 1_000n * 10n ** 6n
    const before = await usdcOf(borrower)
    await send(0, midnight, abi, 'take', [bid.offer, bid.ratifierData, units, borrower, borrower, ZERO, '0x'])
    const received = (await usdcOf(borrower)) - before
    const price = await read<bigint>('tickToPrice', [bid.offer.tick])
    expect(received).toBe((units * price) / 10n ** 18n)
    expect(received).toBeLessThan(units) // pays 1 USDC per unit at maturity, receives less now
    expect(await read<bigint>('debt', [id, borrower])).toBe(units)
    expect(await read<bigint>('credit', [id, h.ctx.deployer])).toBe(units)
    expect((await liveOffers(id)).find((o) => o.offer.buy)!.remaining).toBe(bid.remaining - units)

    // Too little collateral for more debt: 1 WETH * 3500 * 0.86 = 3010 USDC of max debt.
    await expect(
      send(0, midnight, abi, 'take', [
        bid.offer,
        bid.ratifierData,
        3_000n * 10n ** 6n,
        borrower,
        borrower,
        ZERO,
        '0x',
      ]),
    ).rejects.toThrow(/SellerIsLiquidatable/)

    // the borrower owes 1 USDC per unit: top up the interest it did not receive
    await h.ctx.write({
      address: usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [borrower, units - received],
    })
    await send(0, usdc, erc20Abi, 'approve', [midnight, units])
    await send(0, midnight, abi, 'repay', [market, units, borrower, ZERO, '0x'])
    expect(await read<bigint>('debt', [id, borrower])).toBe(0n)
    await send(0, midnight, abi, 'withdrawCollateral', [market, 0n, parseEther('1'), borrower, borrower])

    const lenderBefore = await usdcOf(h.ctx.deployer)
    await h.ctx.write({
      address: midnight,
      abi,
      functionName: 'withdraw',
      args: [market, units, h.ctx.deployer, h.ctx.deployer],
    })
    expect((await usdcOf(h.ctx.deployer)) - lenderBefore).toBe(units)
  })

  it('behavior: lender takes an ask from the borrower-maker', async () => {
    const { id } = deployment.markets[1]!
    const lender = h.users[1]!.account.address
    await h.ctx.write({
      address: usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [lender, 2_000n * 10n ** 6n],
    })
    const ask = (await liveOffers(id)).find((o) => !o.offer.buy)!
    await send(1, usdc, erc20Abi, 'approve', [midnight, 2_000n * 10n ** 6n])
    const units = 1_500n * 10n ** 6n
    await send(1, midnight, abi, 'take', [ask.offer, ask.ratifierData, units, lender, ZERO, ZERO, '0x'])
    expect(await read<bigint>('credit', [id, lender])).toBe(units)
    expect(await read<bigint>('debt', [id, h.ctx.deployer])).toBe(units)
  })

  it('error: unimplemented selectors revert NotImplemented', async () => {
    try {
      await h.ctx.publicClient.readContract({
        address: midnight,
        abi: [
          ...abi,
          { type: 'function', name: 'feeSetter', inputs: [], outputs: [], stateMutability: 'view' },
        ],
        functionName: 'feeSetter',
      })
      expect.unreachable()
    } catch (error) {
      const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
      expect((reverted as ContractFunctionRevertedError).data?.errorName).toBe('NotImplemented')
    }
  })
})
