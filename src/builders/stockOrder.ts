import { type Address, type ContractFunctionParameters, erc20Abi, parseAbi } from 'viem'
import { z } from 'zod'
import { minOutAfterSlippage } from '../analytics/minOutAfterSlippage.js'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { address, atomicAmount, humanAmount, side, symbol, wallet } from '../chain/fields.js'
import {
  findStockTicker,
  STOCK_DECIMALS,
  STOCK_FEED_HEARTBEAT_SEC,
  STOCK_TICKERS,
  type StockTicker,
  TOKENIZED_STOCKS,
} from '../chain/tokenizedStocks.js'
import { USDC_DECIMALS } from '../chain/units.js'
import { InvalidInputError } from '../errors.js'
import { stockAmountIn, stockQuoteReads } from '../market/stocks/getStockPrice.js'
import { multicallAll } from '../market/stocks/readStocks.js'
import { approveIfShort } from './approveIfShort.js'
import { slippageBpsBody } from './bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from './builderEngine.js'
import { assertBalance, BuildRefusedError } from './builderErrors.js'
import { required } from './required.js'
import { encodeUniswapSwap } from './swap/swapDirect.js'
import { tokenLabel } from './tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from './txStep.js'

/**
 * The most a fill may deviate from the stock's feed, in percent either way (|vsFeedPct|): beyond it the
 * order is refused (422 `fill_deviates_from_feed`). A pool that far off the feed is thin for this size,
 * mispriced, or the feed is frozen (off-hours, stale); the caller should not pay that gap unknowingly.
 */
export const MAX_FEED_DEVIATION_PCT = 5

const USDC_TOKEN = { address: BASE_ADDRESSES.USDC, symbol: 'USDC', decimals: USDC_DECIMALS }

/** Errors the stock swap can revert with beyond the common ones (the token's pause; Uniswap's are strings). */
const stockRevertAbi = parseAbi(['error EnforcedPause()'])

export const stockOrderBody = z.strictObject({
  sym: symbol.describe('Ticker, any case (GET /v1/stocks lists the 13)'),
  side,
  amount: humanAmount.describe('USDC to spend on a buy (≤ 6 dp), shares to sell on a sell (≤ 8 dp)'),
  taker: wallet.describe('Signs, sends and receives'),
  slippageBps: slippageBpsBody(),
})

export type StockOrderBody = z.output<typeof stockOrderBody>

export const stockOrderAction = {
  type: z.literal('stockOrder'),
  sym: z.enum(STOCK_TICKERS).describe('The ticker, as registered'),
  side,
  tokenIn: address.describe('USDC on a buy, the stock token on a sell'),
  amountIn: atomicAmount.describe('Atomic: USDC (6 dp) on a buy, stock tokens (8 dp) on a sell'),
  tokenOut: address.describe('The stock token on a buy, USDC on a sell'),
  pool: address.describe('The Uniswap v3 stock/USDC pool the swap goes through'),
}

export type StockOrderAction = ActionOf<typeof stockOrderAction>

export const stockOrderExtra = {
  advisory: z
    .object({
      amountOut: atomicAmount.describe(
        'What the pool pays for amountIn at the quoted block (QuoterV2): stock tokens on a buy, USDC on a sell',
      ),
      amountOutMin: atomicAmount.describe(
        'amountOut less slippageBps, rounded down: the swap’s amountOutMinimum',
      ),
      pricePerShare: z.number().describe('USDC per stock token of this fill'),
      feedUsd: z.number().describe('The oracle feed’s price of one token (underlying × multiplier), USD'),
      feedUpdatedAt: z.number().int().describe('Unix seconds: the feed’s own timestamp of that answer'),
      feedStale: z
        .boolean()
        .describe(
          'The feed is older than its 24 h heartbeat (frozen off-hours or not updating): vsFeedPct compares with an old price',
        ),
      vsFeedPct: z
        .number()
        .describe(
          'Pool fill against the feed, percent (4 dp): positive on a buy is a premium, negative on a sell a discount',
        ),
      multiplier: z.number().describe('Shares per token: token price = underlying price × multiplier'),
      pool: z.object({
        fee: z.number().int().describe('Fee tier, hundredths of a basis point (3000 = 0.3%)'),
        usdc: z.number().describe('The pool’s USDC reserve (its balance), whole USDC'),
        shares: z.number().describe('The pool’s stock-token reserve (its balance), whole tokens'),
      }),
    })
    .describe('The fill against the feed; advisory, the chain enforces only amountOutMin and the deadline'),
}

/** The fill against the feed (`feedStale`: older than STOCK_FEED_HEARTBEAT_SEC). */
export type StockAdvisory = z.output<typeof stockOrderExtra.advisory>

export type StockOrderEnvelope = BuilderEnvelope<StockOrderAction> & { advisory: StockAdvisory }

/** What the encoder needs of the live state (read in one multicall with the quote). */
export interface StockOrderState {
  ticker: StockTicker
  token: Address
  /** The pool the quote chose. */
  pool: { address: Address; fee: number }
  /** The taker's allowance of the token going in to SwapRouter02. */
  allowance: bigint
}

/**
 * Pure: approve (only when short, exactly amountIn, on the token going in: USDC on a buy, the stock on a
 * sell, to SwapRouter02 which pulls it) then SwapRouter02 `multicall(deadline, [exactInputSingle])` through
 * the chosen pool, paying the taker; the deadline is the quote's `expiresAt`.
 */
export function encodeStockOrder(p: {
  state: StockOrderState
  side: 'buy' | 'sell'
  amountIn: bigint
  amountOutMin: bigint
  taker: Address
  deadline: number
}) {
  const { state } = p
  const stock = { address: state.token, symbol: state.ticker, decimals: STOCK_DECIMALS }
  const [tokenIn, tokenOut] = p.side === 'buy' ? [USDC_TOKEN, stock] : [stock, USDC_TOKEN]
  const approve = approveIfShort({
    token: tokenIn.address,
    spender: BASE_ADDRESSES.SwapRouter02,
    needed: p.amountIn,
    allowance: state.allowance,
    label: tokenLabel(p.amountIn, tokenIn),
    spenderName: 'the swap router (SwapRouter02)',
  })
  // The swap builder's own Uniswap encoder (ERC-20 to ERC-20, paid to the taker), with a stock's wording.
  const token = (t: { address: Address; symbol: string; decimals: number }) => ({
    ...t,
    erc20: t.address,
    native: false,
  })
  const tier = `${state.pool.fee / 10_000}%`
  const swap: TxStep = {
    ...encodeUniswapSwap(
      {
        from: token(tokenIn),
        to: token(tokenOut),
        amountIn: p.amountIn,
        minOut: p.amountOutMin,
        owner: p.taker,
        deadline: BigInt(p.deadline),
      },
      state.pool.fee,
    ),
    description:
      p.side === 'buy'
        ? `Buy at least ${tokenLabel(p.amountOutMin, stock)} with ${tokenLabel(p.amountIn, USDC_TOKEN)} in the ${tier} pool`
        : `Sell ${tokenLabel(p.amountIn, stock)} for at least ${tokenLabel(p.amountOutMin, USDC_TOKEN)} in the ${tier} pool`,
  }
  return { steps: [...approve.steps, swap], allowanceIssue: approve.issue }
}

/**
 * A tokenized-stock order: the quote (ticker state, reserves, every fee tier's QuoterV2 quote) and the
 * taker's allowance and balance of the token going in, in one multicall; then the guards (409 from the
 * quote for unminted/paused/unregistered/no pool, 422 without a feed answer or beyond
 * MAX_FEED_DEVIATION_PCT, 422 insufficient balance), then the engine (simulation, envelope).
 */
export async function buildStockOrder(
  engine: BuilderEngine,
  body: StockOrderBody,
): Promise<StockOrderEnvelope> {
  const ticker = findStockTicker(body.sym)
  if (ticker === undefined)
    throw new InvalidInputError(
      'sym',
      `${body.sym} is not a registered tokenized stock: use one of ${STOCK_TICKERS.join(', ')} (GET /v1/stocks).`,
    )
  const { taker } = body
  const token = TOKENIZED_STOCKS[ticker].token
  const buy = body.side === 'buy'
  const tokenIn = buy ? USDC_TOKEN.address : token
  const amountIn = stockAmountIn(body.side, body.amount)
  const quotedAt = engine.nowSec()
  const expiresAt = quotedAt + BUILD_TTL_SEC

  const reads = stockQuoteReads(ticker, body.side, amountIn)
  const own: ContractFunctionParameters[] = [
    {
      address: tokenIn,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [taker, BASE_ADDRESSES.SwapRouter02],
    },
    { address: tokenIn, abi: erc20Abi, functionName: 'balanceOf', args: [taker] },
  ]
  const results = await multicallAll(engine.chain, [...reads.calls, ...own])
  const { quote, state } = reads.decode(results.slice(0, reads.calls.length), quotedAt * 1000)
  const [allowanceRead, balanceRead] = results.slice(reads.calls.length)
  const symbolIn = buy ? 'USDC' : ticker
  const allowance = required(
    allowanceRead?.status === 'success' ? (allowanceRead.result as bigint) : undefined,
    `the ${symbolIn} allowance`,
  )
  const balance = required(
    balanceRead?.status === 'success' ? (balanceRead.result as bigint) : undefined,
    `the ${symbolIn} balance`,
  )

  // Registered implies the registry answered its multiplier; a missing one is a read fault, not a 0.
  const multiplier = required(quote.multiplier ?? undefined, `${ticker}'s multiplier`)
  // Without a feed answer the fill cannot be checked against anything: refuse rather than trade blind.
  if (quote.feedUsd === null || quote.vsFeedPct === null || state.feedUpdatedAt === null)
    throw new BuildRefusedError(
      'stock_feed_unavailable',
      `${ticker}'s price feed has no usable answer, so the fill cannot be checked against it.`,
      'sym',
    )
  const feedAgeSec = quote.feedAgeSec ?? 0
  const feedStale = feedAgeSec > STOCK_FEED_HEARTBEAT_SEC
  if (Math.abs(quote.vsFeedPct) > MAX_FEED_DEVIATION_PCT)
    throw new BuildRefusedError(
      'fill_deviates_from_feed',
      `This ${body.side} fills at ${quote.pricePerShare} USDC per ${ticker}, ${quote.vsFeedPct}% from the ` +
        `feed's ${quote.feedUsd}${feedStale ? ` (stale: ${feedAgeSec} s old)` : ''}; orders are refused ` +
        `beyond ${MAX_FEED_DEVIATION_PCT}% either way. A smaller amount moves the pool less; a pool ` +
        `already that far off the feed is not fixed by size.`,
      'amount',
      {
        vsFeedPct: quote.vsFeedPct,
        maxVsFeedPct: MAX_FEED_DEVIATION_PCT,
        pricePerShare: quote.pricePerShare,
        feedUsd: quote.feedUsd,
        feedUpdatedAt: state.feedUpdatedAt,
        feedAgeSec,
        feedStale,
      },
    )
  assertBalance('amount', { address: tokenIn, symbol: symbolIn }, balance, amountIn)

  const amountOut = BigInt(quote.amountOut)
  const amountOutMin = minOutAfterSlippage(amountOut, body.slippageBps)
  const { steps, allowanceIssue } = encodeStockOrder({
    state: { ticker, token, pool: quote.pool, allowance },
    side: body.side,
    amountIn,
    amountOutMin,
    taker,
    deadline: expiresAt,
  })
  const envelope = await engine.finish<StockOrderAction>({
    owner: taker,
    steps,
    watch: [USDC_TOKEN.address, token],
    issues: { balance: null, allowance: allowanceIssue },
    action: {
      type: 'stockOrder',
      sym: ticker,
      side: body.side,
      tokenIn,
      amountIn: amountIn.toString(),
      tokenOut: buy ? token : USDC_TOKEN.address,
      pool: quote.pool.address,
    },
    revertAbi: stockRevertAbi,
    quotedAt,
    expiresAt,
  })
  return {
    ...envelope,
    advisory: {
      amountOut: quote.amountOut,
      amountOutMin: amountOutMin.toString(),
      pricePerShare: quote.pricePerShare,
      feedUsd: quote.feedUsd,
      feedUpdatedAt: state.feedUpdatedAt,
      feedStale,
      vsFeedPct: quote.vsFeedPct,
      multiplier,
      pool: { fee: quote.pool.fee, usdc: quote.pool.usdc, shares: quote.pool.shares },
    },
  }
}
