import { wrapFetchWithPayment } from '@x402/fetch'
import { type Address, createWalletClient, erc20Abi, type Hex, parseEther, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { beforeAll, describe, expect, test } from 'vitest'
import type { SwapAction } from '../../src/builders/swap/swap.js'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../src/chain/addresses.js'
import type { Arbitrage, ArbitrageRoute } from '../../src/market/arbitrage/getArbitrage.js'
import { broadcast, builderClient, ownerWallet } from '../helpers/builderCalls.js'
import { relClose } from '../helpers/chainChecks.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { bestPool, dumpWethOnAerodrome } from '../helpers/poolTruth.js'
import { type Instance, payer, useInstance, useWorld } from '../helpers/serviceWorld.js'

// GET /v1/arbitrage, paid with the official x402 client on the devnet. Every number is recomputed here:
// each leg quoted straight from QuoterV2 and the Aerodrome router at the answer's block, reference prices
// read from the exchange simulator, gas from the block's base fee; then a route is executed leg by leg
// through POST /v1/tx/swap and its min-out checked onchain.
const { USDC, WETH, cbBTC } = BASE_ADDRESSES
const PRICE_ATOMIC = 10_000n // $0.01

/** The tokens, written out here: symbol, address, decimals, exchange product (null: par). */
const TOKENS: Record<string, { address: Address; decimals: number; product: string | null }> = {
  USDC: { address: USDC, decimals: 6, product: null },
  WETH: { address: WETH, decimals: 18, product: 'ETH-USD' },
  cbBTC: { address: cbBTC, decimals: 8, product: 'BTC-USD' },
}
// The documented gas constants (route description): intrinsic, router overhead, Aerodrome swap, approve.
const GAS = { intrinsic: 21_000n, overhead: 40_000n, aerodrome: 110_000n, approve: 46_000n }

const sw = useWorld()
const svc = useInstance(sw)
let pay: typeof fetch
let payerAddress: Address

beforeAll(async () => {
  const who = payer(3)
  payerAddress = who.account.address
  pay = wrapFetchWithPayment(fetch, who.client)
}, 120_000)

type Answer = Arbitrage & { error?: { code: string; field?: string } }

async function arbitrage(query: Record<string, string>, instance: Instance = svc) {
  const before = await sw.usdcBalance(payerAddress)
  const res = await pay(`${instance.url}/v1/arbitrage?${new URLSearchParams(query)}`)
  const body = (await res.json()) as Answer
  return { status: res.status, body, charged: before - (await sw.usdcBalance(payerAddress)) }
}

/** The exchange simulator's last trade, read here directly. */
async function ticker(product: string): Promise<number> {
  const res = await fetch(`${svc.config.upstreams.coinbaseExchange}/products/${product}/ticker`)
  return Number(((await res.json()) as { price: string }).price)
}

/** Best single hop at `blockNumber`, read straight from the venues, with the venue as the answer labels it. */
async function legTruth(sell: Address, buy: Address, amountIn: bigint, blockNumber: bigint) {
  const best = await bestPool(sw.chain, sell, buy, amountIn, { blockNumber })
  if (best === null) return null
  const venue = best.fee === undefined ? best.venue : `${best.venue} ${best.fee / 10_000}%`
  return { ...best, venue, gasEstimate: best.gasEstimate ?? null }
}

const whole = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals
const floorSlippage = (amount: bigint, bps: number) => (amount * BigInt(10_000 - bps)) / 10_000n

/**
 * Every cycle of `target` (an ERC-20 symbol of TOKENS) recomputed here at the answer's block from its
 * reference prices (themselves checked against the exchange), ranked as the description says.
 */
async function expectedAnswer(
  answer: Arbitrage,
  target: string,
  budget: number,
  slippageBps: number,
  taker: Address,
) {
  expect(answer.reason === null).toBe(answer.routes.length > 0)
  const block = await sw.chain.getBlock({ blockNumber: BigInt(answer.blockNumber as string) })
  expect(answer.baseFeeWei).toBe((block.baseFeePerGas ?? 0n).toString())
  const price = new Map<string, number>()
  for (const ref of answer.referencePrices) {
    const product = ref.symbol === 'ETH (gas)' ? 'ETH-USD' : TOKENS[ref.symbol]?.product
    expect(ref.source).toBe(product === null ? 'par' : `coinbase:${product}`)
    if (product === null) expect(ref.priceUsd).toBe(1)
    else relClose(ref.priceUsd, await ticker(product as string), 5e-3)
    price.set(ref.symbol, ref.priceUsd as number)
  }
  const ethUsd = price.get('ETH (gas)') as number
  const t = TOKENS[target] as (typeof TOKENS)[string]
  expect(answer.token).toBe(t.address)
  expect(answer.referencePriceUsd).toBe(price.get(target))
  const amountIn = BigInt(Math.floor((budget / (price.get(target) as number)) * 10 ** t.decimals))
  const via = Object.keys(TOKENS).filter((s) => s !== target)
  const cycles = [
    ...via.map((x) => [target, x, target]),
    ...via.flatMap((x) => via.filter((y) => y !== x).map((y) => [target, x, y, target])),
  ]
  const computed = []
  for (const cycle of cycles) {
    let sell = amountIn
    let leftover = 0
    let fees = 0
    let gasUnits = 0n
    const path = [target]
    const legs = []
    let ok = true
    for (let i = 0; i + 1 < cycle.length; i++) {
      const from = TOKENS[cycle[i] as string] as (typeof TOKENS)[string]
      const to = TOKENS[cycle[i + 1] as string] as (typeof TOKENS)[string]
      const truth = await legTruth(from.address, to.address, sell, block.number)
      if (truth === null) {
        ok = false
        break
      }
      const minOut = floorSlippage(truth.amountOut, slippageBps)
      if (minOut === 0n) {
        ok = false
        break
      }
      path.push(truth.venue, cycle[i + 1] as string)
      fees += (whole(sell, from.decimals) * (price.get(cycle[i] as string) as number) * truth.feeBps) / 10_000
      gasUnits += GAS.intrinsic + GAS.overhead + (truth.gasEstimate ?? GAS.aerodrome) + GAS.approve
      if (i + 2 < cycle.length)
        leftover +=
          whole(truth.amountOut - minOut, to.decimals) * (price.get(cycle[i + 1] as string) as number)
      legs.push({
        venue: truth.venue,
        fromToken: from.address,
        toToken: to.address,
        amountIn: sell.toString(),
        expectedOut: truth.amountOut.toString(),
        minOut: minOut.toString(),
        swap: {
          fromToken: from.address,
          toToken: to.address,
          fromAmount: sell.toString(),
          taker,
          slippageBps,
        },
      })
      sell = minOut
    }
    if (!ok) continue
    const last = legs.at(-1) as (typeof legs)[number]
    const p = price.get(target) as number
    const gasUsd = (Number(gasUnits * (block.baseFeePerGas ?? 0n)) / 1e18) * ethUsd
    const netUsd =
      whole(BigInt(last.expectedOut), t.decimals) * p + leftover - whole(amountIn, t.decimals) * p - gasUsd
    computed.push({
      path,
      amountIn: amountIn.toString(),
      expectedOut: last.expectedOut,
      minOut: last.minOut,
      minOutUsd: whole(BigInt(last.minOut), t.decimals) * p,
      leftoverUsd: leftover,
      gasUnits: gasUnits.toString(),
      gasUsd,
      feesUsd: fees,
      netUsd,
      legs,
    })
  }
  const ranked = computed
    .filter((r) => r.netUsd > 0)
    .sort((a, b) => b.netUsd - a.netUsd || (a.path.join(' ') < b.path.join(' ') ? -1 : 1))
    .slice(0, 10)
  expect(answer.routes.map((r) => r.path)).toEqual(ranked.map((r) => r.path))
  for (const [i, want] of ranked.entries()) {
    const got = answer.routes[i] as ArbitrageRoute
    expect(got.rank).toBe(i + 1)
    const { minOutUsd, leftoverUsd, gasUsd, feesUsd, netUsd, ...exact } = want
    expect(got).toMatchObject(exact)
    for (const [k, v] of Object.entries({ minOutUsd, leftoverUsd, gasUsd, feesUsd, netUsd }))
      expect(Math.abs((got[k as keyof ArbitrageRoute] as number) - v), k).toBeLessThanOrEqual(2e-6)
  }
  return { computed, ranked }
}

/**
 * Executes `route` from the taker's key: each leg's body exactly as given, built (paid) by POST
 * /v1/tx/swap on `instance`, broadcast; each leg must be quoted by `quotedBy` at the answer's minOut
 * (pools untouched since the answer) and receive at least it, and the cycle at least its minOut.
 * Returns the taker's balance reader.
 */
async function executeRoute(
  route: ArbitrageRoute,
  privateKey: Hex,
  instance: Instance,
  quotedBy: SwapAction['quotedBy'],
) {
  const owner = createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: base,
    transport: headroomHttp(sw.world.rpcUrl),
  })
  const taker = owner.account.address
  const builds = builderClient(sw, instance)
  const balanceOf = (token: Address) =>
    sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [taker] })
  const start = await balanceOf(route.legs[0]?.fromToken as Address)
  for (const leg of route.legs) {
    const built = await builds.post<SwapAction>('/v1/tx/swap', leg.swap)
    expect(built.status, JSON.stringify(built.body.error)).toBe(200)
    expect(built.body.action.quotedBy).toBe(quotedBy)
    expect(built.body.action.minOut).toBe(leg.minOut)
    const before = await balanceOf(leg.toToken)
    await broadcast(sw.chain, owner, built.body)
    expect((await balanceOf(leg.toToken)) - before).toBeGreaterThanOrEqual(BigInt(leg.minOut))
  }
  const end = await balanceOf(route.legs[0]?.fromToken as Address)
  expect(end - start + BigInt(route.amountIn)).toBeGreaterThanOrEqual(BigInt(route.minOut))
  return balanceOf
}

/** What the 0x simulator prices, asked directly with the headers 0x requires. */
async function zeroExPrice(instance: Instance, query: Record<string, string>) {
  const q = new URLSearchParams({ chainId: '8453', ...query })
  const res = await fetch(`${instance.config.upstreams.zeroEx}/swap/allowance-holder/price?${q}`, {
    headers: { '0x-api-key': 'test', '0x-version': 'v2' },
  })
  expect(res.status).toBe(200)
  return (await res.json()) as {
    buyAmount: string
    minBuyAmount: string
    gas: string | null
    fees: { zeroExFee: null | { amount: string } }
    route: { fills: { source: string }[] }
  }
}

describe('GET /v1/arbitrage', () => {
  test('behavior: the untouched world: every listed route recomputed from the pools at its block; none is a reason', async () => {
    const taker = ownerWallet(sw, 4).account.address
    for (const target of ['USDC', 'xBTC'] as const) {
      const { status, body, charged } = await arbitrage({ target, budget: '250', taker, slippageBps: '100' })
      expect(status).toBe(200)
      expect(charged).toBe(PRICE_ATOMIC)
      expect(body.budgetUsd).toBe(250)
      expect(body.disclaimer).toMatch(/not advice/)
      const { computed } = await expectedAnswer(body, target === 'xBTC' ? 'cbBTC' : target, 250, 100, taker)
      // The cycles with a pool on every leg were quoted (WETH/cbBTC has none on the devnet).
      expect(computed.length).toBeGreaterThan(0)
      if (body.routes.length === 0) expect(body.reason).toMatch(/none nets more than 0 USD/)
    }
  }, 60_000)

  test('behavior: a pool pushed off price is found, ranked first, and each leg built and sent honours its min-out', async () => {
    // A base fee that makes gas worth dollars (the idle devnet's is a few wei): 3 gwei from the next block.
    await (sw.chain.request as (a: { method: string; params: unknown[] }) => Promise<unknown>)({
      method: 'anvil_setNextBlockBaseFeePerGas',
      params: ['0xb2d05e00'],
    })
    // Demo 7 dumps 20 WETH into Aerodrome's WETH/USDC pool: WETH is then far cheaper there than on Uniswap.
    await dumpWethOnAerodrome(sw.chain, ownerWallet(sw, 7), parseEther('20'))
    const fresh = await sw.freshWallet(parseUnits('2000', 6), parseEther('1'))
    const taker = fresh.account.address
    const slippageBps = 80

    // The mirrored cycle first (nothing moves the pools before it is read): WETH → USDC on Uniswap → WETH on Aerodrome.
    const weth = await arbitrage({ target: 'WETH', budget: '1000', taker, slippageBps: String(slippageBps) })
    expect(weth.status).toBe(200)
    await expectedAnswer(weth.body, 'WETH', 1000, slippageBps, taker)
    expect(weth.body.routes[0]?.path).toEqual(['WETH', 'Uniswap_V3 0.05%', 'USDC', 'Aerodrome_V2', 'WETH'])

    // Buying native ETH: Aerodrome would pay most (its WETH is cheap now), but its router takes no native
    // ETH, so the swap builder goes through Uniswap; the quotes the arbitrage legs (and /v1/swap/price)
    // rest on must name that same pool and amount.
    const ethBody = {
      fromToken: USDC,
      toToken: NATIVE_SENTINEL,
      fromAmount: parseUnits('1000', 6).toString(),
      taker,
      slippageBps,
    }
    const priceRes = await pay(
      `${svc.url}/v1/swap/price?${new URLSearchParams({ ...ethBody, slippageBps: String(slippageBps) })}`,
    )
    expect(priceRes.status).toBe(200)
    const price = (await priceRes.json()) as { expectedOut: string; route: { source: string }[] }
    const ethBuild = await builderClient(sw, svc).post<SwapAction>('/v1/tx/swap', ethBody)
    expect(ethBuild.status, JSON.stringify(ethBuild.body.error)).toBe(200)
    expect(price.route.map((r) => r.source)).toEqual(['Uniswap_V3'])
    expect(ethBuild.body.action.route.map((r) => r.source)).toEqual(['Uniswap_V3'])
    expect(ethBuild.body.action.expectedOut).toBe(price.expectedOut)
    const eth = await arbitrage({ target: 'ETH', budget: '1000', taker, slippageBps: String(slippageBps) })
    expect(eth.status).toBe(200)
    for (const r of eth.body.routes)
      for (const leg of r.legs)
        if (leg.fromToken === NATIVE_SENTINEL || leg.toToken === NATIVE_SENTINEL)
          expect(leg.venue).toMatch(/^Uniswap_V3 /)

    const { status, body, charged } = await arbitrage({
      target: 'USDC',
      budget: '1000',
      taker,
      slippageBps: String(slippageBps),
    })
    expect(status).toBe(200)
    expect(charged).toBe(PRICE_ATOMIC)
    await expectedAnswer(body, 'USDC', 1000, slippageBps, taker)
    expect(BigInt(body.baseFeeWei as string)).toBeGreaterThan(10n ** 8n)
    const route = body.routes[0] as ArbitrageRoute
    expect(route.gasUsd).toBeGreaterThan(0.01)
    expect(route.rank).toBe(1)
    expect(route.path).toEqual(['USDC', 'Aerodrome_V2', 'WETH', 'Uniswap_V3 0.05%', 'USDC'])
    expect(route.netUsd).toBeGreaterThan(0)
    expect(route.amountIn).toBe(parseUnits('1000', 6).toString())

    // Execute: each leg's body exactly as given, built (paid) by POST /v1/tx/swap, sent from the taker.
    const balanceOf = await executeRoute(route, fresh.privateKey, svc, 'onchain')
    // The part of leg 1 above its minOut stayed with the taker as WETH.
    expect(await balanceOf(WETH)).toBe(
      BigInt(route.legs[0]?.expectedOut as string) - BigInt(route.legs[0]?.minOut as string),
    )
  }, 60_000)

  test('behavior: the same market state gives the same routes', async () => {
    const taker = ownerWallet(sw, 5).account.address
    const query = { target: 'USDC', budget: '500', taker, slippageBps: '50' }
    const first = await arbitrage(query)
    const second = await arbitrage(query) // only the payment's settlement was mined in between
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(first.body.routes.length).toBeGreaterThan(0)
    // Gas units aside: a Uniswap v3 swap that crosses a tick writes an oracle observation unless the pool
    // already wrote one at this block's timestamp, so QuoterV2's gas estimate moves by a few thousand with
    // the block's clock alone (the reads are a block or more apart). Compared within 5% below.
    const chainPart = (a: Arbitrage) =>
      a.routes.map(({ minOutUsd, leftoverUsd, gasUsd, feesUsd, netUsd, gasUnits, ...rest }) => rest)
    expect(chainPart(second.body)).toEqual(chainPart(first.body))
    first.body.routes.forEach((r, i) => {
      const a = BigInt(r.gasUnits)
      const b = BigInt(second.body.routes[i]?.gasUnits ?? '0')
      expect(b > a ? b - a : a - b).toBeLessThanOrEqual(a / 20n)
    })
    for (const a of [first.body, second.body]) await expectedAnswer(a, 'USDC', 500, 50, taker)
  }, 60_000)

  test('behavior: with a 0x key every leg is the 0x API’s quote; a pushed pool’s cycle is found, and each leg built through 0x honours its min-out', async () => {
    const zx = await sw.instance({ ZEROX_API_KEY: 'test' })
    // Demo 7 dumps 20 WETH into Aerodrome's WETH/USDC pool: WETH is then far cheaper there than on Uniswap.
    await dumpWethOnAerodrome(sw.chain, ownerWallet(sw, 7), parseEther('20'))
    const fresh = await sw.freshWallet(parseUnits('2000', 6), parseEther('1'))
    const taker = fresh.account.address
    const slippageBps = 80
    const { status, body, charged } = await arbitrage(
      { target: 'USDC', budget: '1000', taker, slippageBps: String(slippageBps) },
      zx,
    )
    expect(status).toBe(200)
    expect(charged).toBe(PRICE_ATOMIC)
    expect(body.routes.length).toBeGreaterThan(0)
    const price = new Map(body.referencePrices.map((r) => [r.symbol, r.priceUsd as number]))
    relClose(price.get('ETH (gas)') as number, await ticker('ETH-USD'), 5e-3)
    const usd = (token: Address, amount: bigint) => {
      const [symbol, t] = Object.entries(TOKENS).find(([, t]) => t.address === token) as [
        string,
        (typeof TOKENS)[string],
      ]
      return whole(amount, t.decimals) * (price.get(symbol) as number)
    }
    // Every leg, asked of the 0x simulator directly: the same amounts and fills; each leg sells the
    // previous leg's minOut; the route's dollars recomputed from those quotes with the documented gas.
    for (const route of body.routes) {
      let gasUnits = 0n
      let leftover = 0
      for (const [i, leg] of route.legs.entries()) {
        if (i > 0) expect(leg.amountIn).toBe(route.legs[i - 1]?.minOut)
        const truth = await zeroExPrice(zx, {
          sellToken: leg.fromToken,
          buyToken: leg.toToken,
          sellAmount: leg.amountIn,
          taker,
          slippageBps: String(slippageBps),
        })
        expect(leg.expectedOut).toBe(truth.buyAmount)
        expect(leg.minOut).toBe(truth.minBuyAmount)
        expect(leg.venue).toBe(`0x:${[...new Set(truth.route.fills.map((f) => f.source))].join('+')}`)
        expect(leg.swap).toEqual({
          fromToken: leg.fromToken,
          toToken: leg.toToken,
          fromAmount: leg.amountIn,
          taker,
          slippageBps,
        })
        // The fresh taker has not approved AllowanceHolder (nor holds the later legs' tokens), so 0x's
        // gas estimate of the transaction reverts and is null: the documented constant stands in.
        expect(truth.gas).toBeNull()
        gasUnits +=
          GAS.intrinsic +
          GAS.overhead +
          GAS.aerodrome +
          (leg.fromToken === NATIVE_SENTINEL ? 0n : GAS.approve)
        if (i + 1 < route.legs.length)
          leftover += usd(leg.toToken, BigInt(leg.expectedOut) - BigInt(leg.minOut))
      }
      const last = route.legs.at(-1) as ArbitrageRoute['legs'][number]
      expect(route.expectedOut).toBe(last.expectedOut)
      expect(route.minOut).toBe(last.minOut)
      expect(route.gasUnits).toBe(gasUnits.toString())
      const gasUsd =
        (Number(gasUnits * BigInt(body.baseFeeWei as string)) / 1e18) * (price.get('ETH (gas)') as number)
      const netUsd =
        usd(USDC, BigInt(last.expectedOut)) + leftover - usd(USDC, BigInt(route.amountIn)) - gasUsd
      expect(Math.abs(route.netUsd - netUsd)).toBeLessThanOrEqual(2e-6)
    }
    const nets = body.routes.map((r) => r.netUsd)
    expect(nets).toEqual([...nets].sort((a, b) => b - a))
    const route = body.routes[0] as ArbitrageRoute
    expect(route.path).toEqual(['USDC', '0x:Aerodrome_V2', 'WETH', '0x:Uniswap_V3', 'USDC'])

    // Execute through the 0x-keyed service: each leg's body as given, built by POST /v1/tx/swap.
    await executeRoute(route, fresh.privateKey, zx, '0x')
  }, 60_000)

  test('error: missing taker or a negative budget is a 400 naming the field, not charged', async () => {
    const noTaker = await arbitrage({ target: 'USDC' })
    expect(noTaker.status).toBe(400)
    expect(noTaker.body.error).toMatchObject({ field: 'taker' })
    expect(noTaker.charged).toBe(0n)
    const taker = ownerWallet(sw, 4).account.address
    const negative = await arbitrage({ target: 'USDC', budget: '-1', taker })
    expect(negative.status).toBe(400)
    expect(negative.body.error).toMatchObject({ field: 'budget' })
    expect(negative.charged).toBe(0n)
  })

  test('default: a target without a token, a budget of 0 or an unpriced token is a 200 with no routes and the reason', async () => {
    const taker = ownerWallet(sw, 4).account.address
    const ada = await arbitrage({ target: 'xADA', taker })
    expect(ada.status).toBe(200)
    expect(ada.body).toMatchObject({ target: 'xADA', token: null, budgetUsd: 100, routes: [] })
    expect(ada.body.reason).toMatch(/no token in the network's address book/)
    const zero = await arbitrage({ target: 'USDC', budget: '0', taker })
    expect(zero.status).toBe(200)
    expect(zero.body).toMatchObject({ token: USDC, referencePriceUsd: 1, budgetUsd: 0, routes: [] })
    expect(zero.body.reason).toMatch(/buys no whole atomic unit/)
    // cbETH: the exchange simulator lists no CBETH-USD, so there is nothing to value it with.
    const products = (await (await fetch(`${svc.config.upstreams.coinbaseExchange}/products`)).json()) as {
      id: string
    }[]
    expect(products.some((p) => p.id === 'CBETH-USD')).toBe(false)
    const cbEth = await arbitrage({ target: 'xETH', taker })
    expect(cbEth.body).toMatchObject({ token: BASE_ADDRESSES.cbETH, referencePriceUsd: null, routes: [] })
    expect(cbEth.body.reason).toMatch(/No reference price for cbETH/)
    // Default target xBTC.
    const dflt = await arbitrage({ taker })
    expect(dflt.body).toMatchObject({ target: 'xBTC', token: cbBTC })
  })
})
