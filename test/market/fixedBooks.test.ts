import { readFileSync } from 'node:fs'
import { wrapFetchWithPayment } from '@x402/fetch'
import {
  type Abi,
  type Address,
  createWalletClient,
  type Hex,
  keccak256,
  type PublicClient,
  parseAbi,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { midnightMarketId } from '../../src/chain/midnight.js'
import {
  MIDNIGHT_ADDRESSES,
  type MidnightMarket,
  type MidnightOffer,
  makerOfferTerms,
  midnightStandInAbi,
  singleLeafRatifierData,
} from '../../src/devnet/deploy/midnight.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { type FixedBooks, getFixedBooks } from '../../src/market/loan/getFixedBooks.js'
import { createFetchJson } from '../../src/market/upstreams/fetchJson.js'
import { createMorphoMidnight, type MidnightBook } from '../../src/market/upstreams/morphoMidnight.js'
import { getFixedBooksRoute } from '../../src/routes/loan/getFixedBooks.js'
import { eventually } from '../helpers/eventually.js'
import { sendTx } from '../helpers/expectMined.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { type Instance, payer, type ServiceWorld, startServiceWorld } from '../helpers/serviceWorld.js'

// Truth comes from the chain, read here with viem: the Midnight stand-in's markets (CreateMarket,
// toMarket through the reference ABI) and the devnet offer book's live offers (the Morpho API
// simulator's source), priced with Midnight's own tickToPrice.
const referenceAbi = JSON.parse(
  readFileSync(new URL('../../docs/abi/morpho-midnight.json', import.meta.url), 'utf8'),
) as Abi
const createMarketEvent = parseAbi([
  'struct CollateralParams { address token; uint256 lltv; uint256 liquidationCursor; address oracle; }',
  'struct Market { uint256 chainId; address midnight; address loanToken; CollateralParams[] collateralParams; uint256 maturity; uint256 rcfThreshold; address enterGate; address liquidatorGate; }',
  'event CreateMarket(bytes32 indexed id, Market market)',
])[0]
const { midnight, offerBook, setterRatifier } = MIDNIGHT_ADDRESSES
const WAD = 10n ** 18n
const DAY = 86_400n

let sw: ServiceWorld
let svc: Instance
let frozenMs: number
let asOf: number
let seeded: { id: Hex; market: MidnightMarket }
let betterBidTick: bigint
let asksOnly: Hex
let empty: Hex

const makerAccount = privateKeyToAccount(demoAccounts[5]?.privateKey as Hex)
const makerWallet = (rpcUrl: string) =>
  createWalletClient({ account: makerAccount, chain: base, transport: headroomHttp(rpcUrl) })
let makerClient: ReturnType<typeof makerWallet>

const send = (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) =>
  sendTx(sw.chain, makerClient, { address, abi, functionName, args })

/** A ratified offer of our maker, posted to the devnet offer book. */
async function post(market: MidnightMarket, buy: boolean, tick: bigint, maxUnits: bigint, group: string) {
  const offer: MidnightOffer = {
    market,
    buy,
    maker: makerClient.account.address,
    start: 0n,
    expiry: market.maturity,
    tick,
    group: keccak256(toHex(group)),
    callback: zeroAddress,
    callbackData: '0x',
    ratifier: setterRatifier,
    reduceOnly: false,
    maxUnits,
    maxAssets: 0n,
    ...makerOfferTerms(makerClient.account.address, buy),
  }
  const root = await sw.chain.readContract({
    address: setterRatifier,
    abi: midnightStandInAbi,
    functionName: 'hashOffer',
    args: [offer],
  })
  await send(setterRatifier, midnightStandInAbi, 'setIsRootRatified', [offer.maker, root, true])
  await send(offerBook, midnightStandInAbi, 'post', [offer, singleLeafRatifierData(root)])
}

async function chainMarkets(): Promise<{ id: Hex; market: MidnightMarket }[]> {
  const logs = await sw.chain.getLogs({ address: midnight, event: createMarketEvent, fromBlock: 0n })
  return logs
    .map((l) => ({ id: l.args.id as Hex, market: l.args.market as MidnightMarket }))
    .sort((a, b) => Number(a.market.maturity - b.market.maturity))
}

const tickToPrice = (tick: bigint) =>
  sw.chain.readContract({
    address: midnight,
    abi: midnightStandInAbi,
    functionName: 'tickToPrice',
    args: [tick],
  })

/** The best level of each side, straight from the offer book: the simulator's source. */
async function bestLevels(id: Hex) {
  const [, offers, , remaining] = await sw.chain.readContract({
    address: offerBook,
    abi: midnightStandInAbi,
    functionName: 'liveOffers',
    args: [id],
  })
  const side = async (buy: boolean) => {
    const live = offers.map((o, i) => ({ o, left: remaining[i] as bigint })).filter((x) => x.o.buy === buy)
    if (live.length === 0) return null
    const ticks = live.map((x) => Number(x.o.tick))
    const tick = BigInt(buy ? Math.max(...ticks) : Math.min(...ticks))
    const price = await tickToPrice(tick)
    const at = live.filter((x) => x.o.tick === tick)
    expect(at.every((x) => x.o.maxAssets === 0n)).toBe(true) // every devnet offer is capped in units
    const units = at.reduce((s, x) => s + x.left, 0n)
    // the maker side of take: a bid's maker pays units × price rounded down, an ask's receives it rounded up
    const assets = at.reduce(
      (s, x) => s + (buy ? (x.left * price) / WAD : (x.left * price + WAD - 1n) / WAD),
      0n,
    )
    return { tick, price, units, assets, count: at.length }
  }
  return { bid: await side(true), ask: await side(false) }
}

/** The test's own APR: the unit pays 1 at maturity, bought at `price` now, annualised over 365 days. */
const apr = (price: bigint, maturity: bigint) =>
  (1e18 / Number(price) - 1) * (31_536_000 / Number(maturity - BigInt(asOf)))

beforeAll(async () => {
  sw = await startServiceWorld()
  makerClient = makerWallet(sw.world.rpcUrl)
  const markets = await chainMarkets()
  seeded = markets[0] as { id: Hex; market: MidnightMarket }

  // A better bid than the seeded one (a higher price: a lower rate for borrowers), split over two offers
  // at one tick, still below the best ask so the book does not cross.
  const { bid, ask } = await bestLevels(seeded.id)
  betterBidTick = (bid?.tick ?? 0n) + 8n
  expect(betterBidTick).toBeLessThan(ask?.tick ?? 0n)
  await post(seeded.market, true, betterBidTick, 1_000_000_000n, 'fixed-books-bid-a')
  await post(seeded.market, true, betterBidTick, 2_500_000_000n, 'fixed-books-bid-b')

  // A market with asks only, and one with no offers at all.
  const withAsks = { ...seeded.market, maturity: seeded.market.maturity + 7n * DAY }
  const none = { ...seeded.market, maturity: seeded.market.maturity + 14n * DAY }
  await send(midnight, midnightStandInAbi, 'touchMarket', [withAsks])
  await send(midnight, midnightStandInAbi, 'touchMarket', [none])
  asksOnly = midnightMarketId(withAsks)
  empty = midnightMarketId(none)
  await post(withAsks, false, 4480n, 3_000_000_000n, 'fixed-books-ask')

  // A frozen service clock: the APRs are computed at a known instant.
  frozenMs = Date.now()
  asOf = Math.floor(frozenMs / 1000)
  svc = await sw.instance({}, { clock: () => frozenMs })
}, 180_000)

afterAll(async () => {
  await sw?.stop()
})

describe('GET /v1/loan/fixed', () => {
  test('behavior: paid with the official client; every book matches the chain and the offer book', async () => {
    const payTo = svc.config.payTo
    const payeeBefore = await sw.usdcBalance(payTo)
    const res = await wrapFetchWithPayment(fetch, payer(2).client)(`${svc.url}/v1/loan/fixed`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as FixedBooks
    expect(getFixedBooksRoute.output.safeParse(body).success).toBe(true)
    expect(body.asOf).toBe(asOf)
    await eventually(async () => expect(await sw.usdcBalance(payTo)).toBe(payeeBefore + 1_000n))

    // The universe: every market Midnight holds that has not matured, soonest first.
    const markets = (await chainMarkets()).filter((m) => m.market.maturity > BigInt(asOf))
    expect(markets.length).toBeGreaterThanOrEqual(4)
    expect(body.books.map((b) => b.marketId)).toEqual(markets.map((m) => m.id))

    for (const book of body.books) {
      const onchain = (await sw.chain.readContract({
        address: midnight,
        abi: referenceAbi,
        functionName: 'toMarket',
        args: [book.marketId],
      })) as MidnightMarket
      expect(book.loanToken).toBe(onchain.loanToken)
      expect(book.loanTokenDecimals).toBe(6) // USDC
      expect(book.maturity).toBe(Number(onchain.maturity))
      expect(book.collaterals).toEqual(
        onchain.collateralParams.map((c) => ({
          token: c.token,
          lltv: Number(c.lltv) / 1e18,
          oracle: c.oracle,
        })),
      )

      const { bid, ask } = await bestLevels(book.marketId)
      const depth = (level: typeof bid) =>
        level === null
          ? null
          : {
              tick: Number(level.tick),
              price: Number(level.price) / 1e18,
              units: level.units.toString(),
              assets: level.assets.toString(),
              offers: level.count,
            }
      expect(book.borrowDepth).toEqual(depth(bid))
      expect(book.lendDepth).toEqual(depth(ask))
      if (bid === null) expect(book.borrowApr).toBeNull()
      else expect(book.borrowApr).toBeCloseTo(apr(bid.price, onchain.maturity), 12)
      if (ask === null) expect(book.lendApr).toBeNull()
      else expect(book.lendApr).toBeCloseTo(apr(ask.price, onchain.maturity), 12)
    }

    const byId = new Map(body.books.map((b) => [b.marketId, b]))
    // Our two offers make the best bid: one level, both offers, their units summed.
    expect(byId.get(seeded.id)?.borrowDepth).toMatchObject({
      tick: Number(betterBidTick),
      units: '3500000000',
      offers: 2,
    })
    // Borrowers pay more than lenders earn: the best bid's rate is above the best ask's.
    const seededBook = byId.get(seeded.id)
    expect(seededBook?.borrowApr).toBeGreaterThan(seededBook?.lendApr ?? Number.POSITIVE_INFINITY)
    expect(byId.get(asksOnly)).toMatchObject({ borrowApr: null, borrowDepth: null, lendDepth: { offers: 1 } })
    expect(byId.get(asksOnly)?.lendApr).toBeGreaterThan(0)
    expect(byId.get(empty)).toMatchObject({
      borrowApr: null,
      lendApr: null,
      borrowDepth: null,
      lendDepth: null,
    })
  })

  test('behavior: a listed book that does not match the chain is dropped and logged; pages are followed', async () => {
    // Through the simulator one book per page, the adapter collects the same books as in one page.
    const upstream = svc.config.upstreams.morphoApi
    const paged = await createMorphoMidnight(upstream, createFetchJson(), { pageSize: 1 }).books()
    const whole = await createMorphoMidnight(upstream, createFetchJson()).books()
    expect(paged).toEqual(whole)
    expect(paged.length).toBeGreaterThanOrEqual(4)

    const real = paged.find((b) => b.marketId === seeded.id) as MidnightBook
    // Parameters that no longer hash to the id the API gave.
    const wrongId: MidnightBook = { ...real, maturity: real.maturity + 1 }
    // A self-consistent market (id and params agree) that Midnight does not hold.
    const phantom: MidnightBook = { ...real, maturity: real.maturity + 2 }
    phantom.marketId = midnightMarketId({
      chainId: BigInt(phantom.chainId),
      midnight: phantom.midnight,
      loanToken: phantom.loanToken,
      collateralParams: phantom.collaterals,
      maturity: BigInt(phantom.maturity),
      rcfThreshold: phantom.rcfThreshold,
      enterGate: phantom.enterGate,
      liquidatorGate: phantom.liquidatorGate,
    })
    const otherChain: MidnightBook = { ...real, chainId: 1 }
    const warn = vi.fn()
    const deps = svc.services.deps
    const out = await getFixedBooks(
      deps.chain,
      {
        ...deps.market,
        midnight: { books: async () => [real, wrongId, phantom, otherChain], takeableOffers: async () => [] },
      },
      frozenMs,
      { warn },
    )
    expect(out.books.map((b) => b.marketId)).toEqual([real.marketId])
    expect(warn.mock.calls.map(([entry]) => entry)).toEqual([
      expect.objectContaining({ marketId: real.marketId, reason: 'id does not hash from its params' }),
      expect.objectContaining({ marketId: real.marketId, reason: 'chain 1' }),
      expect.objectContaining({
        marketId: phantom.marketId,
        reason: 'market not on chain with these params',
      }),
    ])
  })

  test('error: the Morpho API down is a 502 with Retry-After, and no USDC moves', async () => {
    const broken = await sw.instance({ MORPHO_API_URL: 'http://127.0.0.1:9' })
    const who = await sw.freshWallet(10_000n)
    const res = await wrapFetchWithPayment(fetch, who.client)(`${broken.url}/v1/loan/fixed`)
    expect(res.status).toBe(502)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('upstream_unavailable')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(res.headers.get('payment-response')).toBeNull()
    expect(await sw.usdcBalance(who.account.address)).toBe(10_000n)
  })

  test('error: the RPC failing the market check is a 502 naming it, not a 500', async () => {
    const down = {
      multicall: async () => {
        throw new Error('connection refused')
      },
    } as unknown as PublicClient
    await expect(
      getFixedBooks(down, svc.services.deps.market, frozenMs, { warn: () => {} }),
    ).rejects.toMatchObject({
      status: 502,
      code: 'upstream_unavailable',
      details: { upstream: 'Base RPC' },
    })
  })
})
