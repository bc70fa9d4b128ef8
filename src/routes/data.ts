import { z } from 'zod'
import { getCandles } from '../market/getCandles.js'
import { getPrices } from '../market/getPrices.js'
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
  symbol,
  symbolList,
  tokenOrNative,
  unixSeconds,
} from './fields.js'
import { idea } from './ideaSchema.js'
import { defineRoute, notImplemented } from './route.js'

/** Section A: data reads, $0.001 each. */
const PRICE = 0.001
const MARKET_LAYER = 'market data reads (upstream adapters)'
const WALLET_LAYER = 'wallet reads (chain and explorer adapters)'

const walletParams = z.object({ address })
const usdOrNull = z
  .number()
  .nullable()
  .describe('USD value; null when no reliable price exists (never a fake 0)')

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
    'Per pair: long vs short split in percent and USD, the total book, and bookSharePct (the pair’s share of the whole open book). Without `symbols`, every listed pair.',
  input: { query: z.object({ symbols: symbolList(60).optional() }) },
  output: z.object({
    totalBookUsd: z.number(),
    pairs: z.array(
      z.object({
        symbol,
        pairIndex: z.number().int(),
        longPct: z.number(),
        shortPct: z.number(),
        longUsd: z.number(),
        shortUsd: z.number(),
        totalUsd: z.number(),
        bookSharePct: z.number(),
      }),
    ),
  }),
  example: {
    query: { symbols: 'BTC,ETH' },
    output: {
      totalBookUsd: 48210000,
      pairs: [
        {
          symbol: 'BTC',
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
          pairIndex: 1,
          longPct: 47.5,
          shortPct: 52.5,
          longUsd: 4275000,
          shortUsd: 4725000,
          totalUsd: 9000000,
          bookSharePct: 18.67,
        },
      ],
    },
  },
  handler: notImplemented(MARKET_LAYER),
})

const signal = z.object({
  symbol,
  rsi14: z.number(),
  macdHistogram: z.number(),
  bollingerPctB: z.number(),
  vwapPosition: z.number().describe('Close relative to VWAP, percent'),
  sma20Trend: z.enum(['up', 'down', 'flat']),
  headAndShoulders: z.object({ pattern: z.enum(['none', 'top', 'inverse']), confidence: z.number() }),
  fibConfidence: z.number(),
  sentiment: z.number().min(0).max(1).describe('Blended directional sentiment, 0 = bearish, 1 = bullish'),
  bias: z.enum(['long', 'short', 'neutral']),
  conviction: z.number(),
  parts: z.record(z.string(), z.number()).describe('Every per-indicator contribution to the blend'),
})

export const signalsRoute = defineRoute({
  id: 'getSignals',
  method: 'GET',
  path: '/v1/signals',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Technical signals for up to 10 symbols',
  description:
    'RSI(14), MACD(12/26/9) histogram, Bollinger %B(20/2), VWAP position, SMA(20) trend, head-and-shoulders read, Fibonacci-structure confidence, blended sentiment (0..1), bias, conviction and every per-indicator part. Indicative, not advice.',
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
  output: z.object({ signals: z.array(signal) }),
  example: {
    query: { symbols: 'BTC' },
    output: {
      signals: [
        {
          symbol: 'BTC',
          rsi14: 58.3,
          macdHistogram: 42.1,
          bollingerPctB: 0.71,
          vwapPosition: 0.84,
          sma20Trend: 'up',
          headAndShoulders: { pattern: 'none', confidence: 0 },
          fibConfidence: 0.42,
          sentiment: 0.63,
          bias: 'long',
          conviction: 0.26,
          parts: {
            rsi: 0.58,
            macd: 0.7,
            bollinger: 0.71,
            vwap: 0.6,
            sma: 1,
            headAndShoulders: 0.5,
            fib: 0.55,
          },
        },
      ],
    },
  },
  handler: notImplemented('signals analytics'),
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
    'Expected output, minimum output after slippage, fee estimates and route for swapping `fromAmount` of `fromToken` into `toToken`. Reserves no liquidity; build the transaction with POST /v1/tx/swap.',
  input: {
    query: z.object({
      fromToken: tokenOrNative,
      toToken: tokenOrNative,
      fromAmount: positiveAtomicAmount,
      taker: address,
      slippageBps: slippageBpsQuery(10_000),
    }),
  },
  output: z.object({
    fromToken: address,
    toToken: address,
    fromAmount: atomicAmount,
    expectedOut: atomicAmount,
    minOut: atomicAmount,
    slippageBps: z.number().int(),
    fees: z.object({ gasEstimate: z.string(), gasUsd: z.number().nullable(), protocolFeeBps: z.number() }),
    route: z.array(z.object({ source: z.string(), proportionBps: z.number().int() })),
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
      expectedOut: '331950000000000000',
      minOut: '328630500000000000',
      slippageBps: 100,
      fees: { gasEstimate: '182000', gasUsd: 0.02, protocolFeeBps: 0 },
      route: [{ source: 'Uniswap_V3', proportionBps: 10000 }],
    },
  },
  handler: notImplemented('swap quotes (aggregator adapter)'),
})

export const portfolioRoute = defineRoute({
  id: 'getPortfolio',
  method: 'GET',
  path: '/v1/portfolio/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Wallet balances (native + every ERC-20), spam-screened',
  description:
    'Every ERC-20 plus the native balance of `address`, spam-screened. `usd` is null when no reliable price exists: treat it as unknown, never as 0.',
  input: { params: walletParams },
  output: z.object({
    address,
    totalUsd: z.number().describe('Sum of the balances that have a price'),
    tokens: z.array(
      z.object({
        token: address,
        symbol: z.string(),
        decimals: z.number().int(),
        balance: atomicAmount,
        usd: usdOrNull,
      }),
    ),
  }),
  example: {
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      totalUsd: 4012.44,
      tokens: [
        {
          token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
          symbol: 'ETH',
          decimals: 18,
          balance: '500000000000000000',
          usd: 1506.22,
        },
        {
          token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          symbol: 'USDC',
          decimals: 6,
          balance: '2506220000',
          usd: 2506.22,
        },
      ],
    },
  },
  handler: notImplemented(WALLET_LAYER),
})

export const positionsRoute = defineRoute({
  id: 'getPositions',
  method: 'GET',
  path: '/v1/positions/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Open borrow, vault and leveraged-trade positions',
  description:
    'Borrow positions (collateral, debt, health factor, liquidation distance), vault deposits (APY, earnings) and open leveraged trades (pair, direction, leverage, entry, TP/SL, size, liquidation price, PnL). Resting orders are not positions: see /v1/pending-orders/{address}.',
  input: { params: walletParams },
  output: z.object({
    address,
    borrows: z.array(
      z.object({
        protocol: z.string(),
        marketId,
        collateralToken: address,
        collateral: atomicAmount,
        loanToken: address,
        debt: atomicAmount,
        healthFactor: z.number().nullable(),
        liquidationDistancePct: z.number().nullable(),
      }),
    ),
    vaults: z.array(
      z.object({
        vault: address,
        asset: address,
        shares: atomicAmount,
        assets: atomicAmount,
        apy: z.number(),
        earnings: atomicAmount.nullable(),
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
        pnlUsd: z.number(),
        pnlPct: z.number(),
      }),
    ),
  }),
  example: {
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      borrows: [
        {
          protocol: 'morpho-blue',
          marketId: '0x8793cf302b8ffd655ab97bd1c695dbd967807e8367a65cb2f4edaf1380ba1bda',
          collateralToken: '0x4200000000000000000000000000000000000006',
          collateral: '1000000000000000000',
          loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          debt: '1500000000',
          healthFactor: 1.72,
          liquidationDistancePct: 41.9,
        },
      ],
      vaults: [
        {
          vault: '0xc1256Ae5FF1cf2719D4937adb3bbCCab2E00A2Ca',
          asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          shares: '981234567890123456789',
          assets: '1002310000',
          apy: 0.061,
          earnings: '2310000',
        },
      ],
      trades: [
        {
          index: 0,
          pairIndex: 0,
          pair: 'BTC/USD',
          long: true,
          leverage: 10,
          entry: 94100,
          tp: 99000,
          sl: 92000,
          collateralUsdc: 100,
          sizeUsd: 1000,
          liquidationPrice: 85150.2,
          pnlUsd: 11.8,
          pnlPct: 11.8,
        },
      ],
    },
  },
  handler: notImplemented(WALLET_LAYER),
})

export const pendingOrdersRoute = defineRoute({
  id: 'getPendingOrders',
  method: 'GET',
  path: '/v1/pending-orders/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Resting limit and stop orders not yet filled',
  description:
    'Resting LIMIT and STOP orders on the perp venue. They hold collateral but carry no market exposure and are not positions. Cancel one with POST /v1/tx/risk/cancel.',
  input: { params: walletParams },
  output: z.object({
    address,
    orders: z.array(
      z.object({
        index: z.number().int(),
        pairIndex: z.number().int(),
        pair: z.string(),
        long: z.boolean(),
        orderType: z.enum(['limit', 'stop']),
        triggerPrice: z.number(),
        leverage: z.number(),
        collateralUsdc: z.number(),
        tp: z.number().nullable(),
        sl: z.number().nullable(),
        createdAt: unixSeconds,
      }),
    ),
  }),
  example: {
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      orders: [
        {
          index: 1,
          pairIndex: 1,
          pair: 'ETH/USD',
          long: true,
          orderType: 'limit',
          triggerPrice: 2900,
          leverage: 5,
          collateralUsdc: 200,
          tp: 3200,
          sl: 2800,
          createdAt: 1795410000,
        },
      ],
    },
  },
  handler: notImplemented(WALLET_LAYER),
})

const closeReason = z.enum(['take-profit', 'stop-loss', 'liquidation', 'manual'])

export const historyRoute = defineRoute({
  id: 'getHistory',
  method: 'GET',
  path: '/v1/history/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Closed leveraged round-trips, newest first',
  description:
    'USDC-collateralized closed trades: pair (base and quote), side, leverage, collateral, open and close price, realized PnL and PnL%, close reason, open and close transaction hashes, timestamps. Newest first.',
  input: { params: walletParams },
  output: z.object({
    address,
    trades: z.array(
      z.object({
        pair: z.object({ base: z.string(), quote: z.string() }),
        side: z.enum(['long', 'short']),
        leverage: z.number(),
        collateralUsdc: z.number(),
        openPrice: z.number(),
        closePrice: z.number(),
        pnlUsd: z.number(),
        pnlPct: z.number(),
        closeReason,
        openTx: z.string().nullable(),
        closeTx: z.string().nullable(),
        openedAt: unixSeconds,
        closedAt: unixSeconds,
      }),
    ),
  }),
  example: {
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      trades: [
        {
          pair: { base: 'BTC', quote: 'USD' },
          side: 'long',
          leverage: 10,
          collateralUsdc: 100,
          openPrice: 93000,
          closePrice: 95000,
          pnlUsd: 21.1,
          pnlPct: 21.1,
          closeReason: 'take-profit',
          openTx: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
          closeTx: '0x9f2d1a3b6c7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f506172',
          openedAt: 1795300000,
          closedAt: 1795380000,
        },
      ],
    },
  },
  handler: notImplemented(WALLET_LAYER),
})

export const statsRoute = defineRoute({
  id: 'getStats',
  method: 'GET',
  path: '/v1/stats/{address}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Trading statistics over closed trades',
  description:
    'Trades, wins, losses, win rate, net USD, gross profit and loss, profit factor (null with no losses), mean R-multiple expectancy, average win and loss, best and worst trade.',
  input: { params: walletParams },
  output: z.object({
    address,
    trades: z.number().int(),
    wins: z.number().int(),
    losses: z.number().int(),
    winRate: z.number(),
    netUsd: z.number(),
    grossProfit: z.number(),
    grossLoss: z.number(),
    profitFactor: z.number().nullable(),
    expectancyR: z.number().nullable(),
    avgWin: z.number(),
    avgLoss: z.number(),
    bestTrade: z.number(),
    worstTrade: z.number(),
  }),
  example: {
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
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
    },
  },
  handler: notImplemented(WALLET_LAYER),
})

const tokenRef = z.object({ address, symbol: z.string(), decimals: z.number().int() })

export const vaultsRoute = defineRoute({
  id: 'getVaults',
  method: 'GET',
  path: '/v1/earn/vaults',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Vault catalog: ERC-4626 and pool-lender vaults',
  description:
    'Each vault: address, kind, underlying asset (address, symbol, decimals), live net APY and TVL.',
  input: {},
  output: z.object({
    vaults: z.array(
      z.object({
        address,
        kind: z.enum(['erc4626', 'pool-lender']),
        name: z.string(),
        asset: tokenRef,
        netApy: z.number(),
        tvl: atomicAmount,
        tvlUsd: z.number().nullable(),
      }),
    ),
  }),
  example: {
    output: {
      vaults: [
        {
          address: '0xc1256Ae5FF1cf2719D4937adb3bbCCab2E00A2Ca',
          kind: 'erc4626',
          name: 'Moonwell Flagship USDC',
          asset: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 },
          netApy: 0.061,
          tvl: '41250000000000',
          tvlUsd: 41250000,
        },
      ],
    },
  },
  handler: notImplemented(MARKET_LAYER),
})

export const loanMarketsRoute = defineRoute({
  id: 'getLoanMarkets',
  method: 'GET',
  path: '/v1/loan/markets',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Floating-rate isolated lending markets',
  description:
    'marketId, MarketParams (loanToken, collateralToken, oracle, irm, lltv), live borrow APY, LLTV and liquidity. Each id is re-derived from its params and asserted.',
  input: {},
  output: z.object({
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
        borrowApy: z.number(),
        lltv: z.number(),
        liquidity: atomicAmount,
      }),
    ),
  }),
  example: {
    output: {
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
          borrowApy: 0.0712,
          lltv: 0.86,
          liquidity: '12500000000000',
        },
      ],
    },
  },
  handler: notImplemented(MARKET_LAYER),
})

export const fixedBooksRoute = defineRoute({
  id: 'getFixedBooks',
  method: 'GET',
  path: '/v1/loan/fixed',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Fixed-rate loan books',
  description:
    'marketId, tokens, LLTV, oracle, maturity and implied APRs: borrow = best bid, lend = best ask (null when that side is empty).',
  input: {},
  output: z.object({
    books: z.array(
      z.object({
        marketId,
        loanToken: address,
        collateralTokens: z.array(address),
        lltv: z.number(),
        oracle: address,
        maturity: unixSeconds,
        borrowApr: z.number().nullable(),
        lendApr: z.number().nullable(),
      }),
    ),
  }),
  example: {
    output: {
      books: [
        {
          marketId: '0x8793cf302b8ffd655ab97bd1c695dbd967807e8367a65cb2f4edaf1380ba1bda',
          loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          collateralTokens: ['0x4200000000000000000000000000000000000006'],
          lltv: 0.86,
          oracle: '0xFEa2D58cEfCb9fcb597723c6bAE66fFE4193aFE4',
          maturity: 1798761600,
          borrowApr: 0.068,
          lendApr: 0.064,
        },
      ],
    },
  },
  handler: notImplemented(MARKET_LAYER),
})

export const riskPairsRoute = defineRoute({
  id: 'getRiskPairs',
  method: 'GET',
  path: '/v1/risk/pairs',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Leverage pair universe',
  description: 'Every perp pair: on-chain pairIndex, symbol, max leverage and spread.',
  input: {},
  output: z.object({
    pairs: z.array(
      z.object({
        pairIndex: z.number().int(),
        symbol: z.string(),
        group: z.string(),
        maxLeverage: z.number(),
        spreadPct: z.number(),
      }),
    ),
  }),
  example: {
    output: {
      pairs: [
        { pairIndex: 0, symbol: 'BTC/USD', group: 'crypto', maxLeverage: 250, spreadPct: 0.04 },
        { pairIndex: 1, symbol: 'ETH/USD', group: 'crypto', maxLeverage: 250, spreadPct: 0.04 },
      ],
    },
  },
  handler: notImplemented(MARKET_LAYER),
})

export const stocksRoute = defineRoute({
  id: 'getStocks',
  method: 'GET',
  path: '/v1/stocks',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Tokenized stock catalog',
  description:
    'Thirteen registered tickers, each ending in a lowercase c: token address, oracle feed, live USD price, feed age, share multiplier, minted and tradable. Tokens have 8 decimals and track one share times multiplier(). Only minted tickers have a pool: branch on minted and tradable.',
  input: {},
  output: z.object({
    stocks: z.array(
      z.object({
        ticker: z.string(),
        token: address,
        feed: address,
        usd: z.number().nullable(),
        feedAgeSec: z.number().int().nullable(),
        multiplier: z.number(),
        minted: z.boolean(),
        tradable: z.boolean(),
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
          multiplier: 1,
          minted: true,
          tradable: true,
        },
      ],
    },
  },
  handler: notImplemented(MARKET_LAYER),
})

export const stockPriceRoute = defineRoute({
  id: 'getStockPrice',
  method: 'GET',
  path: '/v1/stocks/price',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'Stock fill quote without calldata',
  description:
    'Fill, price per share, premium against the feed and the chosen pool for buying (amount = USDC to spend) or selling (amount = shares) a tokenized stock. 409 for a ticker that is not minted.',
  input: { query: z.object({ sym: symbol, side, amount: humanAmount }) },
  output: z.object({
    sym: z.string(),
    side,
    amountIn: atomicAmount,
    amountOut: atomicAmount,
    pricePerShare: z.number(),
    feedUsd: z.number(),
    vsFeedPct: z.number(),
    pool: z.object({ address, fee: z.number().int(), usdc: z.number(), shares: z.number() }),
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
      vsFeedPct: 0.32,
      pool: {
        address: '0x1f1b7e9a4f6e2d3c8b5a0e7d6c4b3a2918f7e6d5',
        fee: 3000,
        usdc: 2500000,
        shares: 10800,
      },
    },
  },
  handler: notImplemented(MARKET_LAYER),
})

export const assetIdeaRoute = defineRoute({
  id: 'getAssetIdea',
  method: 'GET',
  path: '/v1/ideas/asset/{sym}',
  priceUsd: PRICE,
  tier: 'data',
  summary: 'One market’s leverage edge, with alternatives or a hedge',
  description:
    'A single-asset read: direction, entry, stop, target, liquidation, edge and range-survival leverage for `sym`, plus better alternatives or a hedge. Indicative, not advice.',
  input: { params: z.object({ sym: symbol }) },
  output: z.object({ idea, alternatives: z.array(idea), hedge: idea.nullable() }),
  example: {
    params: { sym: 'ETH' },
    output: {
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
      alternatives: [],
      hedge: null,
    },
  },
  handler: notImplemented('ideas analytics'),
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
