import { wrapFetchWithPayment } from '@x402/fetch'
import {
  type Address,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../src/chain/addresses.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { DEVNET_ADDRESSES } from '../../src/devnet/addresses.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { aeroAbi, bestPool, type PoolTruth } from '../helpers/poolTruth.js'
import { type Instance, payer, useWorld } from '../helpers/serviceWorld.js'

// GET /v1/swap/price, paid with the official x402 client on the devnet, checked against the pools read
// here directly (QuoterV2, the Aerodrome router and factory), the 0x simulator's own answers, and swaps
// broadcast onchain.
const sw = useWorld()
let onchain: Instance
let zeroEx: Instance
let pay: typeof fetch

beforeAll(async () => {
  onchain = await sw.instance()
  zeroEx = await sw.instance({ ZEROX_API_KEY: 'devnet-any-key' })
  pay = wrapFetchWithPayment(fetch, payer(2).client)
}, 120_000)

const { USDC, WETH, cbBTC } = BASE_ADDRESSES
const ALLOWANCE_HOLDER = getAddress('0x0000000000001fF3684f28c67538d4D072C22734')

const weth9Abi = parseAbi(['function deposit() payable', 'function withdraw(uint256 wad)'])

// The router's ABI, written out here so the truth does not lean on the service's own definitions.
const routerAbi = parseAbi([
  'struct E { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(E params) payable returns (uint256 amountOut)',
])

/** The best single-hop output, read straight from QuoterV2 (every tier) and the Aerodrome router. */
async function poolTruth(sell: Address, buy: Address, amountIn: bigint, options = { aerodrome: true }) {
  const best = await bestPool(sw.chain, sell, buy, amountIn, options)
  expect(best?.amountOut).toBeGreaterThan(0n)
  return best as PoolTruth
}

const floorSlippage = (amount: bigint, bps: number) => (amount * BigInt(10_000 - bps)) / 10_000n

// The documented gas of a swap transaction (route description), written out here: intrinsic, router
// overhead around the pool swap, an Aerodrome pool swap, a WETH9 deposit and withdraw transaction.
const GAS = {
  intrinsic: 21_000n,
  overhead: 40_000n,
  aerodrome: 110_000n,
  deposit: 46_000n,
  withdraw: 36_000n,
}

/** The ETH-USD price the exchange simulator reports, read here directly. */
async function ethUsd(): Promise<number> {
  const res = await fetch(`${onchain.config.upstreams.coinbaseExchange}/products/ETH-USD/ticker`)
  return Number(((await res.json()) as { price: string }).price)
}

/**
 * The fee figures against the chain: networkFeeWei is gasEstimate × the answer block's baseFeePerGas
 * (read here with eth_getBlockByNumber), gasUsd that at the exchange's ETH-USD; and the estimate is an
 * upper bound of what the same swap, executed, used (`receipt`), without being far off (within 2×).
 */
async function expectFees(body: SwapPrice, gasEstimate: bigint) {
  expect(body.fees.gasEstimate).toBe(gasEstimate.toString())
  const block = await sw.chain.getBlock({ blockNumber: BigInt(body.blockNumber as string) })
  const feeWei = gasEstimate * (block.baseFeePerGas as bigint)
  expect(feeWei).toBeGreaterThan(0n)
  expect(body.fees.networkFeeWei).toBe(feeWei.toString())
  const expectedUsd = (Number(feeWei) / 1e18) * (await ethUsd())
  expect(body.fees.gasUsd).not.toBeNull()
  expect(Math.abs((body.fees.gasUsd as number) - expectedUsd)).toBeLessThanOrEqual(expectedUsd * 0.01)
}
function expectBoundsUsed(body: SwapPrice, receipt: TransactionReceipt) {
  const estimate = BigInt(body.fees.gasEstimate as string)
  expect(receipt.gasUsed).toBeLessThanOrEqual(estimate)
  expect(receipt.gasUsed * 2n).toBeGreaterThan(estimate)
}

interface SwapPrice {
  fromToken: string
  toToken: string
  fromAmount: string
  expectedOut: string
  minOut: string
  slippageBps: number
  quotedBy: '0x' | 'onchain'
  blockNumber: string | null
  fees: {
    gasEstimate: string | null
    networkFeeWei: string | null
    gasUsd: number | null
    poolFeeBps: number | null
    aggregatorFee: { amount: string; token: string } | null
  }
  route: { source: string; from: string; to: string; proportionBps: number }[]
}

async function swapPrice(svc: Instance, query: Record<string, string>, via: typeof fetch = pay) {
  const res = await via(`${svc.url}/v1/swap/price?${new URLSearchParams(query)}`)
  return { status: res.status, headers: res.headers, body: (await res.json()) as SwapPrice & ErrorBody }
}
interface ErrorBody {
  error: { code: string; field?: string }
}

function wallet(privateKey: Hex) {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: base,
    transport: headroomHttp(sw.world.rpcUrl),
  })
}
const demo = (i: number) => wallet(demoAccounts[i]?.privateKey as Hex)

async function mined(hash: Hex): Promise<TransactionReceipt> {
  const receipt = await pollReceipt(sw.chain, hash, RECEIPT)
  expect(receipt.status).toBe('success')
  return receipt
}
const balanceOf = (token: Address, owner: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
async function approve(w: ReturnType<typeof wallet>, token: Address, spender: Address, amount: bigint) {
  await mined(
    await w.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: 'approve',
      args: [spender, amount],
    }),
  )
}

/** What the 0x simulator answers, asked directly with the headers 0x requires. */
async function zeroExSim(kind: 'price' | 'quote', query: Record<string, string>) {
  const q = new URLSearchParams({ chainId: '8453', ...query })
  const res = await fetch(`${zeroEx.config.upstreams.zeroEx}/swap/allowance-holder/${kind}?${q}`, {
    headers: { '0x-api-key': 'test', '0x-version': 'v2' },
  })
  expect(res.status).toBe(200)
  return (await res.json()) as {
    liquidityAvailable: boolean
    buyAmount: string
    minBuyAmount: string
    sellAmount: string
    allowanceTarget: Address | null
    totalNetworkFee: string | null
    issues: { allowance: { actual: string; spender: Address } | null }
    route: { fills: { source: string; from: string; to: string; proportionBps: string }[] }
    transaction: { to: Address; data: Hex; value: string; gas: string | null }
  }
}

describe('onchain source (no 0x API key)', () => {
  test('behavior: cbBTC → USDC (Uniswap only): expectedOut is QuoterV2’s best tier, minOut floors the slippage, fees are the pool’s, and SwapRouter02 then delivers exactly expectedOut', async () => {
    const amountIn = parseUnits('0.25', 8)
    const slippageBps = 37
    const truth = await poolTruth(cbBTC, USDC, amountIn)
    expect(truth.venue).toBe('Uniswap_V3')
    const taker = demo(5)
    const me = taker.account.address

    const { status, body } = await swapPrice(onchain, {
      fromToken: cbBTC,
      toToken: USDC.toLowerCase(),
      fromAmount: amountIn.toString(),
      taker: me,
      slippageBps: String(slippageBps),
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      fromToken: cbBTC,
      toToken: USDC,
      fromAmount: amountIn.toString(),
      expectedOut: truth.amountOut.toString(),
      minOut: floorSlippage(truth.amountOut, slippageBps).toString(),
      slippageBps,
      quotedBy: 'onchain',
      route: [{ source: 'Uniswap_V3', from: cbBTC, to: USDC, proportionBps: 10_000 }],
    })
    // Fees: the tier's own fee; the transaction's gas priced at the quoted block's base fee.
    expect(body.fees.poolFeeBps).toBe((truth.fee as number) / 100)
    expect(body.fees.aggregatorFee).toBeNull()
    // The gas at the answer's own block: QuoterV2's estimate moves with the block's clock (a tick-crossing
    // swap writes an oracle observation unless the pool wrote one at that timestamp already).
    const atAnswer = (await bestPool(sw.chain, cbBTC, USDC, amountIn, {
      blockNumber: BigInt(body.blockNumber as string),
    })) as PoolTruth
    expect(atAnswer.amountOut).toBe(truth.amountOut)
    // The whole swap transaction: QuoterV2's own estimate of the pool swap + intrinsic + router overhead.
    await expectFees(body, GAS.intrinsic + GAS.overhead + (atAnswer.gasEstimate as bigint))

    // The same swap, executed: exactly the quoted output.
    await approve(taker, cbBTC, BASE_ADDRESSES.SwapRouter02, amountIn)
    const before = await balanceOf(USDC, me)
    const receipt = await mined(
      await taker.writeContract({
        address: BASE_ADDRESSES.SwapRouter02,
        abi: routerAbi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn: cbBTC,
            tokenOut: USDC,
            fee: truth.fee as number,
            recipient: me,
            amountIn,
            amountOutMinimum: BigInt(body.minOut),
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
    )
    expect((await balanceOf(USDC, me)) - before).toBe(BigInt(body.expectedOut))
    expectBoundsUsed(body, receipt)
  })

  test('behavior: when Aerodrome’s pool pays more it is the venue, its fee is the factory’s, gas is the documented Aerodrome swap, and its router delivers exactly expectedOut', async () => {
    // Dump WETH into Aerodrome's WETH/USDC pool: WETH is then cheaper there than on Uniswap.
    const trader = demo(4)
    const me = trader.account.address
    const route = [{ from: WETH, to: USDC, stable: false, factory: BASE_ADDRESSES.AerodromePoolFactory }]
    await approve(trader, WETH, BASE_ADDRESSES.AerodromeRouter, maxUint256)
    await approve(trader, USDC, BASE_ADDRESSES.AerodromeRouter, maxUint256)
    await mined(
      await trader.writeContract({
        address: BASE_ADDRESSES.AerodromeRouter,
        abi: aeroAbi,
        functionName: 'swapExactTokensForTokens',
        args: [parseEther('30'), 0n, route, me, maxUint256],
      }),
    )
    const amountIn = parseUnits('1500', 6)
    const truth = await poolTruth(USDC, WETH, amountIn)
    expect(truth.venue).toBe('Aerodrome_V2')
    const pool = await sw.chain.readContract({
      address: BASE_ADDRESSES.AerodromeRouter,
      abi: aeroAbi,
      functionName: 'poolFor',
      args: [USDC, WETH, false, BASE_ADDRESSES.AerodromePoolFactory],
    })
    const fee = await sw.chain.readContract({
      address: BASE_ADDRESSES.AerodromePoolFactory,
      abi: aeroAbi,
      functionName: 'getFee',
      args: [pool, false],
    })

    const { status, body } = await swapPrice(onchain, {
      fromToken: USDC,
      toToken: WETH,
      fromAmount: amountIn.toString(),
      taker: me,
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      expectedOut: truth.amountOut.toString(),
      minOut: floorSlippage(truth.amountOut, 100).toString(),
      slippageBps: 100,
      route: [{ source: 'Aerodrome_V2', from: USDC, to: WETH, proportionBps: 10_000 }],
      fees: { poolFeeBps: Number(fee), aggregatorFee: null },
    })
    // The router gives no estimate: intrinsic + router overhead + the documented Aerodrome pool swap.
    await expectFees(body, GAS.intrinsic + GAS.overhead + GAS.aerodrome)

    const before = await balanceOf(WETH, me)
    const receipt = await mined(
      await trader.writeContract({
        address: BASE_ADDRESSES.AerodromeRouter,
        abi: aeroAbi,
        functionName: 'swapExactTokensForTokens',
        args: [
          amountIn,
          BigInt(body.minOut),
          [{ from: USDC, to: WETH, stable: false, factory: BASE_ADDRESSES.AerodromePoolFactory }],
          me,
          maxUint256,
        ],
      }),
    )
    expect((await balanceOf(WETH, me)) - before).toBe(BigInt(body.expectedOut))
    expectBoundsUsed(body, receipt)
  })

  test('behavior: native ETH is priced as WETH on Uniswap only (as the swap builder routes it), and ETH ⇄ WETH is a 1:1 wrap', async () => {
    const amountIn = parseEther('0.4')
    const taker = demoAccounts[6]?.address as Address
    const truth = await poolTruth(WETH, USDC, amountIn, { aerodrome: false })
    const eth = await swapPrice(onchain, {
      fromToken: NATIVE_SENTINEL,
      toToken: USDC,
      fromAmount: amountIn.toString(),
      taker,
    })
    expect(eth.status).toBe(200)
    expect(eth.body).toMatchObject({
      fromToken: NATIVE_SENTINEL,
      expectedOut: truth.amountOut.toString(),
      route: [{ source: truth.venue, from: WETH, to: USDC, proportionBps: 10_000 }],
    })

    // The 1:1 wraps, priced as WETH9's own transactions at the block read; then executed by a holder.
    const holder = demo(6)
    const amount = 123_456_789n
    for (const [from, to, gas] of [
      [WETH, NATIVE_SENTINEL, GAS.withdraw],
      [NATIVE_SENTINEL, WETH, GAS.deposit],
    ] as const) {
      const wrap = await swapPrice(onchain, {
        fromToken: from,
        toToken: to.toLowerCase(),
        fromAmount: amount.toString(),
        taker,
        slippageBps: '50',
      })
      expect(wrap.status).toBe(200)
      expect(wrap.body).toMatchObject({
        fromToken: from,
        toToken: to,
        expectedOut: amount.toString(),
        minOut: floorSlippage(amount, 50).toString(),
        route: [{ source: 'WETH', from, to, proportionBps: 10_000 }],
        fees: { poolFeeBps: 0, aggregatorFee: null },
      })
      await expectFees(wrap.body, gas)
      const receipt = await mined(
        from === WETH
          ? await holder.writeContract({
              address: WETH,
              abi: weth9Abi,
              functionName: 'withdraw',
              args: [amount],
            })
          : await holder.writeContract({
              address: WETH,
              abi: weth9Abi,
              functionName: 'deposit',
              value: amount,
            }),
      )
      expectBoundsUsed(wrap.body, receipt)
    }
  })
})

describe('0x source (ZEROX_API_KEY set)', () => {
  test('behavior: the price is the 0x simulator’s /price, which is the pools’ best; its quote, approved to AllowanceHolder, executes onchain and pays the taker at least minBuyAmount', async () => {
    const amountIn = parseUnits('2000', 6)
    const taker = await sw.freshWallet(amountIn, parseEther('1'))
    const me = taker.account.address
    const truth = await poolTruth(USDC, WETH, amountIn)

    const { status, body } = await swapPrice(zeroEx, {
      fromToken: USDC,
      toToken: WETH,
      fromAmount: amountIn.toString(),
      taker: me,
      slippageBps: '80',
    })
    expect(status).toBe(200)
    const query = {
      sellToken: USDC,
      buyToken: WETH,
      sellAmount: amountIn.toString(),
      taker: me,
      slippageBps: '80',
    }
    const price = await zeroExSim('price', query)
    expect(price.liquidityAvailable).toBe(true)
    expect(body).toMatchObject({
      quotedBy: '0x',
      fromAmount: amountIn.toString(),
      expectedOut: price.buyAmount,
      minOut: price.minBuyAmount,
      slippageBps: 80,
      fees: { poolFeeBps: null, aggregatorFee: null, networkFeeWei: price.totalNetworkFee },
      route: price.route.fills.map((f) => ({ ...f, proportionBps: Number(f.proportionBps) })),
    })
    expect(body.expectedOut).toBe(truth.amountOut.toString())
    expect(body.route[0]?.source).toBe(truth.venue)
    expect(body.minOut).toBe(floorSlippage(truth.amountOut, 80).toString())

    // A quote for this taker, executed as 0x documents it: approve the spender it names, send the tx.
    const quote = await zeroExSim('quote', query)
    expect(quote.issues.allowance?.spender).toBe(ALLOWANCE_HOLDER)
    expect(quote.allowanceTarget).toBe(ALLOWANCE_HOLDER)
    expect(quote.transaction.to).toBe(ALLOWANCE_HOLDER)
    const w = wallet(taker.privateKey)
    await approve(w, USDC, ALLOWANCE_HOLDER, amountIn)
    const before = { usdc: await balanceOf(USDC, me), weth: await balanceOf(WETH, me) }
    await mined(
      await w.sendTransaction({
        to: quote.transaction.to,
        data: quote.transaction.data,
        value: BigInt(quote.transaction.value),
      }),
    )
    const received = (await balanceOf(WETH, me)) - before.weth
    expect(received).toBeGreaterThanOrEqual(BigInt(quote.minBuyAmount))
    expect(received).toBe(BigInt(quote.buyAmount)) // nothing moved the pool in between
    expect(before.usdc - (await balanceOf(USDC, me))).toBe(amountIn)
    // Nothing stays behind in AllowanceHolder or the Settler.
    for (const holder of [ALLOWANCE_HOLDER, DEVNET_ADDRESSES.ZEROX_SETTLER]) {
      expect(await balanceOf(USDC, holder)).toBe(0n)
      expect(await balanceOf(WETH, holder)).toBe(0n)
    }
  })

  test('behavior: 0x quotes with native ETH: selling ETH sends it as value, buying ETH pays native ETH, each at least minBuyAmount', async () => {
    const taker = await sw.freshWallet(parseUnits('700', 6), parseEther('2'))
    const me = taker.account.address
    const w = wallet(taker.privateKey)
    const gasCost = (r: TransactionReceipt) => r.gasUsed * r.effectiveGasPrice

    // ETH → USDC: no allowance needed, the ETH rides along as value.
    const sellEth = parseEther('0.5')
    const ethPrice = await swapPrice(zeroEx, {
      fromToken: NATIVE_SENTINEL,
      toToken: USDC,
      fromAmount: sellEth.toString(),
      taker: me,
    })
    expect(ethPrice.status).toBe(200)
    expect(ethPrice.body.expectedOut).toBe((await poolTruth(WETH, USDC, sellEth)).amountOut.toString())
    const q1 = await zeroExSim('quote', {
      sellToken: NATIVE_SENTINEL,
      buyToken: USDC,
      sellAmount: sellEth.toString(),
      taker: me,
    })
    expect(q1.buyAmount).toBe(ethPrice.body.expectedOut)
    expect(q1.issues.allowance).toBeNull()
    expect(q1.allowanceTarget).toBeNull()
    expect(BigInt(q1.transaction.value)).toBe(sellEth)
    let usdc = await balanceOf(USDC, me)
    let eth = await sw.chain.getBalance({ address: me })
    const r1 = await mined(
      await w.sendTransaction({ to: q1.transaction.to, data: q1.transaction.data, value: sellEth }),
    )
    expect((await balanceOf(USDC, me)) - usdc).toBeGreaterThanOrEqual(BigInt(q1.minBuyAmount))
    expect(eth - (await sw.chain.getBalance({ address: me }))).toBe(sellEth + gasCost(r1))

    // USDC → ETH: the Settler unwraps WETH and pays out native ETH.
    const sellUsdc = parseUnits('600', 6)
    const q2 = await zeroExSim('quote', {
      sellToken: USDC,
      buyToken: NATIVE_SENTINEL,
      sellAmount: sellUsdc.toString(),
      taker: me,
    })
    expect(q2.buyAmount).toBe((await poolTruth(USDC, WETH, sellUsdc)).amountOut.toString())
    await approve(w, USDC, ALLOWANCE_HOLDER, sellUsdc)
    usdc = await balanceOf(USDC, me)
    eth = await sw.chain.getBalance({ address: me })
    const r2 = await mined(
      await w.sendTransaction({ to: q2.transaction.to, data: q2.transaction.data, value: 0n }),
    )
    const received = (await sw.chain.getBalance({ address: me })) + gasCost(r2) - eth
    expect(received).toBeGreaterThanOrEqual(BigInt(q2.minBuyAmount))
    expect(received).toBe(BigInt(q2.buyAmount))
    expect(usdc - (await balanceOf(USDC, me))).toBe(sellUsdc)
  })
})

describe('refusals', () => {
  test('error: the same token on both sides or a zero amount is a 400 naming the field; no pool is a 409; none moves USDC', async () => {
    const who = await sw.freshWallet(10_000n)
    const payBy = wrapFetchWithPayment(fetch, who.client)
    const taker = who.account.address
    for (const svc of [onchain, zeroEx]) {
      const same = await swapPrice(
        svc,
        { fromToken: USDC.toLowerCase(), toToken: USDC, fromAmount: '1000000', taker },
        payBy,
      )
      expect(same.status).toBe(400)
      expect(same.body.error).toMatchObject({ code: 'invalid_input', field: 'toToken' })
      const zero = await swapPrice(svc, { fromToken: USDC, toToken: WETH, fromAmount: '0', taker }, payBy)
      expect(zero.status).toBe(400)
      expect(zero.body.error).toMatchObject({ code: 'invalid_input', field: 'fromAmount' })
      // UTIL has a pool against USDC only: nothing routes it to cbBTC in one hop.
      const none = await swapPrice(
        svc,
        { fromToken: DEVNET_ADDRESSES.UTIL, toToken: cbBTC, fromAmount: '1000000000000000000', taker },
        payBy,
      )
      expect(none.status).toBe(409)
      expect(none.body.error.code).toBe('no_liquidity')
    }
    expect(await sw.usdcBalance(taker)).toBe(10_000n)
    expect(await onchain.services.deps.ledger.byPayer(taker)).toHaveLength(0)
    expect(await zeroEx.services.deps.ledger.byPayer(taker)).toHaveLength(0)
  })

  test('error: a 0x outage is a 502 with Retry-After and moves no USDC', async () => {
    const broken = await sw.instance({ ZEROX_API_KEY: 'devnet-any-key', ZEROX_API_URL: 'http://127.0.0.1:9' })
    const who = await sw.freshWallet(10_000n)
    const res = await swapPrice(
      broken,
      { fromToken: USDC, toToken: WETH, fromAmount: '1000000', taker: who.account.address },
      wrapFetchWithPayment(fetch, who.client),
    )
    expect(res.status).toBe(502)
    expect(res.body.error.code).toBe('upstream_unavailable')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await sw.usdcBalance(who.account.address)).toBe(10_000n)
  })
})
