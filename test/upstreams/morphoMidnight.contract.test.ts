import { readFileSync } from 'node:fs'
import type { Address, Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { MidnightMarket, MidnightOffer } from '../../src/chain/midnight.js'
import type { MidnightSourceMarket } from '../../src/devnet/upstreams/midnightBookSource.js'
import { createMorphoApiApp } from '../../src/devnet/upstreams/morphoApiApp.js'
import { createFetchJson } from '../../src/market/upstreams/fetchJson.js'
import { createMorphoMidnight } from '../../src/market/upstreams/morphoMidnight.js'
import { startCaptureServer } from './captureServer.js'
import { sdkTypeProblems } from './sdkTypes.js'

/**
 * Morpho's Midnight API against the official SDK (@morpho-org/midnight-sdk 1.6.0 `api/types.d.ts` and
 * `MidnightApi.js`, vendored with provenance in test/fixtures/upstreams/morpho-midnight): Morpho publishes
 * no OpenAPI for it, so the SDK's response types and request builder are the contract. The simulator's
 * pages type-check against them; the adapter's requests use the SDK's query names and it reads the SDK's
 * own test documents.
 */
const TYPES = 'morpho-midnight/midnight-sdk-1.6.0/api/types.d.ts.txt'
const example = (name: string): unknown =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/upstreams/morpho-midnight/examples/${name}`, import.meta.url), 'utf8'),
  )
const NOW_SEC = 1_795_000_000
const USDC: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const WETH: Address = '0x4200000000000000000000000000000000000006'
const ZERO: Address = '0x0000000000000000000000000000000000000000'
const market: MidnightMarket = {
  chainId: 8453n,
  midnight: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
  loanToken: USDC,
  collateralParams: [
    {
      token: WETH,
      lltv: 860_000_000_000_000_000n,
      liquidationCursor: 300_000_000_000_000_000n,
      oracle: '0xdE7E000000000000000000000000000000000020',
    },
  ],
  maturity: BigInt(NOW_SEC + 30 * 86_400),
  rcfThreshold: 0n,
  enterGate: ZERO,
  liquidatorGate: ZERO,
}
const offer: MidnightOffer = {
  market,
  buy: true,
  maker: '0x1111111111111111111111111111111111111111',
  start: BigInt(NOW_SEC - 60),
  expiry: BigInt(NOW_SEC + 86_400),
  tick: 4400n,
  group: `0x${'00'.repeat(32)}`,
  callback: ZERO,
  callbackData: '0x',
  receiverIfMakerIsSeller: ZERO,
  ratifier: '0xd6e70365C8E8DDa9a4ca662C07bbE663b017755E',
  reduceOnly: false,
  maxUnits: 5_000_000n,
  maxAssets: 0n,
  continuousFeeCap: 10n ** 15n,
}
const ID: Hex = `0x${'01'.padStart(64, '0')}`
const markets: MidnightSourceMarket[] = [
  {
    id: ID,
    market,
    offers: [
      {
        buy: true,
        tick: 4400,
        price: 994_000_000_000_000_000n,
        remaining: 5_000_000n,
        cappedByAssets: false,
        offer,
        ratifierData: '0x1234',
      },
      {
        buy: false,
        tick: 4476,
        price: 995_900_000_000_000_000n,
        remaining: 7_000_000n,
        cappedByAssets: false,
      },
    ],
  },
]

describe('Morpho API simulator answers as the SDK declares', () => {
  const app = createMorphoApiApp({
    books: { markets: async () => markets },
    clock: { now: () => NOW_SEC * 1000 },
  })

  test('contract: a books page type-checks as ApiBooksResponse, takeable offers as ApiBookTakeableOffersResponse', async () => {
    const books = await (
      await app.request('/v0/midnight/books?chain_ids=8453&sort=maturity&limit=100')
    ).json()
    expect(sdkTypeProblems(TYPES, 'ApiBooksResponse', books)).toEqual([])
    const offers = await (await app.request(`/v0/midnight/books/${ID}/bids/takeable-offers`)).json()
    expect((offers as { data: unknown[] }).data).toHaveLength(1)
    expect(sdkTypeProblems(TYPES, 'ApiBookTakeableOffersResponse', offers)).toEqual([])
    // The check bites: a maturity as a string, or an offer without its continuous fee cap, is refused.
    const b = structuredClone(books) as { data: { maturity: unknown }[] }
    ;(b.data[0] as { maturity: unknown }).maturity = String(NOW_SEC)
    expect(sdkTypeProblems(TYPES, 'ApiBooksResponse', b)).not.toEqual([])
    const o = structuredClone(offers) as { data: { offer: Record<string, unknown> }[] }
    delete (o.data[0] as { offer: Record<string, unknown> }).offer.continuous_fee_cap
    expect(sdkTypeProblems(TYPES, 'ApiBookTakeableOffersResponse', o)).not.toEqual([])
  })
})

describe('Midnight adapter speaks the SDK’s API', () => {
  let server: Awaited<ReturnType<typeof startCaptureServer>>
  beforeAll(async () => {
    server = await startCaptureServer((url) => ({
      body: url.pathname.endsWith('/takeable-offers')
        ? example('books.marketId.bids.takeable-offers.200.sdk-test.json')
        : // The SDK's page names a next cursor: the page after it is the last, empty one.
          url.searchParams.has('cursor')
          ? { cursor: null, data: [] }
          : example('books.200.sdk-test.json'),
    }))
  })
  afterAll(() => server.stop())

  test('contract: the books request uses the SDK’s query names; the SDK’s documents read field for field', async () => {
    const midnight = createMorphoMidnight(server.url, createFetchJson())
    const books = await midnight.books()
    const [r] = server.requests
    expect(r?.url.pathname).toBe('/v0/midnight/books')
    // The SDK's fetchBooks query: sort, maturities, collateral_tokens, loan_tokens, chain_ids, ids, limit, cursor.
    const sdkQuery = [
      'sort',
      'maturities',
      'collateral_tokens',
      'loan_tokens',
      'chain_ids',
      'ids',
      'limit',
      'cursor',
    ]
    for (const name of r?.url.searchParams.keys() ?? []) expect(sdkQuery).toContain(name)
    // The listing order is set explicitly, whatever the API's default.
    expect(r?.url.searchParams.get('sort')).toBe('maturity')
    const official = example('books.200.sdk-test.json') as { data: { market_id: string; maturity: number }[] }
    expect(books.map((b) => [b.marketId, b.maturity])).toEqual(
      official.data.map((b) => [b.market_id.toLowerCase(), b.maturity]),
    )
    const taken = await midnight.takeableOffers(official.data[0]?.market_id as Hex, 'bids')
    const sdkOffers = example('books.marketId.bids.takeable-offers.200.sdk-test.json') as {
      data: { units: string; offer: { continuous_fee_cap: string } }[]
    }
    expect(taken.map((t) => [t.units, t.offer.continuousFeeCap])).toEqual(
      sdkOffers.data.map((t) => [BigInt(t.units), BigInt(t.offer.continuous_fee_cap)]),
    )
  })
})
