import { wrapFetchWithPayment } from '@x402/fetch'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { TOKENIZED_STOCKS } from '../../src/chain/tokenizedStocks.js'
import { errorOf } from '../helpers/errorOf.js'
import { type HttpFaultProxy, httpFaultProxy } from '../helpers/httpFaultProxy.js'
import { challengeOf, type Instance, type ServiceWorld, useWorld } from '../helpers/serviceWorld.js'

// The RPC's circuit breaker (src/circuitBreaker.ts) is one for the whole chain client. A read the RPC
// cannot answer for one kind of request only (here: the stocks multicall, the proxy failing just that body;
// on Base, a read heavy enough for the provider to time out or 5xx on), sent together by callers who pay
// nothing for a failure, used to open it for every request of the service: every paid call was refused
// (found by the attack review). The breaker now opens only if the RPC does not answer eth_blockNumber
// either. Money read onchain.

const sw = useWorld()
const TIMEOUT_MS = 1_000
const COOL_DOWN_SEC = 6
const FUNDED = 1_000_000n
const PRICES_PATH = '/v1/prices?symbols=BTC'
const STOCK_TOKENS = Object.values(TOKENIZED_STOCKS).map((s) => s.token.slice(2).toLowerCase())
/** The RPC requests a stock quote makes (they carry a stock token's address), not the gate's. */
const isStockRead = (_path: string, body: string) => {
  const lower = body.toLowerCase()
  return STOCK_TOKENS.some((t) => lower.includes(t))
}
/** A quote per attacker (different amounts: reads that cannot be shared). */
const quotePath = (i: number) => `/v1/stocks/price?sym=AAPLc&side=buy&amount=${1000 + i}`

type Wallet = Awaited<ReturnType<ServiceWorld['freshWallet']>>

async function paidCall(on: Instance, who: Wallet, path: string) {
  const before = await sw.usdcBalance(who.account.address)
  const res = await wrapFetchWithPayment(fetch, who.client)(`${on.url}${path}`)
  const text = await res.text()
  let code: string | undefined
  try {
    code = errorOf(JSON.parse(text))?.code
  } catch {
    code = undefined
  }
  return {
    status: res.status,
    code,
    charged: before - (await sw.usdcBalance(who.account.address)),
    rows: (await on.services.deps.ledger.byPayer(who.account.address)).length,
  }
}

async function priceOf(on: Instance, path: string): Promise<bigint> {
  const accepts = (await challengeOf(`${on.url}${path}`)).accepts[0]
  if (accepts === undefined) throw new Error(`no payment option for ${path}`)
  return BigInt(accepts.amount)
}

describe('the RPC breaker opened by one kind of request', () => {
  let proxy: HttpFaultProxy
  beforeAll(async () => {
    proxy = await httpFaultProxy(sw.world.rpcUrl)
  })
  afterAll(async () => {
    await proxy?.close()
  })

  test('attack: failing stock reads sent together do not open the chain circuit while the RPC answers a cheap request; a paid call elsewhere is served and charged once', async () => {
    const on = await sw.instance({
      RPC_URL: proxy.url,
      RPC_TIMEOUT_MS: String(TIMEOUT_MS),
      BREAKER_FAILURES: '3',
      BREAKER_COOLDOWN_SECONDS: String(COOL_DOWN_SEC),
    })
    const attackers = await Promise.all(Array.from({ length: 6 }, () => sw.freshWallet(FUNDED)))
    const victim = await sw.freshWallet(FUNDED)
    const price = await priceOf(on, PRICES_PATH)
    // Control: the victim's call is served and charged the price while the circuit is closed.
    const control = await paidCall(on, victim, PRICES_PATH)
    expect({ status: control.status, charged: control.charged, rows: control.rows }).toEqual({
      status: 200,
      charged: price,
      rows: 1,
    })

    // Only the stock quotes' reads fail (answered later than the timeout, as a provider does with a read it
    // finds too heavy); everything else is answered.
    proxy.arm({ kind: 'latency', ms: 3 * TIMEOUT_MS }, isStockRead)
    // Sequential trips do not open it: each call's own gate reads (the payer's code, its balance) succeed
    // between two failed stocks reads and reset the count. Sent together, the gate reads all finish first
    // and the handlers' reads then fail in a row.
    const trips = await Promise.all(attackers.map((a, i) => paidCall(on, a, quotePath(i))))
    // Each trip is refused and costs the attacker nothing: no USDC, no row.
    expect(trips.map((t) => ({ status: t.status >= 500, charged: t.charged, rows: t.rows }))).toEqual(
      Array(attackers.length).fill({ status: true, charged: 0n, rows: 0 }),
    )
    const faultedByAttacker = proxy.faulted
    expect(faultedByAttacker).toBeGreaterThanOrEqual(3)

    // The RPC still answers eth_blockNumber, so the breaker does not open: the victim's paid call on a
    // route that needs no RPC for its answer is served and charged the price, as before the attack.
    const after = await paidCall(on, victim, PRICES_PATH)
    expect({ status: after.status, charged: after.charged, rows: after.rows }).toEqual({
      status: 200,
      charged: price,
      rows: 2,
    })
  }, 120_000)
})
