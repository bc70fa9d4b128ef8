import {
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  concat,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  pad,
  parseAbi,
  parseEther,
  toFunctionSelector,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../../src/chain/addresses.js'
import { deployTokens } from '../../../src/devnet/deploy/tokens.js'
import { deployZeroEx, ZEROX_ADDRESSES, zeroExStandInAbi } from '../../../src/devnet/deploy/zeroEx.js'
import { sendTx } from '../../helpers/expectMined.js'
import { type Harness, startHarness } from './harness.js'

// AllowanceHolder and the Settler stand-in against their real ABI: selectors seen in 0x's deployed code
// and calldata, the transient allowance, the confused-deputy guard and the final slippage check. Swaps
// through pools are covered end to end in test/market/swapPrice.test.ts; here WETH9 is the only "pool".
let h: Harness
let user: Address
const WETH = BASE_ADDRESSES.WETH
const { allowanceHolder, settler } = ZEROX_ADDRESSES
const wethAbi = parseAbi(['function deposit() payable', 'function withdraw(uint256 wad)'])
const abi = [...zeroExStandInAbi, ...erc20Abi]

beforeAll(async () => {
  h = await startHarness()
  await deployTokens(h.ctx, { ethUsd: 3000, btcUsd: 60_000 })
  await deployZeroEx(h.ctx)
  user = h.users[0]!.account.address
  await send(WETH, wethAbi, 'deposit', [], parseEther('5'))
}, 60_000)
afterAll(async () => {
  await h?.stop()
})

const send = (
  address: Address,
  callAbi: typeof abi | typeof wethAbi,
  functionName: string,
  args: readonly unknown[],
  value?: bigint,
) => sendTx(h.ctx.publicClient, h.users[0]!, { address, abi: callAbi, functionName, args, value })

type Revert = { name?: string; args?: readonly unknown[] }

/** The revert's custom error name (and args) of a simulated call. */
async function revertOfCall(call: Record<string, unknown>): Promise<Revert> {
  try {
    await h.ctx.publicClient.simulateContract({ abi, ...call } as never)
  } catch (err) {
    const reverted = (err as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
    if (reverted instanceof ContractFunctionRevertedError) {
      return { name: reverted.data?.errorName ?? reverted.reason ?? 'unknown', args: reverted.data?.args }
    }
    return { name: 'unknown' }
  }
  throw new Error('expected a revert')
}

/** The revert of `exec(args)` sent by the user. */
const revertOf = (args: readonly unknown[], value = 0n) =>
  revertOfCall({ account: user, address: allowanceHolder, functionName: 'exec', args, value })

const UNDERFLOW = { name: 'Panic', args: [17n] }

const balance = (token: Address, owner: Address) =>
  h.ctx.read<bigint>({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

/** execute(...) paying `minAmountOut` of `buyToken` to the user, after `actions`. */
function execute(actions: Hex[], buyToken: Address, minAmountOut: bigint): Hex {
  return encodeFunctionData({
    abi: zeroExStandInAbi,
    functionName: 'execute',
    args: [{ recipient: user, buyToken, minAmountOut }, actions, pad('0x01', { dir: 'right' })],
  })
}
const transferFrom = (token: Address, amount: bigint) =>
  encodeFunctionData({
    abi: zeroExStandInAbi,
    functionName: 'TRANSFER_FROM',
    args: [settler, { permitted: { token, amount }, nonce: 0n, deadline: 2n ** 40n }, '0x'],
  })
const unwrapAll = encodeFunctionData({
  abi: zeroExStandInAbi,
  functionName: 'BASIC',
  args: [WETH, 10_000n, WETH, 4n, encodeFunctionData({ abi: wethAbi, functionName: 'withdraw', args: [0n] })],
})

describe('0x AllowanceHolder and Settler stand-ins', () => {
  it('behavior: the selectors are the real ones (exec, transferFrom, execute, BASIC)', () => {
    const selector = (name: string) =>
      toFunctionSelector(zeroExStandInAbi.find((i) => i.type === 'function' && i.name === name) as never)
    expect(selector('exec')).toBe('0x2213bc0b')
    expect(selector('transferFrom')).toBe('0x15dacbea')
    expect(selector('execute')).toBe('0x1fff991f')
    expect(selector('BASIC')).toBe('0x38c9c147')
  })

  it('behavior: exec pulls the approved tokens through the transient allowance, runs the actions and pays out at least minAmountOut', async () => {
    const amount = parseEther('1.5')
    await send(WETH, abi, 'approve', [allowanceHolder, amount])
    const wethBefore = await balance(WETH, user)
    const ethBefore = await h.ctx.publicClient.getBalance({ address: user })
    const receipt = await send(allowanceHolder, abi, 'exec', [
      settler,
      WETH,
      amount,
      settler,
      execute([transferFrom(WETH, amount), unwrapAll], NATIVE_SENTINEL, amount),
    ])
    expect(wethBefore - (await balance(WETH, user))).toBe(amount)
    const gas = receipt.gasUsed * receipt.effectiveGasPrice
    expect((await h.ctx.publicClient.getBalance({ address: user })) - ethBefore + gas).toBe(amount)
    expect(await h.ctx.publicClient.getBalance({ address: settler })).toBe(0n)
    // The allowance lived for that transaction only: spending it again is an underflow.
    expect(
      await revertOfCall({
        account: settler,
        address: allowanceHolder,
        functionName: 'transferFrom',
        args: [WETH, user, settler, 1n],
      }),
    ).toEqual(UNDERFLOW)
  })

  it('behavior: native ETH sent with exec reaches the Settler, and BASIC wraps it', async () => {
    const amount = parseEther('0.25')
    const wethBefore = await balance(WETH, user)
    const deposit = concat([encodeFunctionData({ abi: wethAbi, functionName: 'deposit' }), pad('0x00')])
    const wrap = encodeFunctionData({
      abi: zeroExStandInAbi,
      functionName: 'BASIC',
      args: [NATIVE_SENTINEL, 10_000n, WETH, 4n, deposit],
    })
    await send(
      allowanceHolder,
      abi,
      'exec',
      [settler, NATIVE_SENTINEL, amount, settler, execute([wrap], WETH, amount)],
      amount,
    )
    expect((await balance(WETH, user)) - wethBefore).toBe(amount)
  })

  it('error: less than minAmountOut reverts TooMuchSlippage and moves nothing', async () => {
    const amount = parseEther('0.5')
    await send(WETH, abi, 'approve', [allowanceHolder, amount])
    const before = await balance(WETH, user)
    const revert = await revertOf([
      settler,
      WETH,
      amount,
      settler,
      execute([transferFrom(WETH, amount), unwrapAll], NATIVE_SENTINEL, amount + 1n),
    ])
    expect(revert).toEqual({ name: 'TooMuchSlippage', args: [NATIVE_SENTINEL, amount + 1n, amount] })
    expect(await balance(WETH, user)).toBe(before)
  })

  it('error: pulling more than exec allowed fails; an ERC-20 target is a ConfusedDeputy; unknown actions are ActionInvalid', async () => {
    const amount = parseEther('0.5')
    await send(WETH, abi, 'approve', [allowanceHolder, amount * 2n])
    // The allowance is what exec names, not what the token approval allows.
    const over = await revertOf([
      settler,
      WETH,
      amount,
      settler,
      execute([transferFrom(WETH, amount + 1n)], WETH, 0n),
    ])
    // Panic 0x11 (arithmetic underflow), as the real AllowanceHolder's unchecked-free subtraction.
    expect(over).toEqual(UNDERFLOW)
    expect((await revertOf([settler, WETH, amount, WETH, '0x'])).name).toBe('ConfusedDeputy')
    const bogus: Hex = '0xdeadbeef'
    const invalid = await revertOf([settler, WETH, amount, settler, execute([bogus], WETH, 0n)])
    expect(invalid.name).toBe('ActionInvalid')
    // Called directly, not through AllowanceHolder, the Settler has no allowance to spend.
    expect(
      await revertOfCall({
        account: user,
        address: settler,
        functionName: 'execute',
        args: [
          { recipient: user, buyToken: WETH, minAmountOut: 0n },
          [transferFrom(WETH, 1n)],
          pad('0x01', { dir: 'right' }),
        ],
      }),
    ).toEqual(UNDERFLOW)
  })
})
