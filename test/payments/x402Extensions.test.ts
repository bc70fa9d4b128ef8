import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http'
import { PaymentRequiredV2Schema } from '@x402/core/schemas'
import type { PaymentRequired } from '@x402/core/types'
import {
  extractDiscoveryInfo,
  validateDiscoveryExtension,
  validateDiscoveryExtensionSpec,
} from '@x402/extensions/bazaar'
import { BuilderCodeClientExtension, parseBuilderCodeSuffixFromCalldata } from '@x402/extensions/builder-code'
import { wrapFetchWithPayment } from '@x402/fetch'
import type { Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { DEVNET_BUILDER_CODE } from '../../src/config.js'
import { examplePath } from '../../src/discovery/bazaarExtension.js'
import { headerBazaar } from '../../src/payments/gate/bazaarExtension.js'
import { CHALLENGE_HEADER_LIMIT } from '../../src/payments/gate/paymentGate.js'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import type { Route } from '../../src/routes/route.js'
import { routeTable } from '../../src/routes/table.js'
import { encodePayment, signChallenge, useInstance, useWorld } from '../helpers/serviceWorld.js'

const sw = useWorld()
const svc = useInstance(sw)

const priced = routeTable.filter((r) => r.priceUsd !== null)

/** The example request of a route, as an agent reading the discovery info would send it. */
function exampleRequest(route: Route, base: string): [string, RequestInit] {
  const example = route.example
  if (example === undefined) throw new Error(`${route.id} has no example`)
  const query = new URLSearchParams(example.query ?? {}).toString()
  const url = `${base}${examplePath(route)}${query ? `?${query}` : ''}`
  const init: RequestInit =
    route.method === 'POST'
      ? {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(example.body),
        }
      : { method: 'GET' }
  return [url, init]
}

describe('bazaar discovery in every challenge', () => {
  test('behavior: the header carries the bazaar extension without its output (within 8 kB), the body the whole of it; the package validates both and extracts the header’s, the body is a valid x402 v2 PaymentRequired, and the example input paid is served or 501 (or the desk’s refusal of a one-time authorization), never 400', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const statuses: Record<string, number> = {}
    const check = async (route: Route) => {
      const [url, init] = exampleRequest(route, svc.url)
      const unpaid = await fetch(url, init)
      expect(unpaid.status, route.id).toBe(402)
      const header = unpaid.headers.get('payment-required') as string
      // Clients echo it back in a request header, and proxies buffer it: at most 8 kB (issue 24).
      expect(header.length, route.id).toBeLessThanOrEqual(CHALLENGE_HEADER_LIMIT)
      const fromHeader = decodePaymentRequiredHeader(header)
      const fromBody = (await unpaid.json()) as PaymentRequired
      expect(PaymentRequiredV2Schema.safeParse(fromBody).success, route.id).toBe(true)
      const bodyBazaar = fromBody.extensions?.bazaar as Parameters<typeof validateDiscoveryExtension>[0]
      const bazaar = fromHeader.extensions?.bazaar as Parameters<typeof validateDiscoveryExtension>[0]
      expect(bazaar, route.id).toEqual(headerBazaar(bodyBazaar as unknown as Record<string, unknown>))
      for (const b of [bazaar, bodyBazaar]) {
        expect(validateDiscoveryExtension(b), route.id).toEqual({ valid: true })
        expect(validateDiscoveryExtensionSpec(b as never).valid, route.id).toBe(true)
      }

      // What an indexing facilitator does with the payment the official client builds from it.
      const payload = await signChallenge(who, fromHeader)
      const found = extractDiscoveryInfo(payload, payload.accepted)
      expect(found, route.id).not.toBeNull()
      // The package lists the resource by its route template (`/v1/ta/:sym`), without the query string.
      const listed = `${svc.url}${route.path.replace(/\{(\w+)\}/g, ':$1')}`
      expect(found).toMatchObject({ method: route.method, resourceUrl: listed, x402Version: 2 })
      const info = found?.discoveryInfo as { input: Record<string, unknown> }
      expect(info.input.method).toBe(route.method)
      if (route.method === 'POST') expect(info.input.body).toEqual(route.example?.body)
      else expect(Object.keys(info.input.queryParams ?? {})).toEqual(Object.keys(route.example?.query ?? {}))
      if (route.input.params) expect(info.input.pathParams).toEqual(route.example?.params)
      // Builders publish their example without walletSendCalls (it repeats the steps; see bazaarExtension).
      const { walletSendCalls: _repeat, ...abbreviated } = (route.example?.output ?? {}) as Record<
        string,
        unknown
      >
      const output = (bodyBazaar as { info: { output?: { example?: unknown } } }).info.output
      expect(output?.example, route.id).toEqual(
        route.tier === 'builder' ? abbreviated : route.example?.output,
      )
      expect(route.output.safeParse(route.example?.output).success, route.id).toBe(true)

      const paid = await fetch(url, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), 'PAYMENT-SIGNATURE': encodePayment(payload) },
      })
      statuses[route.id] = paid.status
      const body = await paid.text()
      // An input that authorizes with its own onchain transfer (prop execute) is refused here with the desk's
      // 403/422 (this payer is no member, the transfer is not its), never a 400: it validates.
      const answers = route.example?.replayable === false ? [403, 422] : [200, 501]
      expect(answers, `${route.id} ${paid.status} ${body}`).toContain(paid.status)
    }
    // A few at a time: every route once, quickly, without a flood of concurrent settlements.
    for (let i = 0; i < priced.length; i += 6) await Promise.all(priced.slice(i, i + 6).map(check))

    // The served routes were charged their price; the 501s nothing.
    const served = priced.filter((r) => statuses[r.id] === 200)
    expect(served.length).toBeGreaterThan(0)
    const charged = served.reduce((sum, r) => sum + usdToAtomic(r.priceUsd as number), 0n)
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - charged)
  }, 120_000)

  test('behavior: /.well-known/x402 lists the same discovery info per resource', async () => {
    const doc = (await (await fetch(`${svc.url}/.well-known/x402`)).json()) as {
      resources: string[]
      resourceDetails: { method: string; url: string; extensions: { bazaar: unknown } }[]
    }
    // What x402 discovery tools parse: "METHOD url" strings; the details beside them.
    expect(doc.resources).toEqual(priced.map((r) => `${r.method} ${svc.config.publicUrl}${r.path}`))
    expect(doc.resourceDetails).toHaveLength(priced.length)
    const route = priced.find((r) => r.id === 'getCandles') as Route
    const [url] = exampleRequest(route, svc.url)
    const challenge = (await (await fetch(url)).json()) as PaymentRequired
    const listed = doc.resourceDetails.find((r) => r.url.endsWith('/v1/candles'))
    expect(listed?.extensions.bazaar).toEqual(challenge.extensions?.bazaar)
  })
})

describe('ERC-8021 attribution of settlements', () => {
  const settlementInput = async (res: Response): Promise<Hex> => {
    expect(res.status).toBe(200)
    await res.body?.cancel()
    const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') as string)
    const tx = await sw.chain.getTransaction({ hash: receipt.transaction as Hex })
    return tx.input
  }

  test('behavior: the official client pays unmodified and the settlement calldata ends with our builder code', async () => {
    const who = await sw.freshWallet(10_000n)
    const payFetch = wrapFetchWithPayment(fetch, who.client)
    const res = await payFetch(`${svc.url}/v1/prices?symbols=BTC`)
    const input = await settlementInput(res)
    expect(parseBuilderCodeSuffixFromCalldata(input)).toEqual({
      a: DEVNET_BUILDER_CODE,
      w: DEVNET_BUILDER_CODE,
    })
    // The transfer itself is intact: the payer paid exactly the price.
    expect(await sw.usdcBalance(who.account.address)).toBe(10_000n - 1_000n)
  })

  test('behavior: a client registering its own service code with the package is credited beside us', async () => {
    const who = await sw.freshWallet(10_000n)
    who.client.registerExtension(new BuilderCodeClientExtension('bc_agent_sdk'))
    const res = await wrapFetchWithPayment(fetch, who.client)(`${svc.url}/v1/prices?symbols=ETH`)
    expect(parseBuilderCodeSuffixFromCalldata(await settlementInput(res))).toEqual({
      a: DEVNET_BUILDER_CODE,
      w: DEVNET_BUILDER_CODE,
      s: ['bc_agent_sdk'],
    })
  })

  test('attack: a payment whose echo claims another app code, or carries none, still settles attributed to us', async () => {
    const who = await sw.freshWallet(10_000n)
    const url = `${svc.url}/v1/prices?symbols=BTC`
    const challenge = decodePaymentRequiredHeader(
      (await fetch(url)).headers.get('payment-required') as string,
    )
    const forged = structuredClone(await signChallenge(who, challenge))
    forged.extensions = { 'builder-code': { info: { a: 'bc_thief', w: 'bc_thief' } } }
    const bare = structuredClone(await signChallenge(who, challenge))
    delete bare.extensions
    for (const payload of [forged, bare]) {
      const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
      expect(parseBuilderCodeSuffixFromCalldata(await settlementInput(res))).toEqual({
        a: DEVNET_BUILDER_CODE,
        w: DEVNET_BUILDER_CODE,
      })
    }
  })
})
