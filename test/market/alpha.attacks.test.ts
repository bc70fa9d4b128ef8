import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { wrapFetchWithPayment } from '@x402/fetch'
import { type Address, erc20Abi, getAddress, parseEther, parseUnits, zeroAddress } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import type { IdeaRead } from '../../src/analytics/ideaFromBars.js'
import type { SwapAction } from '../../src/builders/swap/swap.js'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import type { ErrorBody } from '../../src/errors.js'
import type { Alpha } from '../../src/market/alpha/getAlpha.js'
import type { Arbitrage, ArbitrageRoute } from '../../src/market/arbitrage/getArbitrage.js'
import type { AssetIdea } from '../../src/market/ideas/getAssetIdea.js'
import type { Ideas } from '../../src/market/ideas/getIdeas.js'
import type { IdeasCompare } from '../../src/market/ideas/getIdeasCompare.js'
import { builderClient, ownerWallet } from '../helpers/builderCalls.js'
import { expectRefused } from '../helpers/expectRefused.js'
import { dumpWethOnAerodrome } from '../helpers/poolTruth.js'
import { type Instance, payer, useInstance, useWorld } from '../helpers/serviceWorld.js'

// Attacks on the alpha reads (issue 15): odd and out-of-range inputs, budgets no token amount can carry,
// slippage beyond what the swap builder takes, zero and lowercase takers, dead upstreams on a second
// instance, an underfunded payer racing five calls, and a route's leg bodies built for a taker who holds
// nothing. Every call checks its status and the payer's USDC on the chain before and after.
const { USDC, WETH } = BASE_ADDRESSES
const IDEAS_PRICE = 10_000n // $0.01: /v1/ideas, /v1/ideas/summary, /v1/arbitrage, /v1/alpha
const COMPARE_PRICE = 5_000n // $0.005
const ASSET_PRICE = 1_000n // $0.001
const UINT256_MAX = 2n ** 256n - 1n

const sw = useWorld()
const svc = useInstance(sw)
let pay: typeof fetch
let payerAddress: Address

beforeAll(async () => {
  const who = payer(6)
  payerAddress = who.account.address
  pay = wrapFetchWithPayment(fetch, who.client)
}, 120_000)

interface Paid<T> {
  status: number
  body: T & Partial<ErrorBody>
  charged: bigint
}

/** GET `path` on `on` (default the shared instance), paid by the official client; USDC read around it. */
async function get<T>(path: string, on: Instance = svc): Promise<Paid<T>> {
  const before = await sw.usdcBalance(payerAddress)
  const res = await pay(`${on.url}${path}`)
  const body = (await res.json()) as Paid<T>['body']
  return { status: res.status, body, charged: before - (await sw.usdcBalance(payerAddress)) }
}

/** Every number anywhere in a 200 answer is finite (a NaN would travel as null, an Infinity too). */
function expectFiniteNumbers(value: unknown, at = '$'): void {
  if (typeof value === 'number') expect(Number.isFinite(value), at).toBe(true)
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) expectFiniteNumbers(v, `${at}.${k}`)
}

/** The documented geometry of an idea: stop on the losing side, tp on the winning one, leverage in range. */
function expectSaneIdea(i: IdeaRead) {
  expect(i.entry).toBeGreaterThan(0)
  const sign = i.direction === 'long' ? 1 : -1
  expect(sign * (i.entry - i.stop)).toBeGreaterThan(0)
  expect(sign * (i.open.tp - i.entry)).toBeGreaterThan(0)
  expect(i.conviction).toBeGreaterThanOrEqual(0)
  expect(i.conviction).toBeLessThanOrEqual(1)
  expect(i.leverage).toBeGreaterThanOrEqual(1.1)
  expect(i.leverage).toBeLessThanOrEqual(i.maxLeverage)
  expect(i.open).toMatchObject({ long: i.direction === 'long', markPrice: i.entry, sl: i.stop })
}

/** The exchange simulator's last trade, read here directly. */
async function ticker(product: string): Promise<number> {
  const res = await fetch(`${svc.config.upstreams.coinbaseExchange}/products/${product}/ticker`)
  return Number(((await res.json()) as { price: string }).price)
}

/** A loopback port nothing listens on: bound by the system, then closed. */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  await new Promise((r) => server.close(r))
  return port
}

describe('alpha reads: inputs', () => {
  test('attack: 21 tickers or an empty list is a 400 naming symbols; mixed-case duplicates are read once', async () => {
    const t21 = Array.from({ length: 21 }, (_, i) => `S${i}`).join(',')
    await expectRefused(await get(`/v1/ideas?symbols=${t21}`), {
      status: 400,
      field: 'symbols',
      code: 'invalid_input',
    })
    await expectRefused(await get('/v1/ideas?symbols='), {
      status: 400,
      field: 'symbols',
      code: 'invalid_input',
    })
    await expectRefused(await get('/v1/ideas?symbols=BTC,,ETH'), {
      status: 400,
      field: 'symbols',
      code: 'invalid_input',
    })
    await expectRefused(await get(`/v1/alpha?symbols=${t21}`), {
      status: 400,
      field: 'symbols',
      code: 'invalid_input',
    })
    // All unknown: the ideas' 400, not charged.
    await expectRefused(await get('/v1/ideas?symbols=NOPE,nope'), {
      status: 400,
      field: 'symbols',
      code: 'unknown_symbol',
    })

    const twice = await get<Ideas>('/v1/ideas?symbols=BTC,btc,Btc&limit=12&worthwhileness=loose')
    expect(twice.status).toBe(200)
    expect(twice.charged).toBe(IDEAS_PRICE)
    expectFiniteNumbers(twice.body)
    const { neutral, insufficientHistory, unknown, unavailable } = twice.body.skipped
    const seen = [
      ...twice.body.ideas.map((i) => i.symbol),
      ...neutral.map((n) => n.symbol),
      ...insufficientHistory.map((n) => n.symbol),
      ...unavailable,
    ]
    expect(unknown).toEqual([])
    // BTC is read once at most: no idea, skip or count doubled by a second spelling.
    expect(seen.filter((s) => s === 'BTC').length).toBeLessThanOrEqual(1)
    expect(seen.every((s) => s === 'BTC')).toBe(true)
    for (const i of twice.body.ideas) expectSaneIdea(i)

    // The bundle: its summary universe and signals list each market once.
    const bundle = await get<Alpha>('/v1/alpha?symbols=BTC,btc,ETH,eth')
    expect(bundle.status).toBe(200)
    expect(bundle.charged).toBe(IDEAS_PRICE)
    expectFiniteNumbers(bundle.body)
    expect(bundle.body.summary.universe).toEqual(['BTC', 'ETH'])
    const { long, short, neutral: flat } = bundle.body.summary.breadth
    expect(long + short + flat).toBeLessThanOrEqual(2)
    const signalSymbols = bundle.body.signals.map((s) => s.symbol.toUpperCase())
    expect(new Set(signalSymbols).size).toBe(signalSymbols.length)
    for (const i of bundle.body.ideas) expectSaneIdea(i)
  }, 60_000)

  test('attack: limit 0, 13, 1.5, empty or junk is a 400 naming limit, not charged', async () => {
    for (const limit of ['0', '13', '1.5', '', 'abc', '-1', '1e1000'])
      await expectRefused(await get(`/v1/ideas?symbols=BTC&limit=${limit}`), {
        status: 400,
        field: 'limit',
        code: 'invalid_input',
      })
    await expectRefused(await get('/v1/alpha?symbols=BTC&limit=13'), {
      status: 400,
      field: 'limit',
      code: 'invalid_input',
    })
    await expectRefused(await get('/v1/ideas?basis=1h'), {
      status: 400,
      field: 'basis',
      code: 'invalid_input',
    })
    await expectRefused(await get('/v1/ideas?worthwhileness=STRICT'), {
      status: 400,
      field: 'worthwhileness',
      code: 'invalid_input',
    })
    // The bounds themselves are served.
    const twelve = await get<Ideas>('/v1/ideas?limit=12&worthwhileness=loose')
    expect(twelve.status).toBe(200)
    expect(twelve.charged).toBe(IDEAS_PRICE)
    expect(twelve.body.ideas.length).toBeLessThanOrEqual(12)
    expectFiniteNumbers(twelve.body)
    for (const i of twelve.body.ideas) expectSaneIdea(i)
  }, 60_000)

  test('attack: junk in the asset path is a 400 naming sym or a 404, never charged; lowercase reads the market', async () => {
    await expectRefused(await get('/v1/ideas/asset/%00x'), {
      status: 400,
      field: 'sym',
      code: 'invalid_input',
    })
    await expectRefused(await get('/v1/ideas/asset/%F0%9F%92%A9'), {
      status: 400,
      field: 'sym',
      code: 'invalid_input',
    })
    await expectRefused(await get(`/v1/ideas/asset/${'A'.repeat(25)}`), {
      status: 400,
      field: 'sym',
      code: 'invalid_input',
    })
    await expectRefused(await get('/v1/ideas/asset/%2E%2E'), { status: 404 })
    await expectRefused(await get('/v1/ideas/asset/BTC%2FUSD'), { status: 404 })
    await expectRefused(await get('/v1/ideas/asset/NOPE'), {
      status: 404,
      field: 'sym',
      code: 'unknown_instrument',
    })
    await expectRefused(await get('/v1/ideas/asset/BTC?basis=1w'), {
      status: 400,
      field: 'basis',
      code: 'invalid_input',
    })

    const lower = await get<AssetIdea>('/v1/ideas/asset/btc')
    expect(lower.status).toBe(200)
    expect(lower.charged).toBe(ASSET_PRICE)
    expect(lower.body.symbol).toBe('BTC')
    expectFiniteNumbers(lower.body)
    if (lower.body.idea !== null) {
      expectSaneIdea(lower.body.idea)
      // The single-asset form fills target (= open.tp) and the liquidation line on the losing side.
      expect(lower.body.idea.target).toBe(lower.body.idea.open.tp)
      const sign = lower.body.idea.direction === 'long' ? 1 : -1
      expect(sign * (lower.body.idea.stop - (lower.body.idea.liquidation as number))).toBeGreaterThan(0)
    }
    // The hedge and alternatives never repeat the asked market.
    for (const i of [...lower.body.alternatives, ...(lower.body.hedge === null ? [] : [lower.body.hedge])])
      expect(i.symbol).not.toBe('BTC')
  }, 60_000)

  test('attack: compare of one market in two spellings is a 400 naming b; mixed case is read canonically', async () => {
    await expectRefused(await get('/v1/ideas/compare?a=BTC&b=btc'), {
      status: 400,
      field: 'b',
      code: 'invalid_input',
    })
    await expectRefused(await get('/v1/ideas/compare?a=BTC'), {
      status: 400,
      field: 'b',
      code: 'invalid_input',
    })
    await expectRefused(await get('/v1/ideas/compare?a=NOPE&b=BTC'), {
      status: 404,
      field: 'a',
      code: 'unknown_instrument',
    })
    await expectRefused(await get('/v1/ideas/compare?a=BTC&b=NOPE'), {
      status: 404,
      field: 'b',
      code: 'unknown_instrument',
    })

    const r = await get<IdeasCompare>('/v1/ideas/compare?a=eth&b=Btc')
    expect(r.status).toBe(200)
    expect(r.charged).toBe(COMPARE_PRICE)
    expectFiniteNumbers(r.body)
    expect(r.body.a.symbol).toBe('ETH')
    expect(r.body.b.symbol).toBe('BTC')
    expect(r.body.status).toBe('ok')
    // The ratio of the last daily closes sits near the exchange's spot ratio (both markets drift slowly).
    const spot = (await ticker('ETH-USD')) / (await ticker('BTC-USD'))
    expect(Math.abs((r.body.ratio as number) / spot - 1)).toBeLessThan(0.25)
    expect(Math.abs(r.body.correlation as number)).toBeLessThanOrEqual(1)
    if (r.body.suggestion !== null) expect(Math.abs(r.body.zScore as number)).toBeGreaterThanOrEqual(2)
  }, 60_000)
})

describe('GET /v1/arbitrage: budget, slippage, taker', () => {
  const taker = () => ownerWallet(sw, 4).account.address
  // The devnet's pusher keeps venues within 1% at rest, too close for a route to net anything: a 20 WETH
  // dump on Aerodrome opens one, as a large trade does on Base.
  beforeAll(async () => {
    await dumpWethOnAerodrome(sw.chain, ownerWallet(sw, 7), parseEther('20'))
  }, 60_000)

  test('attack: budgets that are not plain decimals (empty and hex too) are a 400 naming budget; -0 buys nothing (200, reason)', async () => {
    // An empty value or hex is not a silent 0 or 16 (Number() would read them so).
    for (const budget of ['1e400', 'NaN', 'Infinity', '-Infinity', '-1', 'abc', '', '0x10'])
      await expectRefused(await get(`/v1/arbitrage?target=USDC&taker=${taker()}&budget=${budget}`), {
        status: 400,
        field: 'budget',
        code: 'invalid_input',
      })
    await expectRefused(await get(`/v1/alpha?symbols=BTC&taker=${taker()}&budget=NaN`), {
      status: 400,
      field: 'budget',
    })
    await expectRefused(await get(`/v1/arbitrage?target=USDC&taker=${taker()}&slippageBps=`), {
      status: 400,
      field: 'slippageBps',
    })
    const zero = await get<Arbitrage>(`/v1/arbitrage?target=USDC&taker=${taker()}&budget=-0`)
    expect(zero.status).toBe(200)
    expect(zero.charged).toBe(IDEAS_PRICE)
    expect(zero.body).toMatchObject({ budgetUsd: 0, routes: [], referencePriceUsd: 1 })
    expect(zero.body.reason).toMatch(/buys no whole atomic unit/)
    // Below one satoshi at the exchange's BTC price: no unit to sell, no made-up route.
    const sat = (await ticker('BTC-USD')) / 1e8
    const dust = await get<Arbitrage>(`/v1/arbitrage?target=xBTC&taker=${taker()}&budget=${sat / 2}`)
    expect(dust.status).toBe(200)
    expect(dust.charged).toBe(IDEAS_PRICE)
    expect(dust.body.routes).toEqual([])
    expect(dust.body.reason).toMatch(/buys no whole atomic unit of cbBTC/)
    // One atomic USDC: the legs round down to nothing on the way back, every cycle dropped, a reason.
    const one = await get<Arbitrage>(`/v1/arbitrage?target=USDC&taker=${taker()}&budget=0.000001`)
    expect(one.status).toBe(200)
    expect(one.charged).toBe(IDEAS_PRICE)
    expectFiniteNumbers(one.body)
    expect(one.body.routes).toEqual([])
    expect(one.body.reason).toMatch(/No venue quotes every leg|none nets more than 0 USD/)
  }, 60_000)

  test('attack: a budget no token amount can carry (1e308, 1e75 USD) is a 200 with a reason, not a 500', async () => {
    // Independent truth: USDC at par, 6 decimals: 1e75 USD is 1e81 atomic and 1e308 USD 1e314, both past
    // a uint256 (about 1.158e77), so no swap can sell them.
    expect(BigInt(1e75) * 10n ** 6n).toBeGreaterThan(UINT256_MAX)
    for (const budget of ['1e308', '1e75']) {
      const r = await get<Arbitrage>(`/v1/arbitrage?target=USDC&taker=${taker()}&budget=${budget}`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.charged).toBe(IDEAS_PRICE)
      expectFiniteNumbers(r.body)
      expect(r.body).toMatchObject({ budgetUsd: Number(budget), routes: [], referencePriceUsd: 1 })
      expect(r.body.reason).toMatch(/uint256/)
    }
    // A budget a uint256 holds but no pool can fill: 200, every cycle dropped, a reason.
    const huge = await get<Arbitrage>(`/v1/arbitrage?target=xBTC&taker=${taker()}&budget=1e40`)
    expect(huge.status).toBe(200)
    expect(huge.charged).toBe(IDEAS_PRICE)
    expect(huge.body.routes).toEqual([])
    expect(huge.body.reason).toMatch(/No venue quotes every leg|none nets more than 0 USD/)
    // The bundle passes the budget through: its arbitrage section says why, the rest is served.
    const bundle = await get<Alpha>(`/v1/alpha?symbols=BTC,ETH&taker=${taker()}&budget=1e308`)
    expect(bundle.status, JSON.stringify(bundle.body)).toBe(200)
    expect(bundle.charged).toBe(IDEAS_PRICE)
    expectFiniteNumbers(bundle.body)
    expect(bundle.body.arbitrage?.routes).toEqual([])
    expect(bundle.body.arbitrage?.reason).toMatch(/uint256/)
  }, 60_000)

  test('attack: slippageBps 10000 lists legs at 5000 that POST /v1/tx/swap builds; -1 and 10001 are 400s', async () => {
    await expectRefused(await get(`/v1/arbitrage?target=USDC&taker=${taker()}&slippageBps=-1`), {
      status: 400,
      field: 'slippageBps',
    })
    await expectRefused(await get(`/v1/arbitrage?target=USDC&taker=${taker()}&slippageBps=10001`), {
      status: 400,
      field: 'slippageBps',
    })
    await expectRefused(await get(`/v1/arbitrage?target=USDC&taker=${taker()}&slippageBps=0.5`), {
      status: 400,
      field: 'slippageBps',
    })
    await expectRefused(await get(`/v1/alpha?symbols=BTC&taker=${taker()}&slippageBps=10001`), {
      status: 400,
      field: 'slippageBps',
    })

    // A taker holding the budget (and gas money) but no WETH.
    const fresh = await sw.freshWallet(parseUnits('500', 6), parseEther('0.01'))
    const r = await get<Arbitrage>(
      `/v1/arbitrage?target=USDC&budget=500&taker=${fresh.account.address}&slippageBps=10000`,
    )
    expect(r.status).toBe(200)
    expect(r.charged).toBe(IDEAS_PRICE)
    expectFiniteNumbers(r.body)
    expect(r.body.routes.length).toBeGreaterThan(0)
    for (const route of r.body.routes) {
      expect(route.netUsd).toBeGreaterThan(0)
      expect(route.minOutUsd).toBeGreaterThan(0)
      let sells = BigInt(route.amountIn)
      for (const leg of route.legs) {
        expect(leg.swap.slippageBps).toBe(5000)
        expect(leg.amountIn).toBe(sells.toString())
        expect(BigInt(leg.minOut)).toBe((BigInt(leg.expectedOut) * 5000n) / 10_000n)
        expect(BigInt(leg.minOut)).toBeGreaterThan(0n)
        sells = BigInt(leg.minOut)
      }
      expect(route.minOut).toBe(sells.toString())
    }

    // The first route's legs, each body exactly as listed, through the (paid) swap builder.
    const builds = builderClient(sw, svc)
    const route = r.body.routes[0] as ArbitrageRoute
    const [first, second] = route.legs
    expect(first?.fromToken).toBe(USDC)
    const built = await builds.post<SwapAction>('/v1/tx/swap', first?.swap)
    expect(built.status, JSON.stringify(built.body.error)).toBe(200)
    expect(built.charged).toBe(IDEAS_PRICE)
    expect(built.body.action.minOut).toBe(first?.minOut) // the pools did not move since the listing
    // Leg 2 sells an intermediate the taker does not hold yet: refused by the builder, uncharged.
    expect(
      await sw.chain.readContract({
        address: WETH,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [fresh.account.address],
      }),
    ).toBe(0n)
    const refused = await builds.post<SwapAction>('/v1/tx/swap', second?.swap)
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({ code: 'insufficient_balance', field: 'fromAmount' })
    expect(refused.charged).toBe(0n)
  }, 90_000)

  test('attack: a taker who holds nothing still gets the listing; the builder refuses its first leg, uncharged', async () => {
    const empty = await sw.freshWallet(0n)
    const r = await get<Arbitrage>(`/v1/arbitrage?target=USDC&budget=500&taker=${empty.account.address}`)
    expect(r.status).toBe(200)
    expect(r.charged).toBe(IDEAS_PRICE)
    expect(r.body.routes.length).toBeGreaterThan(0)
    expect(await sw.usdcBalance(empty.account.address)).toBe(0n)
    const builds = builderClient(sw, svc)
    const refused = await builds.post<SwapAction>('/v1/tx/swap', r.body.routes[0]?.legs[0]?.swap)
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({ code: 'insufficient_balance', field: 'fromAmount' })
    expect(refused.charged).toBe(0n)
  }, 60_000)

  test('attack: a zero, malformed or bad-checksum taker is a 400 naming taker; lowercase is served checksummed', async () => {
    const t = taker()
    const badChecksum = `0x${t.slice(2, 3) === t.slice(2, 3).toLowerCase() ? t.slice(2, 3).toUpperCase() : t.slice(2, 3).toLowerCase()}${t.slice(3)}`
    for (const bad of [zeroAddress, 'nope', `${t}00`, t.slice(0, 41)])
      await expectRefused(await get(`/v1/arbitrage?target=USDC&taker=${bad}`), {
        status: 400,
        field: 'taker',
        code: 'invalid_input',
      })
    if (badChecksum !== t && /[a-f]/i.test(t.slice(2, 3)))
      await expectRefused(await get(`/v1/arbitrage?target=USDC&taker=${badChecksum}`), {
        status: 400,
        field: 'taker',
        code: 'invalid_input',
      })
    await expectRefused(await get(`/v1/alpha?symbols=BTC&taker=${zeroAddress}`), {
      status: 400,
      field: 'taker',
      code: 'invalid_input',
    })
    await expectRefused(await get(`/v1/arbitrage?target=usdc&taker=${t}`), {
      status: 400,
      field: 'target',
      code: 'invalid_input',
    })
    await expectRefused(await get(`/v1/arbitrage?target=BTC&taker=${t}`), {
      status: 400,
      field: 'target',
      code: 'invalid_input',
    })

    const lower = await get<Arbitrage>(`/v1/arbitrage?target=USDC&budget=500&taker=${t.toLowerCase()}`)
    expect(lower.status).toBe(200)
    expect(lower.charged).toBe(IDEAS_PRICE)
    expectFiniteNumbers(lower.body)
    for (const route of lower.body.routes)
      for (const leg of route.legs) expect(leg.swap.taker).toBe(getAddress(t))
  }, 60_000)
})

describe('alpha reads: money', () => {
  test('attack: a payer holding 0.025 USDC racing five $0.01 reads is served at most twice, each charged once', async () => {
    const poor = await sw.freshWallet(25_000n)
    const poorPay = wrapFetchWithPayment(fetch, poor.client)
    const before = await sw.usdcBalance(poor.account.address)
    expect(before).toBe(25_000n)
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const res = await poorPay(`${svc.url}/v1/ideas?symbols=BTC,ETH`)
        const body = (await res.json()) as Ideas & Partial<ErrorBody>
        return { status: res.status, body }
      }),
    )
    const served = answers.filter((a) => a.status === 200)
    for (const a of answers) expect([200, 402], JSON.stringify(a.body)).toContain(a.status)
    expect(served.length).toBeGreaterThanOrEqual(1)
    expect(served.length).toBeLessThanOrEqual(2)
    for (const a of served) expectFiniteNumbers(a.body)
    const after = await sw.usdcBalance(poor.account.address)
    expect(after).toBeGreaterThanOrEqual(0n)
    // Exactly one price per answer served: no refusal charged, nothing counted twice.
    expect(before - after).toBe(IDEAS_PRICE * BigInt(served.length))
  }, 60_000)
})

// Instances share one relayer key: these run one after another, each instance stopped at the end.
describe('alpha reads: dead upstreams', () => {
  test('attack: the exchange unreachable: arbitrage, ideas and the bundle are 502, nothing charged', async () => {
    const dead = await sw.instance({ COINBASE_URL: `http://127.0.0.1:${await deadPort()}` })
    try {
      const t = ownerWallet(sw, 4).account.address
      for (const path of [
        `/v1/arbitrage?target=USDC&taker=${t}`,
        '/v1/ideas?symbols=BTC,ETH',
        `/v1/alpha?symbols=BTC,ETH&taker=${t}`,
        '/v1/ideas/compare?a=ETH&b=BTC',
      ])
        await expectRefused(await get(path, dead), { status: 502, code: 'upstream_unavailable' })
    } finally {
      await dead.stop()
    }
  }, 90_000)

  test('attack: the oracle unreachable: every ideas read is 502, nothing charged', async () => {
    const dead = await sw.instance({ PYTH_HERMES_URL: `http://127.0.0.1:${await deadPort()}` })
    try {
      for (const path of [
        '/v1/ideas',
        '/v1/ideas/summary',
        '/v1/ideas/asset/BTC',
        '/v1/ideas/compare?a=ETH&b=BTC',
        '/v1/alpha?symbols=BTC',
      ])
        await expectRefused(await get(path, dead), { status: 502, code: 'upstream_unavailable' })
    } finally {
      await dead.stop()
    }
  }, 90_000)
})
