import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TOKENIZED_STOCKS } from '../../src/chain/tokenizedStocks.js'
import { loadConfig } from '../../src/config.js'
import { eventually } from '../helpers/eventually.js'
import { type HttpFaultProxy, httpFaultProxy } from '../helpers/httpFaultProxy.js'
import {
  challengeOf,
  encodePayment,
  type Instance,
  signChallenge,
  useWorld,
} from '../helpers/serviceWorld.js'
import {
  expectUnchargedFault,
  faultsPast,
  type Outcome,
  paidCall as paidCallOn,
  priceOf,
  sleep,
  type Wallet,
} from '../helpers/upstreamFaultKit.js'

// A fault-injecting HTTP proxy in front of one market upstream (the exchange behind GET /v1/prices) and in
// front of the JSON-RPC (the stocks multicall behind GET /v1/stocks). For each fault (an answer later than
// the timeout, a 5xx, a body that is not JSON, a reset, no answer at all, headers and then a stalled body)
// a paid call answers 502 or 503 with Retry-After within a bound set by the outbound timeout, and the payer
// keeps every atomic USDC (read onchain) with no ledger row. After BREAKER_FAILURES outages in a row the
// circuit opens: calls answer fast and nothing reaches the upstream; once it heals and the cool-down has
// passed, calls are served and charged exactly the price again.

const sw = useWorld()
const TIMEOUT_MS = 1_000
/** What a paid call costs besides its upstream wait: two round trips, a signature, the gate's reads. */
const OVERHEAD_MS = 2_000
/** One upstream request: one timeout. */
const UPSTREAM_BOUND_MS = TIMEOUT_MS + OVERHEAD_MS
/** One JSON-RPC request: viem sends it twice (retryCount 1, 150 ms apart), each bounded by the timeout. */
const RPC_BOUND_MS = 2 * TIMEOUT_MS + 150 + OVERHEAD_MS
const FUNDED = 1_000_000n
const PRICES_PATH = '/v1/prices?symbols=BTC'
const STOCKS_PATH = '/v1/stocks'
/** The stocks multicall carries each stock token's address: the RPC requests the read makes, not the gate's. */
const AAPL = TOKENIZED_STOCKS.AAPLc.token.slice(2).toLowerCase()
const isStocksRead = (_path: string, body: string) => body.toLowerCase().includes(AAPL)

const FAULTS = faultsPast(TIMEOUT_MS)

const paidCall = (on: Instance, who: Wallet, path: string): Promise<Outcome> => paidCallOn(sw, on, who, path)

describe('the exchange upstream behind a faulty proxy (GET /v1/prices)', () => {
  let proxy: HttpFaultProxy
  beforeAll(async () => {
    proxy = await httpFaultProxy(loadConfig(sw.env).upstreams.coinbaseExchange)
  })
  afterAll(async () => {
    await proxy?.close()
  })
  const through = (extra: NodeJS.ProcessEnv) =>
    sw.instance({ COINBASE_URL: proxy.url, UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), ...extra })

  test('attack: every fault answers 502/503 with Retry-After within one timeout and charges nothing', async () => {
    // A threshold no run of this test reaches: each fault meets the upstream, not the breaker.
    const on = await through({ BREAKER_FAILURES: '1000' })
    const who = await sw.freshWallet(FUNDED)
    for (const [label, fault] of Object.entries(FAULTS)) {
      proxy.arm(fault)
      const reached = proxy.faulted
      const outcome = await paidCall(on, who, PRICES_PATH)
      expectUnchargedFault(outcome, UPSTREAM_BOUND_MS, label)
      expect(outcome.code, label).toBe('upstream_unavailable')
      // The call went out to the upstream (this is the timeout's bound, not a breaker's).
      expect(proxy.faulted, label).toBeGreaterThan(reached)
    }
    proxy.heal()
    // Healed, the same instance serves and charges the price, once.
    const price = await priceOf(on, PRICES_PATH)
    const served = await paidCall(on, who, PRICES_PATH)
    expect({ status: served.status, charged: served.charged }).toEqual({ status: 200, charged: price })
  }, 120_000)

  test('attack: a dead upstream opens the circuit (fast refusals, nothing sent), a failed probe reopens it, and it recovers once healed', async () => {
    const coolDownSec = 3
    const on = await through({ BREAKER_FAILURES: '3', BREAKER_COOLDOWN_SECONDS: String(coolDownSec) })
    const who = await sw.freshWallet(FUNDED)
    proxy.arm({ kind: 'hang' })
    // Three calls wait out the timeout: three outages in a row.
    for (let i = 0; i < 3; i++) {
      const o = await paidCall(on, who, PRICES_PATH)
      expectUnchargedFault(o, UPSTREAM_BOUND_MS, `outage ${i + 1}`)
      expect(o.ms, `outage ${i + 1} waited for the upstream`).toBeGreaterThanOrEqual(TIMEOUT_MS)
    }
    // Open: answered without the upstream, faster than its timeout, Retry-After within the cool-down.
    const sent = proxy.requests
    for (let i = 0; i < 3; i++) {
      const o = await paidCall(on, who, PRICES_PATH)
      expectUnchargedFault(o, TIMEOUT_MS, `open ${i + 1}`)
      expect(Number(o.retryAfter), `${o.status} ${o.code}`).toBeLessThanOrEqual(coolDownSec)
    }
    expect(proxy.requests).toBe(sent)
    // After the cool-down, still dead: one probe goes out, fails, and the circuit opens again.
    await sleep(coolDownSec * 1000)
    expectUnchargedFault(await paidCall(on, who, PRICES_PATH), UPSTREAM_BOUND_MS, 'probe')
    expect(proxy.requests).toBe(sent + 1)
    expectUnchargedFault(await paidCall(on, who, PRICES_PATH), TIMEOUT_MS, 'reopened')
    expect(proxy.requests).toBe(sent + 1)
    // Healed: refused until the cool-down ends, then served and charged exactly the price.
    proxy.heal()
    await sleep(coolDownSec * 1000)
    const price = await priceOf(on, PRICES_PATH)
    const served = await paidCall(on, who, PRICES_PATH)
    expect({ status: served.status, charged: served.charged, rows: served.rows }).toEqual({
      status: 200,
      charged: price,
      rows: 1,
    })
    expect(proxy.requests).toBeGreaterThan(sent + 1)
  }, 120_000)
})

describe('the JSON-RPC behind a faulty proxy (GET /v1/stocks)', () => {
  let proxy: HttpFaultProxy
  beforeAll(async () => {
    proxy = await httpFaultProxy(sw.world.rpcUrl)
  })
  afterAll(async () => {
    await proxy?.close()
  })
  const through = (extra: NodeJS.ProcessEnv) =>
    sw.instance({ RPC_URL: proxy.url, RPC_TIMEOUT_MS: String(TIMEOUT_MS), ...extra })

  test('attack: every fault on the read’s RPC requests answers 502/503 with Retry-After within two timeouts and charges nothing', async () => {
    const on = await through({ BREAKER_FAILURES: '1000' })
    const who = await sw.freshWallet(FUNDED)
    for (const [label, fault] of Object.entries(FAULTS)) {
      proxy.arm(fault, isStocksRead)
      const reached = proxy.faulted
      const outcome = await paidCall(on, who, STOCKS_PATH)
      expectUnchargedFault(outcome, RPC_BOUND_MS, label)
      expect(outcome.code, label).toBe('upstream_unavailable')
      expect(proxy.faulted, label).toBeGreaterThan(reached)
    }
    proxy.heal()
    const price = await priceOf(on, STOCKS_PATH)
    const served = await paidCall(on, who, STOCKS_PATH)
    expect({ status: served.status, charged: served.charged }).toEqual({ status: 200, charged: price })
  }, 120_000)

  test('attack: a read hung on the RPC lets go of its claim and its funds reservation: the same authorization, resent after the RPC heals, is served and charged once from a wallet holding exactly the price', async () => {
    const on = await through({ BREAKER_FAILURES: '1000' })
    const price = await priceOf(on, STOCKS_PATH)
    const who = await sw.freshWallet(price)
    const payload = await signChallenge(who, await challengeOf(`${on.url}${STOCKS_PATH}`))
    const send = () =>
      fetch(`${on.url}${STOCKS_PATH}`, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
    proxy.arm({ kind: 'hang' }, isStocksRead)
    const hung = await send()
    await hung.body?.cancel()
    expect({ status: hung.status, retryAfter: hung.headers.get('retry-after') !== null }).toEqual({
      status: 502,
      retryAfter: true,
    })
    expect(await sw.usdcBalance(who.account.address)).toBe(price)
    proxy.heal()
    // Were the claim kept, this copy would be a replay (409); were the reservation kept, the wallet, holding
    // exactly one price, could not cover a second one (402).
    const retried = await send()
    await retried.body?.cancel()
    expect(retried.status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(0n)
    const rows = await eventually(async () => {
      const r = await on.services.deps.ledger.byPayer(who.account.address)
      expect(r.map((x) => x.status)).toEqual(['settled'])
      return r
    })
    expect(rows.map((r) => BigInt(r.amount))).toEqual([price])
  }, 120_000)

  test('attack: a dead RPC opens the chain’s circuit: paid calls are refused fast and uncharged, no request reaches the RPC, and it recovers once healed', async () => {
    const coolDownSec = 3
    const on = await through({ BREAKER_FAILURES: '2', BREAKER_COOLDOWN_SECONDS: String(coolDownSec) })
    const who = await sw.freshWallet(FUNDED)
    // Dead: no request of any kind is answered (a fault on one call only is the node answering the others,
    // which keeps the circuit closed; each such read is bounded by the timeout alone, as above).
    proxy.arm({ kind: 'hang' })
    for (let i = 0; i < 2; i++) {
      expectUnchargedFault(await paidCall(on, who, STOCKS_PATH), RPC_BOUND_MS, `outage ${i + 1}`)
    }
    const reached = proxy.requests
    for (let i = 0; i < 3; i++) {
      const o = await paidCall(on, who, STOCKS_PATH)
      expectUnchargedFault(o, TIMEOUT_MS, `open ${i + 1}`)
      expect(Number(o.retryAfter), `${o.status} ${o.code}`).toBeLessThanOrEqual(coolDownSec)
    }
    expect(proxy.requests).toBe(reached)
    proxy.heal()
    await sleep(coolDownSec * 1000)
    const price = await priceOf(on, STOCKS_PATH)
    const served = await paidCall(on, who, STOCKS_PATH)
    expect({ status: served.status, charged: served.charged, rows: served.rows }).toEqual({
      status: 200,
      charged: price,
      rows: 1,
    })
  }, 120_000)
})
