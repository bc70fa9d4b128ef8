import { erc20Abi, type PublicClient } from 'viem'
import { z } from 'zod'
import { impliedApr } from '../../analytics/impliedApr.js'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { cachePerClient } from '../../chain/cachePerClient.js'
import { address, atomicAmount, marketId, unixSeconds } from '../../chain/fields.js'
import { type MidnightMarket, midnightMarketId, midnightReadAbi } from '../../chain/midnight.js'
import { CHAIN_ID } from '../../chain/network.js'
import { fromWad } from '../../chain/units.js'
import { UpstreamError } from '../../errors.js'
import type { Logger } from '../../logger.js'
import type { MarketData } from '../marketData.js'
import { throwOnRpcFault } from '../throwOnRpcFault.js'
import type { MidnightBook, MidnightLevel } from '../upstreams/morphoMidnight.js'

const fixedDepth = (what: string) =>
  z
    .object({
      tick: z.number().int().nonnegative(),
      price: z.number().describe('Loan token paid now per unit repaid at maturity (0 < price ≤ 1)'),
      units: atomicAmount.describe('Units at this price: atomic loan token repaid at maturity'),
      assets: atomicAmount.describe('Maker-side loan token at this price, atomic, paid now'),
      offers: z.number().int().nonnegative(),
    })
    .nullable()
    .describe(what)

/** What the read answers (the route's output schema). */
export const fixedBooksOutput = z.object({
  asOf: unixSeconds.describe('The time the APRs are computed at'),
  books: z.array(
    z.object({
      marketId,
      loanToken: address,
      loanTokenDecimals: z.number().int().nonnegative().nullable(),
      collaterals: z.array(
        z.object({
          token: address,
          lltv: z.number().describe('Liquidation LTV as a fraction (0.86 = 86 %)'),
          oracle: address,
        }),
      ),
      maturity: unixSeconds,
      borrowApr: z.number().nullable().describe('Best bid’s implied APR (fraction); null when no bids'),
      lendApr: z.number().nullable().describe('Best ask’s implied APR (fraction); null when no asks'),
      borrowDepth: fixedDepth('Best bid level (what a borrower can sell into); null when no bids'),
      lendDepth: fixedDepth('Best ask level (what a lender can buy); null when no asks'),
    }),
  ),
})

export type FixedBookDepth = NonNullable<FixedBook['borrowDepth']>
export type FixedBook = FixedBooks['books'][number]
export type FixedBooks = z.output<typeof fixedBooksOutput>

type CheckResult = { status: 'success' | 'failure'; result?: unknown; error?: unknown }
const MARKET_CHECK_TTL_MS = 60_000
const marketCheckCache = cachePerClient<CheckResult[]>(MARKET_CHECK_TTL_MS)

/**
 * Morpho Midnight's fixed-rate books on Base, from the Midnight API, each market checked against the chain.
 *
 * Sides (protocols.md §7a): bids are lender-makers buying units, so a borrower takes the best (highest)
 * bid: `borrowApr`; asks are borrower-makers selling units, so a lender takes the best (lowest) ask:
 * `lendApr`. APR = (1/P − 1) × 31,536,000 / (maturity − now) at the best level's price; an empty side
 * gives a null APR and a null depth. Matured markets are left out (no time left, no rate).
 *
 * Every listed market is re-derived (`MarketUtils.toId` over the API's own parameters) and read back
 * with `toMarket(id)` from Midnight, together with the loan tokens' decimals, in one multicall: a book
 * whose id does not hash from its parameters, that names another chain or Midnight, or whose market the
 * chain does not hold with exactly those parameters is dropped and logged, never served.
 */
export async function getFixedBooks(
  chain: PublicClient,
  market: MarketData,
  nowMs: number,
  logger: Pick<Logger, 'warn'>,
): Promise<FixedBooks> {
  const asOf = Math.floor(nowMs / 1000)
  const listed = (await market.midnight.books()).filter((b) => b.maturity > asOf)

  const drop = (book: MidnightBook, reason: string): false => {
    logger.warn({ msg: 'midnight book dropped', marketId: book.marketId, reason })
    return false
  }
  const candidates = listed.filter((book) => {
    if (book.chainId !== CHAIN_ID) return drop(book, `chain ${book.chainId}`)
    if (book.midnight !== BASE_ADDRESSES.MorphoMidnight) return drop(book, `midnight ${book.midnight}`)
    if (midnightMarketId(toMarket(book)) !== book.marketId)
      return drop(book, 'id does not hash from its params')
    return true
  })
  if (candidates.length === 0) return { asOf, books: [] }

  const loanTokens = [...new Set(candidates.map((b) => b.loanToken))]
  // Markets and token decimals never change once created: the check is re-read at most every
  // MARKET_CHECK_TTL_MS for the same set of books (a market created meanwhile shows up as a new set).
  const key = [...candidates.map((b) => b.marketId), ...loanTokens].join(',')
  const results = await marketCheckCache(chain).get(key, async () => {
    let answer: CheckResult[]
    try {
      answer = await chain.multicall({
        allowFailure: true,
        batchSize: 0,
        contracts: [
          ...candidates.map((b) => ({
            address: BASE_ADDRESSES.MorphoMidnight,
            abi: midnightReadAbi,
            functionName: 'toMarket' as const,
            args: [b.marketId] as const,
          })),
          ...loanTokens.map((token) => ({
            address: token,
            abi: erc20Abi,
            functionName: 'decimals' as const,
          })),
        ],
      })
    } catch (err) {
      throw new UpstreamError('Base RPC', 'no answer to the market check', { cause: err })
    }
    throwOnRpcFault(answer)
    return answer
  })

  const decimals = new Map(
    loanTokens.map((token, i) => {
      const r = results[candidates.length + i]
      return [token, r?.status === 'success' && typeof r.result === 'number' ? r.result : null]
    }),
  )
  const books: FixedBook[] = []
  for (const [i, book] of candidates.entries()) {
    const onchain = results[i]
    if (onchain?.status !== 'success') {
      drop(book, 'toMarket reverted')
      continue
    }
    // toMarket returns the stored market; an unknown id comes back empty (or reverts), never hashing to it.
    if (midnightMarketId(onchain.result as MidnightMarket) !== book.marketId) {
      drop(book, 'market not on chain with these params')
      continue
    }
    const bestBid = best(book.bids, (a, b) => a.price > b.price)
    const bestAsk = best(book.asks, (a, b) => a.price < b.price)
    books.push({
      marketId: book.marketId,
      loanToken: book.loanToken,
      loanTokenDecimals: decimals.get(book.loanToken) ?? null,
      collaterals: book.collaterals.map((c) => ({
        token: c.token,
        lltv: fromWad(c.lltv),
        oracle: c.oracle,
      })),
      maturity: book.maturity,
      borrowApr: bestBid === undefined ? null : impliedApr(bestBid.price, book.maturity, asOf),
      lendApr: bestAsk === undefined ? null : impliedApr(bestAsk.price, book.maturity, asOf),
      borrowDepth: bestBid === undefined ? null : depth(bestBid),
      lendDepth: bestAsk === undefined ? null : depth(bestAsk),
    })
  }
  books.sort((a, b) => a.maturity - b.maturity || (a.marketId < b.marketId ? -1 : 1))
  return { asOf, books }
}

/** The market struct the API's fields describe. */
function toMarket(book: MidnightBook): MidnightMarket {
  return {
    chainId: BigInt(book.chainId),
    midnight: book.midnight,
    loanToken: book.loanToken,
    collateralParams: book.collaterals,
    maturity: BigInt(book.maturity),
    rcfThreshold: book.rcfThreshold,
    enterGate: book.enterGate,
    liquidatorGate: book.liquidatorGate,
  }
}

/** The best executable level, whatever order the API sent (levels with nothing to take are skipped). */
function best(
  levels: readonly MidnightLevel[],
  better: (a: MidnightLevel, b: MidnightLevel) => boolean,
): MidnightLevel | undefined {
  let top: MidnightLevel | undefined
  for (const level of levels) if (level.units > 0n && (top === undefined || better(level, top))) top = level
  return top
}

function depth(level: MidnightLevel): FixedBookDepth {
  return {
    tick: level.tick,
    price: fromWad(level.price),
    units: level.units.toString(),
    assets: level.assets.toString(),
    offers: level.count,
  }
}
