import { wrapFetchWithPayment } from '@x402/fetch'
import { type Address, erc20Abi, parseAbi, zeroAddress } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { STOCK_TICKERS, TOKENIZED_STOCKS } from '../../src/chain/tokenizedStocks.js'
import { DEVNET_ADDRESSES } from '../../src/devnet/addresses.js'
import { DEFAULT_PRICES } from '../../src/devnet/buildState.js'
import { PUSHER_MAX_VENUE_GAP } from '../../src/devnet/pricePusher.js'
import type { Arbitrage } from '../../src/market/arbitrage/getArbitrage.js'
import { payer, useInstance, useWorld } from '../helpers/serviceWorld.js'

// The devnet's price pusher keeps every pool the service quotes near the reference the feeds carry:
// Uniswap v3 (every tier with a pool), Aerodrome (volatile and stable), the stock pools and UTIL's. Each
// pool's mid price is read here straight from the pool (slot0, getReserves) and compared with the feed
// (latestRoundData), so the pusher is judged by the chain, not by its own bookkeeping.

/**
 * The largest gap allowed at rest: each pool wanders ±0.4 % around the reference and may drift 0.1 % more
 * before it is swapped back; a steering swap through a 0.3 % pool lands within about 0.1 % of its target
 * (0.54 % was seen on a stock pool under load). So one venue is at most 0.6 % from the feed, and two venues
 * of one pair at most 1.2 % apart.
 */
const MAX_FEED_GAP = 0.006
const MAX_VENUE_GAP = 2 * MAX_FEED_GAP

const { USDC, WETH, cbBTC } = BASE_ADDRESSES
const TIERS = [100, 500, 3000, 10_000] as const

// Written out here, so the truth does not lean on the service's or the pusher's own definitions.
const factoryAbi = parseAbi(['function getPool(address, address, uint24) view returns (address)'])
const aeroFactoryAbi = parseAbi(['function getPool(address, address, bool) view returns (address)'])
const v3PoolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24, uint16, uint16, uint16, uint8, bool)',
  'function token0() view returns (address)',
])
const aeroPoolAbi = parseAbi([
  'function getReserves() view returns (uint256, uint256, uint256)',
  'function tokens() view returns (address, address)',
])
const feedAbi = parseAbi([
  'function latestRoundData() view returns (uint80, int256 answer, uint256, uint256, uint80)',
  'function decimals() view returns (uint8)',
])

const sw = useWorld()
const svc = useInstance(sw)
let pay: typeof fetch
beforeAll(() => {
  pay = wrapFetchWithPayment(fetch, payer(4).client)
})

interface Pair {
  name: string
  token: Address
  /** USD per whole token, from the chain (a feed) or the devnet's build price (UTIL has no feed). */
  reference: () => Promise<number>
}

async function feedUsd(feed: Address): Promise<number> {
  const [[, answer], decimals] = await Promise.all([
    sw.chain.readContract({ address: feed, abi: feedAbi, functionName: 'latestRoundData' }),
    sw.chain.readContract({ address: feed, abi: feedAbi, functionName: 'decimals' }),
  ])
  return Number(answer) / 10 ** decimals
}

const decimalsCache = new Map<Address, number>()
async function decimalsOf(token: Address): Promise<number> {
  let d = decimalsCache.get(token)
  if (d === undefined) {
    d = await sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' })
    decimalsCache.set(token, d)
  }
  return d
}

/** Every venue quoting `token`/USDC, with its mid price in USDC per whole token, read from the pool. */
async function venueMids(token: Address): Promise<{ venue: string; usd: number }[]> {
  const [dToken, dUsdc] = await Promise.all([decimalsOf(token), decimalsOf(USDC)])
  // Atomic USDC per atomic token → USDC per whole token.
  const scale = 10 ** (dToken - dUsdc)
  const out: { venue: string; usd: number }[] = []
  for (const fee of TIERS) {
    const pool = await sw.chain.readContract({
      address: BASE_ADDRESSES.UniswapV3Factory,
      abi: factoryAbi,
      functionName: 'getPool',
      args: [token, USDC, fee],
    })
    if (pool === zeroAddress) continue
    const [[sqrtPriceX96], token0] = await Promise.all([
      sw.chain.readContract({ address: pool, abi: v3PoolAbi, functionName: 'slot0' }),
      sw.chain.readContract({ address: pool, abi: v3PoolAbi, functionName: 'token0' }),
    ])
    const p0in1 = (Number(sqrtPriceX96) / 2 ** 96) ** 2
    const usdcPerToken = token0.toLowerCase() === token.toLowerCase() ? p0in1 : 1 / p0in1
    out.push({ venue: `Uniswap ${fee / 10_000}%`, usd: usdcPerToken * scale })
  }
  for (const stable of [false, true]) {
    const pool = await sw.chain.readContract({
      address: BASE_ADDRESSES.AerodromePoolFactory,
      abi: aeroFactoryAbi,
      functionName: 'getPool',
      args: [token, USDC, stable],
    })
    if (pool === zeroAddress) continue
    const [[r0, r1], [t0]] = await Promise.all([
      sw.chain.readContract({ address: pool, abi: aeroPoolAbi, functionName: 'getReserves' }),
      sw.chain.readContract({ address: pool, abi: aeroPoolAbi, functionName: 'tokens' }),
    ])
    // A stable pool's marginal price is not the reserve ratio; the devnet has none (the stand-in is
    // volatile only), so one showing up here fails loudly instead of being measured wrong.
    expect(stable, `an Aerodrome stable pool for ${token}`).toBe(false)
    const usdcPerToken =
      t0.toLowerCase() === token.toLowerCase() ? Number(r1) / Number(r0) : Number(r0) / Number(r1)
    out.push({ venue: `Aerodrome ${stable ? 'stable' : 'volatile'}`, usd: usdcPerToken * scale })
  }
  return out
}

function pairs(): Pair[] {
  // UTIL has no feed: its reference is the price the devnet builds its pool at.
  const utilUsd = DEFAULT_PRICES.utilUsd
  return [
    { name: 'WETH', token: WETH, reference: () => feedUsd(DEVNET_ADDRESSES.ETH_USD_FEED) },
    { name: 'cbBTC', token: cbBTC, reference: () => feedUsd(DEVNET_ADDRESSES.BTC_USD_FEED) },
    { name: 'UTIL', token: DEVNET_ADDRESSES.UTIL, reference: async () => utilUsd },
    ...STOCK_TICKERS.map((ticker) => ({
      name: ticker,
      token: TOKENIZED_STOCKS[ticker].token,
      reference: () => feedUsd(TOKENIZED_STOCKS[ticker].feed),
    })),
  ]
}

interface Gaps {
  /** Largest |venue / reference − 1| over every pool. */
  worstFeed: { pair: string; venue: string; gap: number }
  /** Largest |a / b − 1| between two venues of one pair. */
  worstVenue: { pair: string; gap: number }
  /** Aerodrome volatile WETH/USDC over Uniswap 0.05 % WETH/USDC, minus 1 (signed). */
  wethAeroOverUni: number
  pools: number
}

async function measure(): Promise<Gaps> {
  const gaps: Gaps = {
    worstFeed: { pair: '', venue: '', gap: 0 },
    worstVenue: { pair: '', gap: 0 },
    wethAeroOverUni: Number.NaN,
    pools: 0,
  }
  for (const pair of pairs()) {
    const [reference, mids] = await Promise.all([pair.reference(), venueMids(pair.token)])
    gaps.pools += mids.length
    for (const m of mids) {
      const gap = Math.abs(m.usd / reference - 1)
      if (gap >= gaps.worstFeed.gap) gaps.worstFeed = { pair: pair.name, venue: m.venue, gap }
    }
    for (const a of mids)
      for (const b of mids) {
        const gap = Math.abs(a.usd / b.usd - 1)
        if (gap > gaps.worstVenue.gap) gaps.worstVenue = { pair: pair.name, gap }
      }
    if (pair.token === WETH) {
      const uni = mids.find((m) => m.venue === 'Uniswap 0.05%')
      const aero = mids.find((m) => m.venue === 'Aerodrome volatile')
      if (uni !== undefined && aero !== undefined) gaps.wethAeroOverUni = aero.usd / uni.usd - 1
    }
  }
  return gaps
}

describe('the devnet keeps every quoted pool near the reference', () => {
  test('the bound stated here covers the pusher’s own (offset + tolerance, twice) and its landing error', () => {
    expect(PUSHER_MAX_VENUE_GAP).toBeLessThan(MAX_VENUE_GAP)
  })

  test('at rest after start: every pool within 0.6 % of its feed, venues of one pair within 1.2 %', async () => {
    const gaps = await measure()
    console.info('venue gaps at start', JSON.stringify(gaps))
    // Every pool there is was measured: WETH (Uniswap 0.05 %, Aerodrome), cbBTC, UTIL and one per stock
    // but SPCXc (registered, not minted: no pool).
    expect(gaps.pools).toBe(4 + STOCK_TICKERS.length - 1)
    expect(Number.isFinite(gaps.wethAeroOverUni)).toBe(true)
    expect(gaps.worstFeed.gap, JSON.stringify(gaps.worstFeed)).toBeLessThanOrEqual(MAX_FEED_GAP)
    expect(gaps.worstVenue.gap, JSON.stringify(gaps.worstVenue)).toBeLessThanOrEqual(MAX_VENUE_GAP)
  })

  test('push after push the bound holds while the Aerodrome–Uniswap gap wanders', async () => {
    const seen: number[] = []
    for (let round = 0; round < 8; round++) {
      await sw.world.pushPrices()
      const gaps = await measure()
      expect(gaps.worstFeed.gap, `round ${round}: ${JSON.stringify(gaps.worstFeed)}`).toBeLessThanOrEqual(
        MAX_FEED_GAP,
      )
      expect(gaps.worstVenue.gap, `round ${round}: ${JSON.stringify(gaps.worstVenue)}`).toBeLessThanOrEqual(
        MAX_VENUE_GAP,
      )
      seen.push(gaps.wethAeroOverUni)
    }
    console.info('Aerodrome/Uniswap WETH gaps by round', seen.map((g) => g.toFixed(4)).join(' '))
    // The venues drift apart and back (a full swing of the wobble takes ~44 pushes, ~4 min at the
    // devnet's 5 s interval, longer than a test should run): here, only that the gap moves.
    expect(Math.max(...seen) - Math.min(...seen)).toBeGreaterThan(0.0005)
  }, 120_000)

  test('GET /v1/swap/price for 1,000 USDC → WETH pays no more WETH than the feed plus the offset', async () => {
    await sw.world.pushPrices()
    const ethUsd = await feedUsd(DEVNET_ADDRESSES.ETH_USD_FEED)
    const query = new URLSearchParams({
      fromToken: USDC,
      toToken: WETH,
      fromAmount: '1000000000',
      taker: payer(4).account.address,
    })
    const res = await pay(`${svc.url}/v1/swap/price?${query}`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { expectedOut: string; route: { source: string }[] }
    const atFeed = 1000 / ethUsd
    const got = Number(body.expectedOut) / 1e18
    console.info('1,000 USDC → WETH', { got, atFeed, over: got / atFeed - 1, venue: body.route[0]?.source })
    expect(got / atFeed - 1).toBeLessThanOrEqual(MAX_FEED_GAP)
  })

  test('GET /v1/arbitrage on the idle devnet finds only what the offsets explain', async () => {
    const budget = 1000
    for (let round = 0; round < 3; round++) {
      if (round > 0) for (let i = 0; i < 5; i++) await sw.world.pushPrices()
      for (const target of ['USDC', 'WETH', 'xBTC']) {
        const query = new URLSearchParams({
          target,
          budget: String(budget),
          taker: payer(4).account.address,
        })
        const res = await pay(`${svc.url}/v1/arbitrage?${query}`)
        expect(res.status).toBe(200)
        const body = (await res.json()) as Arbitrage
        const best = body.routes[0]
        console.info('arbitrage', target, round, best?.path.join(' '), best?.netUsd ?? 'none')
        for (const route of body.routes)
          expect(route.netUsd / budget, route.path.join(' ')).toBeLessThanOrEqual(MAX_VENUE_GAP)
      }
    }
  }, 120_000)
})
