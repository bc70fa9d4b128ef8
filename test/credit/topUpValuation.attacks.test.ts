import { erc20Abi, type Hex, maxUint256, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { devnetWallet, RECEIPT } from '../helpers/chainChecks.js'
import {
  creditOf,
  paidFetch,
  transferUtil,
  UTIL,
  UTIL_POOL,
  utilUsdAt,
  utilWallet,
} from '../helpers/creditKit.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// Issue 37 item 7: a top-up valued at a price pushed for a few blocks. The review credited a 10M UTIL top-up
// worth $1,001.94 at $2,248.42 after a 100k USDC buy in the blocks before it and a sale after (a round trip
// of $499.86, a net gain of $746.61): the lower of the spot prices before and after the transfer's block does
// not stop a push that spans it. Now the pool oracle's 30-minute mean bounds the credit, and a share of the
// pool's depth bounds any one top-up. The file moves the UTIL pool with real swaps (SwapRouter02) and puts it
// back; its own world.
const sw = useWorld()
const svc = useInstance(sw)
const PATH = '/v1/prices?symbols=ETH'
const UTIL_10M = 10n ** 25n

const routerAbi = parseAbi([
  'struct E { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(E params) payable returns (uint256 amountOut)',
])

/** Swaps `amountIn` of `tokenIn` for the other side of the UTIL/USDC 0.3% pool; the amount out. */
async function swap(key: Hex, tokenIn: `0x${string}`, amountIn: bigint): Promise<bigint> {
  const wallet = devnetWallet(sw.chain, key)
  const router = BASE_ADDRESSES.SwapRouter02
  const approved = await wallet.writeContract({
    address: tokenIn,
    abi: erc20Abi,
    functionName: 'approve',
    args: [router, maxUint256],
  })
  await pollReceipt(sw.chain, approved, RECEIPT)
  const tokenOut = tokenIn === USDC ? UTIL : USDC
  const before = await sw.chain.readContract({
    address: tokenOut,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [wallet.account.address],
  })
  const hash = await wallet.writeContract({
    address: router,
    abi: routerAbi,
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn,
        tokenOut,
        fee: 3000,
        recipient: wallet.account.address,
        amountIn,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ],
  })
  expect((await pollReceipt(sw.chain, hash, RECEIPT)).status).toBe('success')
  const after = await sw.chain.readContract({
    address: tokenOut,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [wallet.account.address],
  })
  return after - before
}

const mine = () => sw.chain.request({ method: 'evm_mine' as never, params: [] as never })

describe('top-up valuation against a pushed pool', () => {
  test('attack: a 100k USDC buy in the blocks before a 10M UTIL top-up and a sale after it: credited at the unpushed value, the round trip a loss', async () => {
    const pushUsdc = 100_000n * 10n ** 6n
    const w = await utilWallet(sw, pushUsdc + 1_000_000n, UTIL_10M)
    const fair = await utilUsdAt(sw.chain, UTIL_10M, 'latest')
    const usdcBefore = await sw.usdcBalance(w.account.address)

    // The push: UTIL bought with 100k USDC, held for a few blocks around the transfer, then sold back.
    const bought = await swap(w.privateKey, USDC, pushUsdc)
    await mine()
    const hash = await transferUtil(sw.chain, w.privateKey, svc.config.payments.creditRecipient, UTIL_10M)
    const { blockNumber } = await sw.chain.getTransactionReceipt({ hash })
    const pushed = await utilUsdAt(sw.chain, UTIL_10M, blockNumber)
    expect(pushed / fair).toBeGreaterThan(2) // the price the old valuation credited
    await mine()
    await swap(w.privateKey, UTIL, bought)
    const roundTrip = Number(usdcBefore - (await sw.usdcBalance(w.account.address))) / 1e6
    expect(roundTrip).toBeGreaterThan(0)

    const res = await paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${svc.url}${PATH}`)
    expect(res.status).toBe(200)
    const credited = (await creditOf(svc.url, w.account.address)).topUps[0]?.creditedUsd as number
    // Within the 30-minute mean's reach of the unpushed value (the push lasted seconds), never the pushed one.
    expect(credited).toBeLessThanOrEqual(fair * 1.01)
    expect(credited - fair - roundTrip).toBeLessThan(0)
  })

  test('attack: one top-up far larger than the pool is credited at most 5% of the USDC the pool holds', async () => {
    const huge = 300_000_000n * 10n ** 18n // $30,000 at the pool's price; the pool holds about $200,000 USDC
    const w = await utilWallet(sw, 1_000_000n, huge)
    const hash = await transferUtil(sw.chain, w.privateKey, svc.config.payments.creditRecipient, huge)
    const { blockNumber } = await sw.chain.getTransactionReceipt({ hash })
    const spot = await utilUsdAt(sw.chain, huge, blockNumber)
    const depth = await sw.chain.readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [UTIL_POOL],
      blockNumber: blockNumber - 1n,
    })
    expect(spot).toBeGreaterThan((Number(depth) / 1e6) * 0.1)
    const res = await paidFetch(w, { 'X-UTIL-TOPUP': hash })(`${svc.url}${PATH}`)
    expect(res.status).toBe(200)
    const credited = (await creditOf(svc.url, w.account.address)).topUps[0]?.creditedUsd as number
    expect(credited).toBeLessThanOrEqual((Number(depth) / 1e6) * 0.05)
    expect(credited).toBeGreaterThan((Number(depth) / 1e6) * 0.049)
  })
})
