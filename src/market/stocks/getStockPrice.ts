import type { ContractFunctionParameters, PublicClient } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { cachePerClient } from '../../chain/cachePerClient.js'
import { address, atomicAmount, humanAmount, side, symbol } from '../../chain/fields.js'
import { quoterV2Abi, UNISWAP_V3_FEE_TIERS } from '../../chain/swapVenueAbis.js'
import {
  findStockTicker,
  STOCK_DECIMALS,
  STOCK_TICKERS,
  type StockTicker,
  TOKENIZED_STOCKS,
} from '../../chain/tokenizedStocks.js'
import { USDC_DECIMALS } from '../../chain/units.js'
import { AppError, InvalidInputError } from '../../errors.js'
import { fromAtomic, round, significant, toAtomic } from '../numbers.js'
import { multicallAll, type Result, type StockPool, type StockState, stockStateCalls } from './readStocks.js'

export class UnknownStockError extends AppError {
  override readonly name = 'UnknownStockError'
  constructor(sym: string) {
    super(
      404,
      'unknown_stock',
      `${sym} is not a registered tokenized stock. Use one of ${STOCK_TICKERS.join(', ')} (GET /v1/stocks lists them).`,
      'sym',
    )
  }
}

/** The ticker is registered but has no supply, so no pool: nothing to quote, nothing charged. */
export class StockNotMintedError extends AppError {
  override readonly name = 'StockNotMintedError'
  constructor(readonly ticker: StockTicker) {
    super(
      409,
      'stock_not_minted',
      `${ticker} is registered but not minted yet, so it has no pool to trade in. GET /v1/stocks shows which tickers are tradable. Nothing was charged.`,
      'sym',
      { ticker },
    )
  }
}

/** Minted, but the chain would refuse or cannot fill a trade right now. */
export class StockNotTradableError extends AppError {
  override readonly name = 'StockNotTradableError'
  constructor(
    readonly ticker: StockTicker,
    readonly reason: 'paused' | 'not_registered' | 'no_pool',
  ) {
    const why = {
      paused: 'is paused by its issuer: transfers, and so swaps, revert until it is unpaused',
      not_registered: 'is not known to the onchain oracle registry',
      no_pool: 'has no USDC pool with liquidity that fills this amount',
    }[reason]
    super(
      409,
      `stock_${reason}`,
      `${ticker} ${why}. GET /v1/stocks shows which tickers are tradable. Nothing was charged.`,
      'sym',
      { ticker },
    )
  }
}

/** The query of GET /v1/stocks/price. */
export const stockPriceQuery = z.object({ sym: symbol, side, amount: humanAmount })

export type StockQuoteRequest = z.output<typeof stockPriceQuery>

/** What the read answers (the route's output schema). */
export const stockPriceOutput = z.object({
  sym: z.string(),
  side,
  amountIn: atomicAmount.describe('USDC (6 dp) on a buy, stock tokens (8 dp) on a sell'),
  amountOut: atomicAmount.describe('Stock tokens on a buy, USDC on a sell'),
  pricePerShare: z.number().describe('USDC per token of this fill'),
  feedUsd: z.number().nullable(),
  feedAgeSec: z.number().int().nullable(),
  vsFeedPct: z.number().nullable(),
  multiplier: z.number().nullable(),
  pool: z.object({
    address,
    fee: z.number().int(),
    usdc: z.number().describe('USDC reserve'),
    shares: z.number().describe('Stock token reserve'),
  }),
})

export type StockQuote = z.output<typeof stockPriceOutput>

const QUOTE_TTL_MS = 2_000
const quoteCache = cachePerClient<Result[]>(QUOTE_TTL_MS)

/**
 * A caller's human amount as the atomic amount in: USDC (6 dp) on a buy, stock tokens (8 dp) on a sell.
 * More decimals than the token has (rounding would change the order) or zero is a 400 naming `amount`.
 */
export function stockAmountIn(side: 'buy' | 'sell', amount: string): bigint {
  const buy = side === 'buy'
  const decimalsIn = buy ? USDC_DECIMALS : STOCK_DECIMALS
  const amountIn = toAtomic(amount, decimalsIn)
  if (amountIn === null || amountIn === 0n) {
    throw new InvalidInputError(
      'amount',
      `must be a positive amount with at most ${decimalsIn} decimals (${buy ? 'USDC to spend' : 'shares to sell'}).`,
    )
  }
  return amountIn
}

/** The calls behind one stock quote, to run in the caller's multicall, and their decoder. */
export interface StockQuoteReads {
  calls: ContractFunctionParameters[]
  /**
   * The quote from the results of `calls` (same order), with the ticker state it came from; an unminted
   * ticker is StockNotMintedError (409), a paused, unregistered or unfillable one StockNotTradableError (409).
   */
  decode(results: readonly Result[], nowMs: number): { quote: StockQuote; state: StockState }
}

/**
 * The ticker's state (feed, supply, registry, pools with their reserves) and a QuoterV2
 * `quoteExactInputSingle` in every fee tier's stock/USDC pool; the pool that pays out most is chosen.
 * Shared by the quote read and the order builder, so both fill from the same pool by the same rule.
 */
export function stockQuoteReads(
  ticker: StockTicker,
  side: 'buy' | 'sell',
  amountIn: bigint,
): StockQuoteReads {
  const buy = side === 'buy'
  const token = TOKENIZED_STOCKS[ticker].token
  const [tokenIn, tokenOut] = buy ? [BASE_ADDRESSES.USDC, token] : [token, BASE_ADDRESSES.USDC]
  const state = stockStateCalls(ticker, { reserves: true })
  const quotes = UNISWAP_V3_FEE_TIERS.map((fee) => ({
    address: BASE_ADDRESSES.QuoterV2,
    abi: quoterV2Abi,
    functionName: 'quoteExactInputSingle',
    args: [{ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n }],
  }))
  return {
    calls: [...state.calls, ...quotes],
    decode(results, nowMs) {
      const s = state.decode(results.slice(0, state.calls.length))
      if (!s.minted) throw new StockNotMintedError(ticker)
      if (!s.registered) throw new StockNotTradableError(ticker, 'not_registered')
      if (s.paused) throw new StockNotTradableError(ticker, 'paused')

      // The pool that pays out most for this amount (only pools that exist and hold liquidity).
      let best: { pool: StockPool; out: bigint } | undefined
      for (const [i, r] of results.slice(state.calls.length, state.calls.length + quotes.length).entries()) {
        const pool = s.pools.find((p) => p.fee === UNISWAP_V3_FEE_TIERS[i])
        if (r.status !== 'success' || pool === undefined) continue
        const out = (r.result as readonly [bigint, bigint, number, bigint])[0]
        if (out > 0n && (best === undefined || out > best.out)) best = { pool, out }
      }
      if (best === undefined) throw new StockNotTradableError(ticker, 'no_pool')
      const { pool, out } = best

      const usdc = fromAtomic(buy ? amountIn : out, USDC_DECIMALS)
      const shares = fromAtomic(buy ? out : amountIn, STOCK_DECIMALS)
      const pricePerShare = usdc / shares
      const nowSec = Math.floor(nowMs / 1000)
      const quote: StockQuote = {
        sym: ticker,
        side,
        amountIn: amountIn.toString(),
        amountOut: out.toString(),
        pricePerShare: significant(pricePerShare),
        feedUsd: s.feedUsd,
        feedAgeSec: s.feedUpdatedAt === null ? null : Math.max(0, nowSec - s.feedUpdatedAt),
        vsFeedPct: s.feedUsd === null ? null : round((pricePerShare / s.feedUsd - 1) * 100, 4),
        multiplier: s.multiplier,
        pool: {
          address: pool.address,
          fee: pool.fee,
          usdc: fromAtomic(pool.usdc ?? 0n, USDC_DECIMALS),
          shares: fromAtomic(pool.shares ?? 0n, STOCK_DECIMALS),
        },
      }
      return { quote, state: s }
    },
  }
}

/**
 * A stock fill quote from the chain in one multicall (`stockQuoteReads`); identical quotes within
 * QUOTE_TTL_MS share one read. A stale feed still quotes (its age is returned); an unminted ticker
 * is StockNotMintedError (409), a paused or unfillable one StockNotTradableError (409).
 */
export async function getStockPrice(
  chain: PublicClient,
  request: StockQuoteRequest,
  nowMs: number,
): Promise<StockQuote> {
  const ticker = findStockTicker(request.sym)
  if (ticker === undefined) throw new UnknownStockError(request.sym)
  const amountIn = stockAmountIn(request.side, request.amount)
  const reads = stockQuoteReads(ticker, request.side, amountIn)
  // An identical quote within QUOTE_TTL_MS (same ticker, side and amount) is answered from one read.
  const results = await quoteCache(chain).get(`${ticker}|${request.side}|${amountIn}`, () =>
    multicallAll(chain, reads.calls),
  )
  return reads.decode(results, nowMs).quote
}
