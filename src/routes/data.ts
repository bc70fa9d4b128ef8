import { getAddress } from 'viem'
import { z } from 'zod'
import { getAssetIdea } from '../market/getAssetIdea.js'
import { getCandles } from '../market/getCandles.js'
import { getCrowd } from '../market/getCrowd.js'
import { getFixedBooks } from '../market/getFixedBooks.js'
import { getHistory } from '../market/getHistory.js'
import { getLoanMarkets } from '../market/getLoanMarkets.js'
import { getPendingOrders } from '../market/getPendingOrders.js'
import { getPortfolio } from '../market/getPortfolio.js'
import { getPositions } from '../market/getPositions.js'
import { getPrices } from '../market/getPrices.js'
import { getRiskPairs } from '../market/getRiskPairs.js'
import { getSignals } from '../market/getSignals.js'
import { getStats } from '../market/getStats.js'
import { getStockPrice } from '../market/getStockPrice.js'
import { getStocks, NOT_TRADABLE_REASONS } from '../market/getStocks.js'
import { getSwapPrice } from '../market/getSwapPrice.js'
import { getVaults } from '../market/getVaults.js'
import {
  address,
  assetClass,
  atomicAmount,
  candleClass,
  humanAmount,
  marketId,
  positiveAtomicAmount,
  queryInt,
  side,
  slippageBpsQuery,
  sourceStatus,
  symbol,
  symbolList,
  tokenOrNative,
  unixSeconds,
} from './fields.js'
import { assetRead, IDEA_RULES, idea, ideaBasis } from './ideaSchema.js'
import { defineRoute } from './route.js'
import { POSITIONS_EXAMPLE } from './walletExamples.js'

/** Section A: data reads, $0.001 each. */
const PRICE = 0.001

const walletParams = z.object({ address })
const usdOrNull = z
  .number()
  .nullable()
  .describe('USD value; null when no reliable price exists (never a fake 0)')

const readAt = z
  .object({ number: z.number().int().nonnegative(), timestamp: unixSeconds })
  .describe('The block every value was read at (answers are cached up to 15 s)')

export const pricesRoute = defineRoute({
  id: 'getPrices',
  method: 'GET',
  path: '/v1/prices',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Spot and perp prices for up to 30 symbols',
  description:
    'Per symbol, two labeled venue legs: `spot` (the exchange’s SYM-USD product: usd, change24h in percent, volume24h in base-asset units, high24h, low24h) and `perp` (gTrade: pairIndex, index = the oracle price used for liquidations, mark = what a minimal market long fills at, index plus half the pair spread). A leg is null when that venue does not list the symbol (or, for perp, has no oracle price right now); perp legs cover symbols the exchange does not carry. A ticker neither venue can price (no exchange product, no perp pair with an oracle feed) is listed in `unknown` instead of `prices`, and when every requested ticker is unknown the call is refused with 400 `unknown_symbol` (field `symbols`) and not charged. Duplicate symbols are answered once.',
  input: { query: z.object({ symbols: symbolList(30) }) },
  output: z.object({
    asOf: unixSeconds,
    prices: z.array(
      z.object({
        symbol,
        spot: z
          .object({
            venue: z.string(),
            usd: z.number(),
            change24h: z.number(),
            volume24h: z.number(),
            high24h: z.number(),
            low24h: z.number(),
          })
          .nullable(),
        perp: z
          .object({ venue: z.string(), pairIndex: z.number().int(), mark: z.number(), index: z.number() })
          .nullable(),
      }),
    ),
    unknown: z
      .array(z.string())
      .describe('Requested tickers neither venue can price (canonical case); empty when none'),
  }),
  example: {
    query: { symbols: 'BTC,ETH' },
    output: {
      asOf: 1795420800,
      prices: [
        {
          symbol: 'BTC',
          spot: {
            venue: 'coinbase',
            usd: 95210.5,
            change24h: 1.84,
            volume24h: 8123.4,
            high24h: 96020,
            low24h: 93110.25,
          },
          perp: { venue: 'gtrade', pairIndex: 0, mark: 95214.3, index: 95208.1 },
        },
        {
          symbol: 'ETH',
          spot: {
            venue: 'coinbase',
            usd: 3012.44,
            change24h: -0.62,
            volume24h: 102344.1,
            high24h: 3071.2,
            low24h: 2984.05,
          },
          perp: { venue: 'gtrade', pairIndex: 1, mark: 3012.71, index: 3012.3 },
        },
      ],
      unknown: [],
    },
  },
  handler: async ({ query }, ctx) => ({
    asOf: Math.floor(ctx.deps.clock() / 1000),
    ...(await getPrices(ctx.deps.market, query.symbols)),
  }),
})

export const crowdRoute = defineRoute({
  id: 'getCrowd',
  method: 'GET',
  path: '/v1/crowd',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Crowd positioning on the perp venue',
  description:
    'Per pair: long vs short split in percent and USD, the pair’s total, and bookSharePct (the pair’s share of the whole open book, `totalBookUsd`, over every listed pair whatever the filter). Source: the perp venue’s open interest as its backend serves it (GET /trading-variables/all: each collateral’s per-pair OI at open size, valued at the collateral’s USD price, summed over collaterals). Without `symbols`, every listed pair in pairIndex order; with them, the matching pairs in the order asked (BTC names BTC/USD; a pair can be named USD/JPY or USDJPY, a USD-based one also by its quote, JPY). Tickers no pair matches are listed in `unknown`; when none matches, 400 `unknown_symbol` (field `symbols`), not charged. Percentages are null for a pair with no open interest.',
  input: { query: z.object({ symbols: symbolList(60).optional() }) },
  output: z.object({
    totalBookUsd: z.number().describe('Open interest of every listed pair, long plus short, USD'),
    pairs: z.array(
      z.object({
        symbol: z.string().describe('The base of a USD-quoted pair (BTC), else the pair (USD/JPY)'),
        pair: z.string().describe('FROM/TO as the venue lists it'),
        pairIndex: z.number().int(),
        longPct: z.number().nullable(),
        shortPct: z.number().nullable(),
        longUsd: z.number(),
        shortUsd: z.number(),
        totalUsd: z.number(),
        bookSharePct: z.number().nullable(),
      }),
    ),
    unknown: z
      .array(z.string())
      .describe('Requested tickers no pair matches (canonical case); empty when none'),
  }),
  example: {
    query: { symbols: 'BTC,ETH' },
    output: {
      totalBookUsd: 48210000,
      pairs: [
        {
          symbol: 'BTC',
          pair: 'BTC/USD',
          pairIndex: 0,
          longPct: 61.2,
          shortPct: 38.8,
          longUsd: 9180000,
          shortUsd: 5820000,
          totalUsd: 15000000,
          bookSharePct: 31.11,
        },
        {
          symbol: 'ETH',
          pair: 'ETH/USD',
          pairIndex: 1,
          longPct: 47.5,
          shortPct: 52.5,
          longUsd: 4275000,
          shortUsd: 4725000,
          totalUsd: 9000000,
          bookSharePct: 18.67,
        },
      ],
      unknown: [],
    },
  },
  handler: async ({ query }, ctx) => getCrowd(ctx.deps.market, query.symbols),
})

const part = z.number().min(0).max(1).nullable()
const signal = z.object({
  symbol,
  source: z.string().describe('Candle source: exchange product (BTC-USD) or oracle symbol (FX.EUR/USD)'),
  granularitySec: z.number().int().describe('Bar size in seconds (3600)'),
  bars: z.number().int().describe('Bars used (168 for a full window)'),
  lastBarTime: unixSeconds.nullable().describe('Start of the last bar used, unix seconds; null without bars'),
  close: z.number().nullable().describe('Close of the last bar, in the quote currency'),
  rsi14: z.number().nullable().describe('Wilder RSI(14), 0..100; null under 15 bars'),
  macdHistogram: z
    .number()
    .nullable()
    .describe('MACD(12/26/9) line minus signal line, quote currency; null under 34 bars'),
  bollingerPctB: z.number().nullable().describe('Bollinger %B(20, 2σ); null under 20 bars'),
  vwapPosition: z
    .number()
    .nullable()
    .describe('(close / VWAP − 1) × 100, VWAP of the last 24 bars; null when the source has no volume'),
  sma20Trend: z.enum(['up', 'down', 'flat']).nullable().describe('SMA(20) direction; null under 25 bars'),
  headAndShoulders: z.object({
    pattern: z.enum(['none', 'top', 'inverse']),
    confidence: z.number().min(0).max(1),
  }),
  fib: z
    .object({
      swing: z.enum(['up', 'down']),
      retracement: z.number().min(0).max(1),
      level: z.number(),
    })
    .nullable()
    .describe('The window swing, the share of it the last close gave back, the nearest Fibonacci level'),
  fibConfidence: z.number().min(0).max(1).nullable(),
  sentiment: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe('Blended directional sentiment, 0 = bearish, 1 = bullish'),
  bias: z.enum(['long', 'short', 'neutral']).nullable(),
  conviction: z.number().min(0).max(1).nullable().describe('2 × |sentiment − 0.5|'),
  parts: z
    .object({
      rsi: part,
      macd: part,
      bollinger: part,
      vwap: part,
      sma: part,
      headAndShoulders: part,
      fib: part,
    })
    .describe('Every per-indicator input to the blend, 0 = bearish, 1 = bullish; null drops out'),
})

export const signalsRoute = defineRoute({
  id: 'getSignals',
  method: 'GET',
  path: '/v1/signals',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Technical signals for up to 10 symbols',
  description:
    'Per symbol, over 7 days of hourly candles (168 bars, ending at the start of the current hour) from the GET /v1/candles path: the exchange’s SYM-QUOTE product (with volume) when cls is absent and it is listed, else the oracle’s price history for the symbol’s feed in `cls` (no volume). `source`, `bars` and `lastBarTime` name the exact bars used; candles are cached 60 s per window. ' +
    'Indicators (trading-signals, over closes): `rsi14` Wilder RSI(14), seeded with the mean of the first 14 changes; `macdHistogram` MACD(12/26/9) line minus signal line in the quote currency, EMAs seeded with their first input; `bollingerPctB` (close − lower)/(upper − lower) of Bollinger(20, 2σ, population σ), 0.5 on a flat window; `vwapPosition` (close/VWAP − 1) × 100, VWAP of the last 24 bars (typical price × volume), null when the source has no volume (oracle classes); `sma20Trend` up/down when SMA(20) moved more than 0.25 σ20 over the last 5 bars, else flat (σ20 = the Bollinger σ of the last 20 closes). ' +
    'Warm-up: RSI needs 15 bars, %B and the pattern reads 20, the SMA trend 25, the MACD histogram 34; a value without enough bars is null, never 0 (a full window leaves 134 bars of smoothing beyond it). ' +
    'Pattern reads over closes: `headAndShoulders` is top, inverse or none, read from the last five zigzag swings (turns of at least 4 × the mean close-to-close move) ending at the last swing high (low for inverse): confidence = 0.3 shoulder symmetry + 0.2 head prominence + 0.1 time symmetry + 0.4 neckline break (1 once closed through, else half the way from the right shoulder to the neckline); under 0.5 it reads none with confidence 0. `fib`: the swing from the window’s lowest to highest close (up, low first) or highest to lowest (down), the last close’s retracement of it and the nearest of 0.236, 0.382, 0.5, 0.618, 0.786; `fibConfidence` = max(0, 1 − |retracement − level| / 0.05). ' +
    'Parts, 0 = bearish to 1 = bullish: rsi = RSI/100; macd = 0.5 + 0.5 tanh(2 × histogram/σ20); bollinger = %B clamped to 0..1; vwap = 0.5 + 0.5 tanh((close − VWAP)/σ20); sma = 0.5 + 0.5 tanh(SMA20 5-bar change/σ20); headAndShoulders = 0.5 − 0.5 × confidence for a top, 0.5 + 0.5 × confidence for an inverse, 0.5 for none; fib = 0.5 + 0.5 × fibConfidence in an up swing, 0.5 − 0.5 × fibConfidence in a down swing. ' +
    '`sentiment` = Σ wᵢ × partᵢ / Σ wᵢ over the non-null parts with weights rsi 0.15, macd 0.20, bollinger 0.15, vwap 0.10, sma 0.15, headAndShoulders 0.15, fib 0.10, rounded to 4 decimals; `bias` is long when sentiment ≥ 0.55, short when ≤ 0.45, else neutral; `conviction` = 2 × |sentiment − 0.5|, 0..1. They are null only when no part can be computed. Other values are rounded to 4 decimals (macdHistogram to 10 significant digits). ' +
    'All tickers of a call are read in `cls` and `quote` (default USD); without cls, a ticker the exchange does not list falls back to any oracle feed with that base and quote. A ticker with no price history is listed in `unknown`; when every ticker is unknown the call is refused with 400 `unknown_symbol` (field `symbols`) and not charged. Duplicate symbols are answered once. Indicative, not advice.',
  input: {
    query: z.object({
      symbols: symbolList(10),
      cls: assetClass.optional(),
      quote: z
        .string()
        .regex(/^[A-Z]{3}$/, { error: 'must be a 3-letter currency code.' })
        .default('USD'),
    }),
  },
  output: z.object({
    signals: z.array(signal),
    unknown: z
      .array(z.string())
      .describe('Requested tickers with no price history in that class and quote; empty when none'),
  }),
  example: {
    query: { symbols: 'BTC,NOPE' },
    output: {
      signals: [
        {
          symbol: 'BTC',
          source: 'BTC-USD',
          granularitySec: 3600,
          bars: 168,
          lastBarTime: 1795410000,
          close: 94510.85,
          rsi14: 31.274,
          macdHistogram: -206.9963195,
          bollingerPctB: 0.0088,
          vwapPosition: -3.0808,
          sma20Trend: 'down',
          headAndShoulders: { pattern: 'top', confidence: 0.7987 },
          fib: { swing: 'up', retracement: 0.5595, level: 0.618 },
          fibConfidence: 0,
          sentiment: 0.1753,
          bias: 'short',
          conviction: 0.6494,
          parts: {
            rsi: 0.3127,
            macd: 0.2687,
            bollinger: 0.0088,
            vwap: 0.0007,
            sma: 0.054,
            headAndShoulders: 0.1007,
            fib: 0.5,
          },
        },
      ],
      unknown: ['NOPE'],
    },
  },
  handler: async ({ query }, ctx) => getSignals(ctx.deps.market, query, ctx.deps.clock()),
})

export const candlesRoute = defineRoute({
  id: 'getCandles',
  method: 'GET',
  path: '/v1/candles',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'OHLC candles for a product or symbol',
  description:
    'Pass `product` (an exchange product such as BTC-USD) or `sym` with `cls`. Bar size follows the window: hourly up to 7 days, six-hour up to 31 days, daily up to 350 days. `series` rows are [startSec, open, high, low, close], oldest first, whole bars only; `high`/`low` are the window extremes; `candles` is the number of rows. Source: the exchange when it lists the product (for cls Crypto, SYM-QUOTE), else the oracle’s price history for that class (productId is then the oracle symbol, e.g. FX.EUR/USD). Unknown instruments get 404 `unknown_instrument`.',
  input: {
    query: z
      .object({
        product: z
          .string()
          .regex(/^[A-Z0-9]{2,12}-[A-Z]{3,5}$/, { error: 'must be an exchange product such as BTC-USD.' })
          .optional(),
        sym: symbol.optional(),
        cls: candleClass.optional(),
        quote: z
          .string()
          .regex(/^[A-Z]{3,5}$/, { error: 'must be a currency code such as USD.' })
          .default('USD'),
        days: queryInt(1, 350).default(30).describe('Window in days, 1..350, default 30'),
      })
      .refine((q) => q.product !== undefined || q.sym !== undefined, {
        error: 'is required: pass product, or sym with cls.',
        path: ['product'],
      })
      .refine((q) => q.sym === undefined || q.cls !== undefined || q.product !== undefined, {
        error: 'is required with sym (Commodities, Indices, Forex, Stocks or Crypto).',
        path: ['cls'],
      }),
  },
  output: z.object({
    productId: z.string(),
    days: z.number().int(),
    granularitySec: z.number().int(),
    high: z.number().nullable().describe('Highest high of the window; null when it has no bars'),
    low: z.number().nullable().describe('Lowest low of the window; null when it has no bars'),
    candles: z.number().int(),
    series: z.array(z.tuple([z.number().int(), z.number(), z.number(), z.number(), z.number()])),
  }),
  example: {
    query: { product: 'BTC-USD', days: '1' },
    output: {
      productId: 'BTC-USD',
      days: 1,
      granularitySec: 3600,
      high: 95620.5,
      low: 94880,
      candles: 2,
      series: [
        [1795413600, 95010.2, 95620.5, 94880, 95480.1],
        [1795417200, 95480.1, 95590, 95120.7, 95210.5],
      ],
    },
  },
  handler: async ({ query }, ctx) => getCandles(ctx.deps.market, query, ctx.deps.clock()),
})

export const swapPriceRoute = defineRoute({
  id: 'getSwapPrice',
  method: 'GET',
  path: '/v1/swap/price',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Indicative swap quote (no calldata, reserves nothing)',
  description:
    'Expected output, minimum output after slippage, fee estimates and route for swapping `fromAmount` (atomic units) of `fromToken` into `toToken`; native ETH is the sentinel 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE on either side. Reserves no liquidity and returns no calldata; build the transaction with POST /v1/tx/swap. Source (`quotedBy`): `0x` = the 0x Swap API v2 allowance-holder price (when the service has a 0x API key; `taker` and `slippageBps` are passed to it, `minOut` is its minBuyAmount, `route` its fills); `onchain` = the best single-hop pool read from Base in one multicall (one more read for an Aerodrome winner’s fee): Uniswap v3 QuoterV2 over the 0.01/0.05/0.3/1 % tiers and the Aerodrome router (volatile and stable), ETH priced as WETH on Uniswap only (the Aerodrome router takes no native ETH, so POST /v1/tx/swap routes it through Uniswap), ETH⇄WETH a 1:1 wrap through WETH9; there `minOut` = floor(expectedOut × (10000 − slippageBps) / 10000). Fees: `poolFeeBps` is the pool’s own fee, already inside expectedOut (null from 0x, which does not report it); `aggregatorFee` is 0x’s fee, already inside expectedOut (null onchain); `gasEstimate` is gas units (0x: the whole transaction; onchain: QuoterV2’s estimate of the pool swap alone, without router overhead or approvals; null for Aerodrome and wraps); `networkFeeWei` = 0x’s totalNetworkFee, or gasEstimate × the block’s base fee onchain (Base’s L1 data fee not included); `gasUsd` = networkFeeWei at the exchange’s ETH-USD price. Every unknown value is null, never 0. Quotes are cached 2 s (about one Base block) per identical request. Errors: 400 naming the field (`toToken` equal to `fromToken`, `fromAmount` 0); 409 `no_liquidity` when no pool can fill it; 502 with Retry-After when 0x or the RPC fails. None of them is charged.',
  input: {
    query: z.object({
      fromToken: tokenOrNative,
      toToken: tokenOrNative,
      fromAmount: positiveAtomicAmount,
      taker: address.describe('The wallet that would swap (0x checks its balance and allowance)'),
      slippageBps: slippageBpsQuery(10_000),
    }),
  },
  output: z.object({
    fromToken: address,
    toToken: address,
    fromAmount: atomicAmount,
    expectedOut: atomicAmount.describe('Atomic units of toToken the swap is expected to deliver'),
    minOut: atomicAmount.describe('Least output after slippageBps: the swap should revert below it'),
    slippageBps: z.number().int(),
    quotedBy: z.enum(['0x', 'onchain']).describe('0x Swap API v2, or the DEX contracts read directly'),
    blockNumber: atomicAmount.nullable().describe('Block the liquidity was read at; null for a wrap'),
    fees: z.object({
      gasEstimate: atomicAmount
        .nullable()
        .describe('Gas units; see the description for what each source counts'),
      networkFeeWei: atomicAmount.nullable().describe('Gas cost in wei'),
      gasUsd: usdOrNull,
      poolFeeBps: z
        .number()
        .nullable()
        .describe('The pool’s own fee in basis points, already in expectedOut'),
      aggregatorFee: z
        .object({ amount: atomicAmount, token: address })
        .nullable()
        .describe('0x’s fee, already in expectedOut; null onchain'),
    }),
    route: z.array(
      z.object({
        source: z.string().describe('Liquidity source, e.g. Uniswap_V3, Aerodrome_V2, WETH (wrap)'),
        from: address,
        to: address,
        proportionBps: z.number().int().describe('Share of fromAmount this leg fills, in basis points'),
      }),
    ),
  }),
  example: {
    query: {
      fromToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      toToken: '0x4200000000000000000000000000000000000006',
      fromAmount: '1000000000',
      taker: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      fromToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      toToken: '0x4200000000000000000000000000000000000006',
      fromAmount: '1000000000',
      expectedOut: '333166666666666666',
      minOut: '329834999999999999',
      slippageBps: 100,
      quotedBy: 'onchain',
      blockNumber: '38950000',
      fees: {
        gasEstimate: '84000',
        networkFeeWei: '840000000000',
        gasUsd: 0.00252,
        poolFeeBps: 5,
        aggregatorFee: null,
      },
      route: [
        {
          source: 'Uniswap_V3',
          from: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          to: '0x4200000000000000000000000000000000000006',
          proportionBps: 10000,
        },
      ],
    },
  },
  handler: async ({ query }, ctx) => getSwapPrice(ctx.deps.chain, ctx.deps.market, query),
})

export const portfolioRoute = defineRoute({
  id: 'getPortfolio',
  method: 'GET',
  path: '/v1/portfolio/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Wallet balances (native + every ERC-20), spam-screened, priced',
  description:
    'Every ERC-20 plus the native ETH of `address`, read live. Which tokens: those the block explorer (Blockscout REST v2 `/api/v2/addresses/{hash}/token-balances`, ERC-20 rows only) lists, plus every token of the service’s token list (the tokens the builders’ address book vets: USDC, WETH, cbBTC, cbETH, USDbC, wstETH, the Aave aTokens and variable-debt tokens, the catalog’s vault shares, the tokenized stocks, UTIL). Every balance is the chain’s, not the explorer’s: one eth_call of Multicall3 at `block` reads the block number and timestamp, getEthBalance and, per token, balanceOf, decimals, symbol and name; decimals, symbol and name are the chain’s (the explorer’s when the token does not answer). Tokens with a zero balance are left out, native ETH too; an address with nothing answers 200 with empty lists and totalUsd 0. `usd` = balance ÷ 10^decimals × price, from the source named in `priceSource`: `coinbase:ETH-USD` (Coinbase Exchange spot, native ETH, WETH and aBasWETH), `coinbase:BTC-USD` (cbBTC), `par:USD` (USDC and aBasUSDC, redeemable 1:1). The explorer’s own exchange_rate is never used. `usd` is null (never 0) for listed tokens without a price source here (cbETH, USDbC, wstETH; debt tokens, whose balance is owed; vault shares, valued in /v1/positions; tokenized stocks, priced by /v1/stocks/{ticker}/price; UTIL) and for spot-priced tokens while the exchange is unavailable. Spam rule (first match wins): a listed token is never screened; otherwise `scam-pattern` when the name or symbol holds a URL or domain, an airdrop-scam word (claim, visit, reward, airdrop, voucher, bonus, giveaway, gift, redeem, eligible), a `$` in the symbol, or a character outside printable ASCII (lookalikes, invisible characters); `impersonation` when its symbol equals a listed token’s; `unlisted-unpriced` when it is not listed and has no price source (price sources exist only for listed tokens, so every unlisted token is screened). Screened tokens are listed apart in `screened`, never priced and never in totalUsd. `totalUsd` sums the priced entries of `tokens`; `unpricedCount` counts entries of `tokens` whose usd is null. `tokens` is ordered native ETH first, then by usd descending, unpriced last. `sources` reports each upstream: explorer down → the token list and ETH are still read from the chain (an explorer-only token is then missing); the explorer listing more than 250 tokens outside the token list (an airdrop-spam flood) → only its first 250 are read, and sources.explorer is not ok and says how many were listed; exchange down → spot-priced usd null; the chain down → 502 `upstream_unavailable`, nothing charged.',
  input: { params: walletParams },
  output: z.object({
    address,
    block: z
      .object({ number: z.number().int().nonnegative(), timestamp: unixSeconds })
      .describe('The block every balance was read at (one Multicall3 eth_call; never cached)'),
    totalUsd: z
      .number()
      .describe('Sum of usd over `tokens` with a price; screened and unpriced tokens are not counted'),
    unpricedCount: z.number().int().nonnegative().describe('How many entries of `tokens` have usd null'),
    tokens: z.array(
      z.object({
        token: address.describe('The ERC-20, or 0xEeee…EEeE for native ETH'),
        symbol: z
          .string()
          .nullable()
          .describe('symbol() onchain, else the explorer’s; null when neither names it'),
        decimals: z.number().int().describe('decimals() onchain, else the explorer’s'),
        balance: atomicAmount.describe('balanceOf (getEthBalance for ETH) at `block`, atomic units'),
        usd: usdOrNull,
        priceSource: z
          .string()
          .nullable()
          .describe('coinbase:<PRODUCT> (exchange spot) or par:USD; null exactly when usd is null'),
      }),
    ),
    screened: z
      .array(
        z.object({
          token: address,
          symbol: z.string().nullable(),
          name: z.string().nullable(),
          decimals: z.number().int(),
          balance: atomicAmount,
          reason: z
            .enum(['scam-pattern', 'impersonation', 'unlisted-unpriced'])
            .describe('Which clause of the spam rule matched (see the description)'),
        }),
      )
      .describe('Tokens held but screened as spam: never priced, never in totalUsd'),
    sources: z
      .object({
        explorer: sourceStatus,
        chain: sourceStatus,
        prices: sourceStatus,
      })
      .describe(
        'Each upstream’s outcome; a failed one names its error and its section degrades as described',
      ),
  }),
  example: {
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      block: { number: 38712004, timestamp: 1795420800 },
      totalUsd: 4012.44,
      unpricedCount: 1,
      tokens: [
        {
          token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
          symbol: 'ETH',
          decimals: 18,
          balance: '500000000000000000',
          usd: 1506.22,
          priceSource: 'coinbase:ETH-USD',
        },
        {
          token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          symbol: 'USDC',
          decimals: 6,
          balance: '2506220000',
          usd: 2506.22,
          priceSource: 'par:USD',
        },
        {
          token: '0xdE7e000000000000000000000000000000000030',
          symbol: 'adUSDC',
          decimals: 18,
          balance: '1000000000000000000000',
          usd: null,
          priceSource: null,
        },
      ],
      screened: [
        {
          token: '0x5A11000000000000000000000000000000000001',
          symbol: 'CLAIM',
          name: 'Visit base-drop.xyz to claim',
          decimals: 18,
          balance: '1000000000000000000000',
          reason: 'scam-pattern',
        },
      ],
      sources: { explorer: { ok: true }, chain: { ok: true }, prices: { ok: true } },
    },
  },
  handler: async ({ params }, ctx) =>
    getPortfolio(ctx.deps.chain, ctx.deps.market, ctx.deps.config, getAddress(params.address)),
})

const healthFields = {
  healthFactor: z
    .number()
    .nullable()
    .describe('maxBorrow ÷ debt (see description); null with no debt or no oracle price'),
  liquidatable: z.boolean().describe('Health factor ≤ 1'),
  price: z.number().nullable().describe('Oracle price, loan tokens per whole collateral token'),
  liquidationPrice: z.number().nullable().describe('Oracle price at health 1'),
  liquidationDistancePct: z
    .number()
    .nullable()
    .describe('% the collateral may fall before liquidation; ≤ 0 when liquidatable'),
}

export const positionsRoute = defineRoute({
  id: 'getPositions',
  method: 'GET',
  path: '/v1/positions/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Open borrow, vault, leveraged-trade and fixed-rate positions',
  description:
    'Every open position of `address`, read live from the chain, by source (run concurrently; each source’s outcome in `sources`, a failed one empties only its section; when lending, gTrade and Midnight all fail: 502, nothing charged). ' +
    '`borrows`: Morpho Blue borrows in the service’s catalog markets (/v1/loan/markets): collateral and debt (atomic), debt = the borrow shares converted with the market totals accrued to `asOf` (Morpho’s own third-order Taylor accrual at the IRM’s borrowRateView, rounded up), health factor and liquidation price from the market oracle. ' +
    '`aave`: Aave v3 account (Pool.getUserAccountData accrued to `asOf`, USD at Aave’s oracle) with the supplied and borrowed amounts per catalog reserve; null when the wallet has none. ' +
    '`vaults`: catalog vault deposits (MetaMorpho, ERC-4626, Aave aTokens): shares, assets (convertToAssets at `asOf`), the vault’s net APY as /v1/earn/vaults reports it, and earnings since deposit = assets − (Σ Deposit assets − Σ Withdraw assets) over the wallet’s ERC-4626 events (Aave: the Pool’s Supply on behalf of and Withdraw by the wallet); null with `earningsNote` when shares were transferred (the cost basis is unknown) or the RPC refuses the log range. ' +
    '`trades`: open gTrade v10 trades only (tradeType 0). Resting LIMIT/STOP orders are not positions: see /v1/pending-orders/{address}. Liquidation price = the diamond’s getTradeLiquidationPrice (protocols.md §1, no holding fees); PnL at the Pyth mark (the perp index of /v1/prices), before closing and holding fees. ' +
    '`fixed`: Morpho Midnight positions in the markets the Midnight API lists: credit and debt in units (loan-token atomic amounts due at maturity), collateral, and health from the collateral oracle and lltv (liquidation price only with one collateral). ' +
    'Full risk analysis (stress, time to liquidation, restore amounts): /v1/loan/analysis/{address}.',
  input: { params: walletParams },
  output: z.object({
    address,
    block: z
      .object({ number: z.number().int().nonnegative(), timestamp: unixSeconds })
      .nullable()
      .describe('The head block every section was read at; null when no chain source answered'),
    asOf: unixSeconds
      .nullable()
      .describe('The time debts and deposits are accrued to: the later of the block time and now'),
    borrows: z.array(
      z.object({
        protocol: z.literal('morpho-blue'),
        marketId,
        collateralToken: address,
        collateralSymbol: z.string(),
        collateral: atomicAmount,
        loanToken: address,
        loanSymbol: z.string(),
        debt: atomicAmount.describe(
          'Loan-token atomic units owed at asOf, interest included (what a full repay costs)',
        ),
        lltv: z.number().describe('Liquidation loan-to-value, a fraction'),
        borrowApy: z.number().describe('e^(borrowRateView × 31,536,000) − 1'),
        ...healthFields,
      }),
    ),
    aave: z
      .object({
        healthFactor: z.number().nullable().describe('Aave’s own healthFactor; null with no debt'),
        totalCollateralUsd: z.number(),
        totalDebtUsd: z.number(),
        liquidationThreshold: z.number().describe('Weighted liquidation threshold, a fraction'),
        ltv: z.number(),
        liquidatable: z.boolean(),
        supplied: z.array(z.object({ asset: address, symbol: z.string(), amount: atomicAmount })),
        borrowed: z.array(z.object({ asset: address, symbol: z.string(), amount: atomicAmount })),
      })
      .nullable(),
    vaults: z.array(
      z.object({
        vault: address.describe('The vault, or the aToken for Aave'),
        protocol: z.enum(['metamorpho', 'erc4626', 'aave-v3']),
        asset: address,
        symbol: z.string(),
        shares: atomicAmount,
        assets: atomicAmount,
        apy: z.number().nullable(),
        earnings: z
          .string()
          .regex(/^-?\d+$/)
          .nullable()
          .describe('Atomic asset units earned since deposit; null when unknown'),
        earningsNote: z.string().nullable(),
      }),
    ),
    trades: z.array(
      z.object({
        index: z.number().int(),
        pairIndex: z.number().int(),
        pair: z.string(),
        long: z.boolean(),
        leverage: z.number(),
        entry: z.number(),
        tp: z.number().nullable(),
        sl: z.number().nullable(),
        collateralUsdc: z.number(),
        sizeUsd: z.number(),
        liquidationPrice: z.number(),
        liquidationDistancePct: z.number().nullable(),
        markPrice: z.number().nullable(),
        pnlUsd: z.number().nullable(),
        pnlPct: z.number().nullable(),
        closingFeeUsd: z.number(),
      }),
    ),
    fixed: z.array(
      z.object({
        protocol: z.literal('morpho-midnight'),
        marketId,
        loanToken: address,
        loanSymbol: z.string(),
        maturity: unixSeconds,
        credit: atomicAmount.describe('Units lent: loan-token atomic amounts owed to the wallet at maturity'),
        debt: atomicAmount.describe('Units borrowed: owed by the wallet at maturity'),
        collaterals: z.array(z.object({ token: address, symbol: z.string(), amount: atomicAmount })),
        ...healthFields,
      }),
    ),
    sources: z.object({
      lending: sourceStatus,
      vaultApy: sourceStatus,
      vaultHistory: sourceStatus,
      gtrade: sourceStatus,
      gtradeMark: sourceStatus,
      midnight: sourceStatus,
    }),
  }),
  example: POSITIONS_EXAMPLE,
  handler: (input, ctx) =>
    getPositions(
      { chain: ctx.deps.chain, lending: ctx.deps.lending, market: ctx.deps.market },
      getAddress(input.params.address),
      ctx.deps.clock(),
    ),
})

/** The block a live gTrade read was taken at. */
const gtradeReadAt = z
  .object({ number: z.number().int().nonnegative(), timestamp: unixSeconds })
  .describe('The block every chain value was read at (live, not cached)')

export const pendingOrdersRoute = defineRoute({
  id: 'getPendingOrders',
  method: 'GET',
  path: '/v1/pending-orders/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Resting limit and stop orders not yet filled',
  description:
    'Resting LIMIT and STOP orders on the perp venue (gTrade v10 on Base, USDC collateral): the owner’s open trade slots of tradeType 1 (LIMIT) or 2 (STOP), read live from the diamond (getTrades, getTradeInfos) in one multicall at one block (`block`). They hold collateral but carry no market exposure (`exposure: "none"`) and are not positions (filled trades are in /v1/positions/{address}). `triggerPrice` is the stored openPrice that fills the order; `sizeUsd` = collateral × leverage once filled; tp/sl null when none is set; `createdAt` is the timestamp of `createdBlock`. Each order carries the body of POST /v1/tx/risk/cancel that cancels it (its whole collateral returns). An address with none answers 200 with an empty list; a chain fault is a 502 and nothing is charged.',
  input: { params: walletParams },
  output: z.object({
    address,
    block: gtradeReadAt,
    orders: z.array(
      z.object({
        index: z.number().int().describe('The trade slot index'),
        pairIndex: z.number().int(),
        pair: z.string().describe('"ETH/USD", from the diamond’s pairs(pairIndex)'),
        long: z.boolean(),
        orderType: z.enum(['limit', 'stop']),
        triggerPrice: z.number().describe('The price that fills the order (stored openPrice)'),
        leverage: z.number(),
        collateralUsdc: z.number().describe('USDC held for the order; all of it returns on cancel'),
        sizeUsd: z.number().describe('collateral × leverage once filled'),
        tp: z.number().nullable().describe('Take-profit; null when none is set'),
        sl: z.number().nullable().describe('Stop-loss; null when none is set'),
        createdBlock: z.number().int().nonnegative(),
        createdAt: unixSeconds.describe('Timestamp of createdBlock'),
        exposure: z.literal('none').describe('A resting order has no market exposure until it fills'),
        cancel: z
          .object({
            method: z.literal('POST'),
            path: z.literal('/v1/tx/risk/cancel'),
            body: z.object({ index: z.number().int(), owner: address }),
          })
          .describe('The request that builds the cancel transaction for this order'),
      }),
    ),
    sources: z.object({ chain: sourceStatus }),
  }),
  example: {
    params: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    output: {
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      block: { number: 41234567, timestamp: 1795410012 },
      orders: [
        {
          index: 2,
          pairIndex: 1,
          pair: 'ETH/USD',
          long: true,
          orderType: 'limit',
          triggerPrice: 825,
          leverage: 2,
          collateralUsdc: 250,
          sizeUsd: 500,
          tp: null,
          sl: null,
          createdBlock: 41230001,
          createdAt: 1795400000,
          exposure: 'none',
          cancel: {
            method: 'POST',
            path: '/v1/tx/risk/cancel',
            body: { index: 2, owner: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
          },
        },
      ],
      sources: { chain: { ok: true } },
    },
  },
  handler: async ({ params }, ctx) => ({
    address: getAddress(params.address),
    ...(await getPendingOrders(ctx.deps.chain, getAddress(params.address))),
    sources: { chain: { ok: true as const } },
  }),
})

const closeReason = z
  .enum(['take-profit', 'stop-loss', 'liquidation', 'manual'])
  .describe('From the close action: TradeClosedTP, TradeClosedSL, TradeClosedLIQ, TradeClosedMarket')
const historyCursor = z
  .string()
  .regex(/^[A-Za-z0-9._:=+/-]{1,256}$/, {
    error: 'must be the nextCursor of a previous page (1..256 URL-safe characters).',
  })
  .optional()
  .describe('Opaque: the nextCursor of the previous page; absent for the newest page')

export const historyRoute = defineRoute({
  id: 'getHistory',
  method: 'GET',
  path: '/v1/history/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Closed leveraged round-trips, newest first',
  description:
    'Closed gTrade round trips on Base, newest first, from the gTrade history backend (personal-trading-history, read live). Each close event (TradeClosedMarket/TP/SL/LIQ) is paired with the open event (TradeOpenedMarket/Limit/Stop) of the same pair and trade index: pair (base and quote), side, leverage, collateral at open (USDC), open and close (execution) price, realized net PnL (`pnlUsd`, the backend’s pnl_net: after fees) and `pnlPct` = pnlUsd / collateral × 100, close reason, open and close transaction hashes, timestamps. Leverage and size updates are not round trips. Pagination: `limit` (1..100, default 50) counts backend events (opens, closes, updates), so a page may hold fewer round trips than `limit` — even none while `nextCursor` is not null; pass `nextCursor` as `cursor` for the next, older page (null at the end). A round trip is listed on the page of its close; if its open is on an older page, up to 5 more pages of 100 events are read to find it, and if still not found openPrice, openTx and openedAt are null. `sl` is the stop at open; the history records carry none, so it is null. An address with no history answers 200 with an empty list; a backend fault is a 502 and nothing is charged.',
  input: {
    params: walletParams,
    query: z.object({
      cursor: historyCursor,
      limit: queryInt(1, 100).default(50).describe('Backend events per page, 1..100, default 50'),
    }),
  },
  output: z.object({
    address,
    trades: z.array(
      z.object({
        pair: z.object({ base: z.string(), quote: z.string() }),
        side: z.enum(['long', 'short']),
        leverage: z.number(),
        collateralUsdc: z.number().describe('Collateral at open, USDC'),
        openPrice: z.number().nullable().describe('null when the open event was not found (see description)'),
        closePrice: z.number(),
        pnlUsd: z
          .number()
          .nullable()
          .describe('Realized net PnL (pnl_net, after fees); null if the backend sent none'),
        pnlPct: z.number().nullable().describe('pnlUsd / collateralUsdc × 100; null with pnlUsd'),
        closeReason,
        tradeIndex: z.number().int(),
        openTx: z.string().nullable().describe('null when the open event was not found'),
        closeTx: z.string(),
        openedAt: unixSeconds.nullable(),
        closedAt: unixSeconds,
        sl: z.number().nullable().describe('Stop at open; null: the history records do not carry it'),
      }),
    ),
    nextCursor: z.string().nullable().describe('cursor of the next (older) page; null at the end'),
    sources: z.object({ history: sourceStatus }),
  }),
  example: {
    params: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    output: {
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      trades: [
        {
          pair: { base: 'BTC', quote: 'USD' },
          side: 'long',
          leverage: 2,
          collateralUsdc: 249.7,
          openPrice: 95030.2,
          closePrice: 94969.8,
          pnlUsd: -0.62,
          pnlPct: -0.2483,
          closeReason: 'manual',
          tradeIndex: 0,
          openTx: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
          closeTx: '0x9f2d1a3b6c7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f506172',
          openedAt: 1795300000,
          closedAt: 1795300004,
          sl: null,
        },
      ],
      nextCursor: null,
      sources: { history: { ok: true } },
    },
  },
  handler: async ({ params, query }, ctx) => ({
    address: getAddress(params.address),
    ...(await getHistory(ctx.deps.chain, ctx.deps.market, getAddress(params.address), query)),
  }),
})

export const statsRoute = defineRoute({
  id: 'getStats',
  method: 'GET',
  path: '/v1/stats/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Trading statistics over closed trades',
  description:
    'Statistics over every closed gTrade round trip of /v1/history/{address} (all pages, at most 5,000 backend events; `truncated` true when there were more and the stats cover the newest). A win has pnl > 0, a loss pnl < 0, a breakeven trade (pnl 0) is neither but counts in `trades`. winRate = wins / trades; netUsd = Σ pnl; grossProfit = Σ winning pnl; grossLoss = |Σ losing pnl| (positive); profitFactor = grossProfit / grossLoss, null when there are no losses (never Infinity); expectancyR = mean of pnl / R, where R is the loss at the stop when a stop was set at open (collateral × leverage × |open − sl| / open) and otherwise the collateral (the most an isolated trade can lose; the history carries no stops, so today R = collateral); avgWin = grossProfit / wins, avgLoss = grossLoss / losses (positive); bestTrade and worstTrade are the highest and lowest pnl. With no trades the counts and sums are 0 and every ratio, average and extreme is null. Round trips without a pnl from the backend are left out. A backend fault is a 502 and nothing is charged.',
  input: { params: walletParams },
  output: z.object({
    address,
    trades: z.number().int(),
    wins: z.number().int(),
    losses: z.number().int(),
    winRate: z.number().nullable().describe('wins / trades; null with no trades'),
    netUsd: z.number(),
    grossProfit: z.number(),
    grossLoss: z.number().describe('Positive'),
    profitFactor: z.number().nullable().describe('null with no losses (never Infinity)'),
    expectancyR: z.number().nullable().describe('Mean R multiple; null with no trades'),
    avgWin: z.number().nullable().describe('null with no wins'),
    avgLoss: z.number().nullable().describe('Positive; null with no losses'),
    bestTrade: z.number().nullable().describe('null with no trades'),
    worstTrade: z.number().nullable().describe('null with no trades'),
    truncated: z.boolean().describe('More history than 5,000 events: the stats cover the newest'),
    sources: z.object({ history: sourceStatus }),
  }),
  example: {
    params: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    output: {
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      trades: 12,
      wins: 7,
      losses: 5,
      winRate: 0.5833,
      netUsd: 84.2,
      grossProfit: 231.5,
      grossLoss: 147.3,
      profitFactor: 1.57,
      expectancyR: 0.21,
      avgWin: 33.07,
      avgLoss: 29.46,
      bestTrade: 61.2,
      worstTrade: -48.9,
      truncated: false,
      sources: { history: { ok: true } },
    },
  },
  handler: async ({ params }, ctx) => ({
    address: getAddress(params.address),
    ...(await getStats(ctx.deps.chain, ctx.deps.market, getAddress(params.address))),
  }),
})

const tokenRef = z.object({ address, symbol: z.string(), decimals: z.number().int() })
const yearlyFraction = (what: string) => z.number().describe(`${what}, a yearly fraction (0.05 = 5%)`)

export const vaultsRoute = defineRoute({
  id: 'getVaults',
  method: 'GET',
  path: '/v1/earn/vaults',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Vault catalog: ERC-4626 and pool-lender vaults',
  description:
    'The ERC-4626 vaults (MetaMorpho and plain) and Aave v3 reserves of the service’s address book, read live from Base at `block` (one multicall snapshot, cached 15 s; names, queues and market params cached 10 min). `address` is the vault, or the aToken for Aave (deposit with /v1/tx/earn/deposit or /v1/tx/earn/aave/supply). `netApy` is yearly, after the vault’s own fee, never a constant, and depends on `apySource`: morpho-allocation (MetaMorpho) = Σ over its Morpho Blue markets of supply assets × supply APY ÷ Σ supply assets, × (1 − fee), where a market’s supply APY = borrow APY × utilization × (1 − market fee) and borrow APY = e^(IRM borrowRateView × 31,536,000) − 1 (`allocation` lists each market); null when the vault holds nothing or one of its markets cannot be read. share-price-growth (plain ERC-4626, no rate source) = (p1 ÷ p0)^(31,536,000 ÷ Δt) − 1 over the share price 302,400 blocks (7 days) ago and now; null when the chain keeps no state that old (a young chain, a non-archive node), the vault is younger, or Δt is under a day. aave-liquidity-rate = the reserve’s currentLiquidityRate (ray APR, already net of the reserve factor) compounded per second: (1 + APR ÷ 31,536,000)^31,536,000 − 1. Incentive rewards are not included. `tvl` = totalAssets() (the aToken’s totalSupply() for Aave) in the asset’s atomic units; `tvlUsd` at Aave’s oracle price (Chainlink feeds), null when that oracle does not price the asset. An entry the chain cannot answer for is left out, never filled with zeros.',
  input: {},
  output: z.object({
    block: readAt,
    vaults: z.array(
      z.object({
        address: address.describe('The ERC-4626 vault, or the aToken of an Aave reserve'),
        kind: z.enum(['erc4626', 'pool-lender']),
        protocol: z.enum(['metamorpho', 'erc4626', 'aave-v3']),
        name: z.string(),
        asset: tokenRef.describe('The underlying asset deposited'),
        netApy: yearlyFraction('Net APY after the vault’s fee')
          .nullable()
          .describe('Net APY after the vault’s fee, a yearly fraction; null when it cannot be derived'),
        apySource: z
          .enum(['morpho-allocation', 'share-price-growth', 'aave-liquidity-rate'])
          .describe('How netApy is derived (see the description)'),
        fee: z
          .number()
          .nullable()
          .describe('Vault fee as a share of interest (MetaMorpho); null when none onchain'),
        tvl: atomicAmount.describe('Assets held, atomic units of the asset'),
        tvlUsd: usdOrNull,
        allocation: z
          .array(
            z.object({
              marketId,
              assets: atomicAmount.describe('Supply assets in this market, atomic'),
              supplyApy: yearlyFraction('The market’s supply APY'),
            }),
          )
          .describe('MetaMorpho: each Morpho Blue market it holds assets in; empty otherwise'),
      }),
    ),
  }),
  example: {
    output: {
      block: { number: 38712004, timestamp: 1795420800 },
      vaults: [
        {
          address: '0xc1256Ae5FF1cf2719D4937adb3bbCCab2E00A2Ca',
          kind: 'erc4626',
          protocol: 'metamorpho',
          name: 'Moonwell Flagship USDC',
          asset: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 },
          netApy: 0.0561,
          apySource: 'morpho-allocation',
          fee: 0.15,
          tvl: '41250000000000',
          tvlUsd: 41246287.5,
          allocation: [
            {
              marketId: '0x9103c3b4e834476c9a62ea009ba2c884ee42e94e6e314a26f04d312434191836',
              assets: '24750000000000',
              supplyApy: 0.0671,
            },
            {
              marketId: '0x8793cf302b8ffd655ab97bd1c695dbd967807e8367a65cb2f4edaf1380ba1bda',
              assets: '16500000000000',
              supplyApy: 0.0634,
            },
          ],
        },
        {
          address: '0x4e65fE4DbA92790696d040ac24Aa414708F5c0AB',
          kind: 'pool-lender',
          protocol: 'aave-v3',
          name: 'Aave Base USDC',
          asset: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 },
          netApy: 0.0412,
          apySource: 'aave-liquidity-rate',
          fee: null,
          tvl: '312400000000000',
          tvlUsd: 312371884,
          allocation: [],
        },
      ],
    },
  },
  handler: async (_input, ctx) => getVaults(ctx.deps.lending),
})

export const loanMarketsRoute = defineRoute({
  id: 'getLoanMarkets',
  method: 'GET',
  path: '/v1/loan/markets',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Floating-rate isolated lending markets',
  description:
    'The Morpho Blue markets of the service’s address book, read live from Base at `block` (market states in one multicall, the IRM rates for those states in a second at the same block; cached 15 s, params 10 min). Each `marketId` is re-derived as keccak256(abi.encode(params)) from the chain’s idToMarketParams and asserted: a market that does not match is logged and left out, never served. `borrowApy` = e^(borrowRateView(params, market) × 31,536,000) − 1: the IRM’s per-second rate (WAD) continuously compounded, as Morpho accrues it. `supplyApy` = borrowApy × utilization × (1 − fee); `utilization` = totalBorrowAssets ÷ totalSupplyAssets; `lltv` and `fee` as fractions (params.lltv is the 1e18-scaled original). Amounts are atomic units of the loan token as of the market’s last accrual; `liquidity` = totalSupplyAssets − totalBorrowAssets, what can be borrowed or withdrawn now. `collateralAsset` is null for a market without collateral.',
  input: {},
  output: z.object({
    block: readAt,
    markets: z.array(
      z.object({
        marketId,
        params: z.object({
          loanToken: address,
          collateralToken: address,
          oracle: address,
          irm: address,
          lltv: atomicAmount.describe('1e18-scaled'),
        }),
        loanAsset: tokenRef,
        collateralAsset: tokenRef.nullable(),
        borrowApy: yearlyFraction('Borrow APY'),
        supplyApy: yearlyFraction('Supply APY'),
        utilization: z.number().describe('totalBorrowAssets ÷ totalSupplyAssets'),
        fee: z.number().describe('Protocol fee, share of interest'),
        lltv: z.number().describe('Liquidation LTV as a fraction'),
        totalSupplyAssets: atomicAmount,
        totalBorrowAssets: atomicAmount,
        liquidity: atomicAmount.describe('totalSupplyAssets − totalBorrowAssets, atomic loan token'),
      }),
    ),
  }),
  example: {
    output: {
      block: { number: 38712004, timestamp: 1795420800 },
      markets: [
        {
          marketId: '0x8793cf302b8ffd655ab97bd1c695dbd967807e8367a65cb2f4edaf1380ba1bda',
          params: {
            loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
            collateralToken: '0x4200000000000000000000000000000000000006',
            oracle: '0xFEa2D58cEfCb9fcb597723c6bAE66fFE4193aFE4',
            irm: '0x46415998764C29aB2a25CbeA6254146D50D22687',
            lltv: '860000000000000000',
          },
          loanAsset: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 },
          collateralAsset: {
            address: '0x4200000000000000000000000000000000000006',
            symbol: 'WETH',
            decimals: 18,
          },
          borrowApy: 0.0712,
          supplyApy: 0.0634,
          utilization: 0.8904,
          fee: 0,
          lltv: 0.86,
          totalSupplyAssets: '114000000000000',
          totalBorrowAssets: '101500000000000',
          liquidity: '12500000000000',
        },
      ],
    },
  },
  handler: async (_input, ctx) => getLoanMarkets(ctx.deps.lending),
})

/** The best level of one side of a fixed-rate book. */
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

export const fixedBooksRoute = defineRoute({
  id: 'getFixedBooks',
  method: 'GET',
  path: '/v1/loan/fixed',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Fixed-rate loan books',
  description:
    'Morpho Midnight fixed-rate, fixed-term books on Base: per market, marketId, loan token, collaterals (token, LLTV as a fraction, oracle), maturity (unix seconds), the implied APRs and the depth at the best level. Source: the Morpho API (/v0/midnight/books, every page), cached 10 s; every market is re-derived from its parameters (MarketUtils.toId) and read back from Midnight onchain (toMarket), and a book that does not match is left out. One unit repays 1 loan token at maturity; `price` is what a unit costs now. borrowApr is the rate a borrower locks by selling units into the best (highest) bid, bids being lender-makers; lendApr is the rate a lender locks by buying units from the best (lowest) ask, asks being borrower-makers. APR = (1/price − 1) × 31,536,000 / (maturity − asOf), a simple annual fraction (0.05 = 5 %), at the book price before Midnight’s settlement fee. borrowDepth/lendDepth give the best level: tick, price, units (atomic loan token repaid at maturity), assets (atomic loan token the maker side pays or receives now) and the number of offers. An empty side has a null APR and a null depth (never 0). Matured markets are left out. loanTokenDecimals is null when the token does not answer decimals().',
  input: {},
  output: z.object({
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
  }),
  example: {
    output: {
      asOf: 1795420800,
      books: [
        {
          marketId: '0x1ee49f8168cda1129ff8b501decd41128abaff90c55a18ca3fbc3fc8d47d2d34',
          loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          loanTokenDecimals: 6,
          collaterals: [
            {
              token: '0x4200000000000000000000000000000000000006',
              lltv: 0.86,
              oracle: '0xFEa2D58cEfCb9fcb597723c6bAE66fFE4193aFE4',
            },
            {
              token: '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf',
              lltv: 0.86,
              oracle: '0x663BECd10daE6C4A3Dcd89F1d76c1174199639B9',
            },
          ],
          maturity: 1797984000,
          borrowApr: 0.0701429748,
          lendApr: 0.0499680201,
          borrowDepth: {
            tick: 4408,
            price: 0.9943312,
            units: '50000000000',
            assets: '49716560000',
            offers: 1,
          },
          lendDepth: { tick: 4476, price: 0.9959551, units: '50000000000', assets: '49797755000', offers: 1 },
        },
      ],
    },
  },
  handler: async (_input, ctx) =>
    getFixedBooks(ctx.deps.chain, ctx.deps.market, ctx.deps.clock(), ctx.logger),
})

export const riskPairsRoute = defineRoute({
  id: 'getRiskPairs',
  method: 'GET',
  path: '/v1/risk/pairs',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Leverage pair universe',
  description:
    'Every tradable perp pair, from the venue’s backend (trading variables): pairIndex (onchain: the position in the backend’s pairs array, never renumbered, so indices can skip), symbol (FROM/TO), group, min and max leverage (the pair’s own cap when it has one, else its group’s) and spread in percent (a market fill pays half of it). Pairs the venue has disabled (cap below the group minimum) and empty slots are left out.',
  input: {},
  output: z.object({
    pairs: z.array(
      z.object({
        pairIndex: z.number().int(),
        symbol: z.string(),
        group: z.string(),
        minLeverage: z.number(),
        maxLeverage: z.number(),
        spreadPct: z.number(),
      }),
    ),
  }),
  example: {
    output: {
      pairs: [
        {
          pairIndex: 0,
          symbol: 'BTC/USD',
          group: 'crypto',
          minLeverage: 1.1,
          maxLeverage: 250,
          spreadPct: 0.04,
        },
        {
          pairIndex: 1,
          symbol: 'ETH/USD',
          group: 'crypto',
          minLeverage: 1.1,
          maxLeverage: 250,
          spreadPct: 0.04,
        },
      ],
    },
  },
  handler: async (_input, ctx) => ({ pairs: await getRiskPairs(ctx.deps.market) }),
})

export const stocksRoute = defineRoute({
  id: 'getStocks',
  method: 'GET',
  path: '/v1/stocks',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Tokenized stock catalog',
  description:
    'Thirteen registered tickers, each ending in a lowercase c: token address, oracle feed, live USD price (the feed’s answer: one token = underlying x multiplier), feed age in seconds (from the feed’s own updatedAt), share multiplier, minted, the deepest Uniswap v3 USDC pool, and tradable, read live from the chain in one multicall. Tokens have 8 decimals and track one share times multiplier(). tradable = minted, registered with the onchain oracle registry, not paused, a USDC pool with liquidity, and a feed answer within its 24 h heartbeat; otherwise `notTradableReason` says which check failed first: not_minted, not_registered, paused, no_pool, feed_unavailable, feed_stale. Only minted tickers have a pool: branch on minted and tradable.',
  input: {},
  output: z.object({
    stocks: z.array(
      z.object({
        ticker: z.string(),
        token: address,
        feed: address,
        usd: z
          .number()
          .nullable()
          .describe('Feed price of one token, USD; null when the feed has no usable answer'),
        feedAgeSec: z.number().int().nullable(),
        multiplier: z.number().nullable().describe('Shares per token (multiplier() / 1e18)'),
        minted: z.boolean(),
        pool: address.nullable().describe('Deepest Uniswap v3 stock/USDC pool; null when none has liquidity'),
        tradable: z.boolean(),
        notTradableReason: z
          .enum(NOT_TRADABLE_REASONS)
          .nullable()
          .describe('First failing check when not tradable; null when tradable'),
      }),
    ),
  }),
  example: {
    output: {
      stocks: [
        {
          ticker: 'AAPLc',
          token: '0xb200000000000000000000C2e324d24d7eEcd1fb',
          feed: '0x787f13dEa48Db0897CbCDD985de77809D837F988',
          usd: 231.42,
          feedAgeSec: 42,
          multiplier: 1.0042,
          minted: true,
          pool: '0x97F35d1E92795327614BE000cd18cba1Be2c1931',
          tradable: true,
          notTradableReason: null,
        },
        {
          ticker: 'SPCXc',
          token: '0xb2000000000000000000007b9fcbd005511aCBd5',
          feed: '0x6A634B235903C4ad6376892180d6fF8612e3Fa68',
          usd: 201.37,
          feedAgeSec: 42,
          multiplier: 1,
          minted: false,
          pool: null,
          tradable: false,
          notTradableReason: 'not_minted',
        },
      ],
    },
  },
  handler: async (_input, ctx) => ({ stocks: await getStocks(ctx.deps.chain, ctx.deps.clock()) }),
})

export const stockPriceRoute = defineRoute({
  id: 'getStockPrice',
  method: 'GET',
  path: '/v1/stocks/price',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Stock fill quote without calldata',
  description:
    'Fill, price per share, premium against the feed and the chosen pool for buying (amount = USDC to spend, at most 6 decimals) or selling (amount = tokens, at most 8 decimals) a tokenized stock; no calldata (POST /v1/tx/stocks builds the trade). Quoted with Uniswap v3 QuoterV2 in every fee tier’s stock/USDC pool in one multicall; the pool paying out most is chosen, and amountOut is exactly what it pays for amountIn at this block. pricePerShare is USDC per token; vsFeedPct compares it with the feed (positive on a buy = premium, negative on a sell = discount); a stale feed still quotes, with its age. Errors, none charged: 404 `unknown_stock`; 409 `stock_not_minted` for a registered ticker without supply (no pool), `stock_paused`, `stock_not_registered`, `stock_no_pool` (no pool fills the amount).',
  input: { query: z.object({ sym: symbol, side, amount: humanAmount }) },
  output: z.object({
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
  }),
  example: {
    query: { sym: 'AAPLc', side: 'buy', amount: '1000' },
    output: {
      sym: 'AAPLc',
      side: 'buy',
      amountIn: '1000000000',
      amountOut: '430710000',
      pricePerShare: 232.17,
      feedUsd: 231.42,
      feedAgeSec: 42,
      vsFeedPct: 0.32,
      multiplier: 1.0042,
      pool: {
        address: '0x97F35d1E92795327614BE000cd18cba1Be2c1931',
        fee: 3000,
        usdc: 250000,
        shares: 1075.6,
      },
    },
  },
  handler: async ({ query }, ctx) => getStockPrice(ctx.deps.chain, query, ctx.deps.clock()),
})

export const assetIdeaRoute = defineRoute({
  id: 'getAssetIdea',
  method: 'GET',
  path: '/v1/ideas/asset/{sym}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'One market’s leverage edge, with alternatives or a hedge',
  description:
    'A single-asset read of `sym`: its idea with target, liquidation and edge (status ok), or why there is none (neutral with its reason, or insufficient_history with `needed` and `got`), read together with the default universe of GET /v1/ideas. ' +
    '`alternatives`: same-direction ideas of the universe whose edge × leverage beats the asset’s, best first, at most 3 (without an idea for the asset: the universe’s best 3 by edge × leverage); `hedge`: the best opposite-direction idea (conviction order) of the asset’s own category, else of any category; null when none or when the asset has no idea. Only ideas with edge > 0 are offered. ' +
    IDEA_RULES +
    ' A ticker without a listed pair is 404 `unknown_instrument` naming `sym`, not charged.',
  input: { params: z.object({ sym: symbol }), query: z.object({ basis: ideaBasis }) },
  output: assetRead.extend({
    basis: ideaBasis,
    alternatives: z.array(idea),
    hedge: idea.nullable(),
    disclaimer: z.string().describe('Indicative, not advice'),
  }),
  example: {
    params: { sym: 'ETH' },
    output: {
      symbol: 'ETH',
      status: 'ok',
      reason: null,
      needed: null,
      got: null,
      idea: {
        symbol: 'ETH',
        pairIndex: 1,
        category: 'crypto',
        direction: 'long',
        entry: 3012.7,
        stop: 2921.3,
        target: 3195.5,
        liquidation: 2741.6,
        edge: 0.012,
        leverage: 9,
        maxLeverage: 250,
        conviction: 0.31,
        open: {
          pairIndex: 1,
          long: true,
          leverage: 9,
          markPrice: 3012.7,
          tradeType: 0,
          tp: 3195.5,
          sl: 2921.3,
        },
      },
      basis: '1d-1y',
      alternatives: [],
      hedge: null,
      disclaimer: 'Indicative, not advice',
    },
  },
  handler: async ({ params, query }, ctx) =>
    getAssetIdea(ctx.deps.market, params.sym, query.basis, ctx.deps.clock()),
})

export const dataRoutes = [
  pricesRoute,
  crowdRoute,
  signalsRoute,
  candlesRoute,
  swapPriceRoute,
  portfolioRoute,
  positionsRoute,
  pendingOrdersRoute,
  historyRoute,
  statsRoute,
  vaultsRoute,
  loanMarketsRoute,
  fixedBooksRoute,
  riskPairsRoute,
  stocksRoute,
  stockPriceRoute,
  assetIdeaRoute,
]
