import { type Address, getAddress, type PublicClient } from 'viem'
import { z } from 'zod'
import { enumerateArbitrageCycles } from '../../analytics/enumerateArbitrageCycles.js'
import { MAX_SLIPPAGE_BPS } from '../../analytics/minOutAfterSlippage.js'
import { rankArbitrageRoutes } from '../../analytics/rankArbitrageRoutes.js'
import {
  type ArbitrageLegInput,
  amountForBudget,
  valueArbitrageRoute,
} from '../../analytics/valueArbitrageRoute.js'
import { address, atomicAmount, wallet } from '../../chain/fields.js'
import type { PriceSource } from '../knownTokens.js'
import type { MarketData } from '../marketData.js'
import { fromAtomic } from '../numbers.js'
import { queryNumber, slippageBpsQuery } from '../queryFields.js'
import { onchainSwapSource } from '../swap/onchainSwapSource.js'
import type { SwapQuote, SwapQuoteSource } from '../swap/swapQuoteSource.js'
import {
  ARBITRAGE_INTERMEDIATES,
  ARBITRAGE_TOKENS,
  type ArbitrageToken,
  arbitrageTarget,
} from './arbitrageTokens.js'

export const ARBITRAGE_DISCLAIMER =
  'Indicative, not advice: quotes move with every block and other traders; each leg is bounded only by its own minOut.'

/** The USD budget query field of GET /v1/arbitrage (and /v1/alpha). */
export const budget = queryNumber(0)
  .default(100)
  .describe('USD of the target each route sells in its first leg, >= 0, default 100')

/** The query the read takes (the route's query schema). */
export const arbitrageQuery = z.object({
  target: arbitrageTarget,
  budget,
  // `wallet`, as POST /v1/tx/swap's taker: a zero-address taker would pay for bodies the builder refuses.
  taker: wallet.describe(
    'Wallet that would send the legs (quotes and swap bodies are for it); not the zero address',
  ),
  slippageBps: slippageBpsQuery(10_000),
})

export type ArbitrageQuery = z.output<typeof arbitrageQuery>

const usd = z.number()

const legSchema = z.object({
  venue: z.string().describe('`Uniswap_V3 <fee>%`, `Aerodrome_V2`, or `0x:<sources>`'),
  fromToken: address,
  toToken: address,
  amountIn: atomicAmount,
  expectedOut: atomicAmount,
  minOut: atomicAmount.describe('The leg reverts below it; the next leg sells exactly this'),
  swap: z
    .object({
      fromToken: address,
      toToken: address,
      fromAmount: atomicAmount,
      taker: address,
      slippageBps: z.number().int(),
    })
    .describe('The exact body for POST /v1/tx/swap'),
})

const arbitrageRouteSchema = z.object({
  rank: z.number().int().describe('1 = highest netUsd'),
  path: z.array(z.string()).describe('Tokens and venues alternating, first and last the target'),
  amountIn: atomicAmount.describe('Target sold by the first leg'),
  expectedOut: atomicAmount.describe('Target the final leg is expected to return'),
  minOut: atomicAmount.describe('Target the final leg returns at worst'),
  minOutUsd: usd.describe('minOut at the reference price (worst case: leftovers may be 0)'),
  leftoverUsd: usd.describe('Intermediate tokens filled above each leg’s minOut, kept by the taker'),
  gasUnits: atomicAmount.describe('Gas units counted for all legs (an upper bound)'),
  gasUsd: usd,
  feesUsd: usd.describe('Pool and aggregator fees, already inside the quoted outputs'),
  netUsd: usd.describe('expectedOut + leftovers − amountIn − gas, in USD'),
  legs: z.array(legSchema),
})

/** What the read answers (the output schema of GET /v1/arbitrage, also part of GET /v1/alpha). */
export const arbitrageOutput = z.object({
  target: z.string(),
  token: address.nullable().describe('The target’s token (native ETH: the 0xEeee… sentinel); null: none'),
  referencePriceUsd: usd.nullable(),
  referenceSource: z.string().nullable().describe('`coinbase:<product>` (exchange spot) or `par`'),
  budgetUsd: usd,
  blockNumber: z.string().nullable().describe('Block whose base fee priced the gas'),
  baseFeeWei: z.string().nullable(),
  referencePrices: z
    .array(z.object({ symbol: z.string(), priceUsd: usd.nullable(), source: z.string().nullable() }))
    .describe('Every reference price used: the target, the intermediates, ETH-USD for gas'),
  routes: z.array(arbitrageRouteSchema),
  reason: z.string().nullable().describe('Why routes is empty; null when it is not'),
  disclaimer: z.string(),
})

export type Arbitrage = z.output<typeof arbitrageOutput>
export type ArbitrageRoute = Arbitrage['routes'][number]
export type ArbitrageLeg = ArbitrageRoute['legs'][number]
export type SwapLegBody = ArbitrageLeg['swap']
export type ReferencePrice = Arbitrage['referencePrices'][number]

const ETH_USD: PriceSource = { kind: 'spot', product: 'ETH-USD' }

/**
 * Cycles from `target` back to it through USDC, WETH and cbBTC (two and three legs), each leg quoted by
 * the source the swap builder uses (the 0x API with a key, else the best single pool read onchain) for
 * the taker, leg k+1 selling exactly leg k's minOut, valued at independent reference prices (exchange
 * spot, USDC at par), gas at the latest block's base fee. Routes that net more than 0 USD are ranked; none
 * is a 200 with `reason`. The exchange or the chain failing is an UpstreamError (502, nothing charged).
 */
export async function getArbitrage(
  chain: PublicClient,
  market: MarketData,
  query: ArbitrageQuery,
): Promise<Arbitrage> {
  const taker = getAddress(query.taker)
  const slippageBps = Math.min(query.slippageBps, MAX_SLIPPAGE_BPS)
  const target = ARBITRAGE_TOKENS[query.target]
  const answer: Arbitrage = {
    target: query.target,
    token: target?.address ?? null,
    referencePriceUsd: null,
    referenceSource: null,
    budgetUsd: query.budget,
    blockNumber: null,
    baseFeeWei: null,
    referencePrices: [],
    routes: [],
    reason: null,
    disclaimer: ARBITRAGE_DISCLAIMER,
  }
  if (target === null) {
    return {
      ...answer,
      reason: `${query.target} has no token in the network's address book: there is nothing to route into.`,
    }
  }
  const via = ARBITRAGE_INTERMEDIATES.filter((t) => t.erc20 !== target.erc20)
  const priced = [target, ...via]
  const [prices, ethUsd] = await Promise.all([
    Promise.all(priced.map((t) => referencePrice(market, t.price))),
    referencePrice(market, ETH_USD),
  ])
  const priceOf = new Map(priced.map((t, i) => [t.symbol, prices[i]?.priceUsd ?? null]))
  const targetPrice = prices[0] ?? { priceUsd: null, source: null }
  const withPrices: Arbitrage = {
    ...answer,
    referencePriceUsd: targetPrice.priceUsd,
    referenceSource: targetPrice.source,
    referencePrices: [
      ...priced.map((t, i) => ({ symbol: t.symbol, ...(prices[i] ?? { priceUsd: null, source: null }) })),
      { symbol: 'ETH (gas)', ...ethUsd },
    ],
  }
  if (targetPrice.priceUsd === null) {
    const product =
      target.price?.kind === 'spot' ? ` (the exchange does not list ${target.price.product})` : ''
    return {
      ...withPrices,
      reason: `No reference price for ${target.symbol}${product}: routes cannot be valued.`,
    }
  }
  if (ethUsd.priceUsd === null) {
    return { ...withPrices, reason: 'No ETH-USD price to value gas: routes cannot be valued.' }
  }
  const amountIn = amountForBudget(query.budget, targetPrice.priceUsd, target.decimals)
  if (amountIn === null) {
    return {
      ...withPrices,
      reason: `budget ${query.budget} USD is more ${target.symbol} than a swap amount (uint256) can hold: nothing to route.`,
    }
  }
  if (amountIn === 0n) {
    return {
      ...withPrices,
      reason: `budget ${query.budget} USD buys no whole atomic unit of ${target.symbol}: nothing to route.`,
    }
  }
  const block = await chain.getBlock({ blockTag: 'latest' })
  const baseFeeWei = block.baseFeePerGas ?? 0n
  const usable = via.filter((t) => priceOf.get(t.symbol) !== null)
  const bySymbol = new Map(priced.map((t) => [t.symbol, t]))
  const cycles = enumerateArbitrageCycles(
    target.symbol,
    usable.map((t) => t.symbol),
  ).map((c) => c.map((s) => bySymbol.get(s) as ArbitrageToken))
  const source = market.zeroEx ?? onchainSwapSource(chain)
  const quoted = await Promise.all(
    cycles.map((cycle) => quoteCycle(source, cycle, amountIn, taker, slippageBps, block.number)),
  )
  const context = { amountIn, taker, slippageBps, baseFeeWei, ethUsd: ethUsd.priceUsd, priced, priceOf }
  const valued = quoted.flatMap((legs) => (legs === null ? [] : [valueCycle(legs, context)]))
  const routes = rankArbitrageRoutes(valued)
  const base = { ...withPrices, blockNumber: block.number.toString(), baseFeeWei: baseFeeWei.toString() }
  if (routes.length > 0) return { ...base, routes }
  const best = [...valued].sort((a, b) => b.netUsd - a.netUsd)[0]
  const reason =
    best === undefined
      ? `No venue quotes every leg of any of the ${cycles.length} cycles from ${target.symbol} through ` +
        `${usable.map((t) => t.symbol).join(', ')}: no pool holds ${target.symbol} against them, or it ` +
        `cannot fill ${amountIn} atomic units.`
      : `${valued.length} of ${cycles.length} cycles were quoted, none nets more than 0 USD after gas; the best, ${best.path.join(' → ')}, nets ${best.netUsd} USD.`
  return { ...base, reason }
}

interface QuotedLeg {
  from: ArbitrageToken
  to: ArbitrageToken
  amountIn: bigint
  quote: SwapQuote
}

/**
 * The legs in sequence, each selling the previous leg's minOut, all read at `blockNumber` (the block the
 * answer reports and prices gas at; the 0x API quotes its own latest); null when a leg has no liquidity.
 */
async function quoteCycle(
  source: SwapQuoteSource,
  cycle: readonly ArbitrageToken[],
  amountIn: bigint,
  taker: Address,
  slippageBps: number,
  blockNumber: bigint,
): Promise<QuotedLeg[] | null> {
  const legs: QuotedLeg[] = []
  let sell = amountIn
  for (let i = 0; i + 1 < cycle.length; i++) {
    const from = cycle[i] as ArbitrageToken
    const to = cycle[i + 1] as ArbitrageToken
    const quote = await source.quote({
      sellToken: from.address,
      buyToken: to.address,
      sellAmount: sell,
      taker,
      slippageBps,
      blockNumber,
    })
    // A zero minOut would make the next leg's body sell nothing (POST /v1/tx/swap refuses 0).
    if (quote === null || quote.buyAmount === 0n || quote.minBuyAmount === 0n) return null
    legs.push({ from, to, amountIn: sell, quote })
    sell = quote.minBuyAmount
  }
  return legs
}

/** `Uniswap_V3 0.05%`, `Aerodrome_V2`, or `0x:<fill sources>`. */
function venueOf(quote: SwapQuote): string {
  if (quote.source === '0x') return `0x:${[...new Set(quote.route.map((f) => f.source))].join('+')}`
  const pool = quote.route[0]?.source ?? 'onchain'
  return pool === 'Uniswap_V3' && quote.poolFeeBps !== null ? `${pool} ${quote.poolFeeBps / 100}%` : pool
}

/** 0x's fee, in USD at its token's reference price; 0 when there is none or its token is not priced here. */
function aggregatorFeeUsd(
  quote: SwapQuote,
  tokens: readonly ArbitrageToken[],
  priceOf: ReadonlyMap<string, number | null>,
): number {
  const fee = quote.aggregatorFee
  if (fee === null) return 0
  const token = tokens.find((t) => t.address.toLowerCase() === fee.token.toLowerCase())
  const price = token === undefined ? null : (priceOf.get(token.symbol) ?? null)
  return token === undefined || price === null ? 0 : fromAtomic(fee.amount, token.decimals) * price
}

/** USD per whole token: par is 1; spot is the exchange's last trade, null when it does not list the product. */
async function referencePrice(
  market: MarketData,
  price: PriceSource | null,
): Promise<{ priceUsd: number | null; source: string | null }> {
  if (price === null) return { priceUsd: null, source: null }
  if (price.kind === 'par') return { priceUsd: 1, source: 'par' }
  if (!(await market.coinbase.products()).has(price.product)) return { priceUsd: null, source: null }
  const { price: last } = await market.coinbase.ticker(price.product)
  return last > 0 ? { priceUsd: last, source: `coinbase:${price.product}` } : { priceUsd: null, source: null }
}

/** One quoted cycle valued in USD (gas, fees, what is left over) as a route of the answer. */
function valueCycle(
  legs: QuotedLeg[],
  c: {
    amountIn: bigint
    taker: `0x${string}`
    slippageBps: number
    baseFeeWei: bigint
    ethUsd: number
    priced: ArbitrageToken[]
    priceOf: Map<string, number | null>
  },
) {
  const { amountIn, taker, slippageBps, baseFeeWei, priced, priceOf } = c
  const priceUsd = (t: ArbitrageToken) => priceOf.get(t.symbol) as number
  const inputs: ArbitrageLegInput[] = legs.map(({ from, to, quote, amountIn: sold }) => ({
    amountIn: sold,
    expectedOut: quote.buyAmount,
    minOut: quote.minBuyAmount,
    sell: { decimals: from.decimals, priceUsd: priceUsd(from), erc20: from.address === from.erc20 },
    buy: { decimals: to.decimals, priceUsd: priceUsd(to) },
    poolFeeBps: quote.poolFeeBps,
    aggregatorFeeUsd: aggregatorFeeUsd(quote, priced, priceOf),
    gasEstimate: quote.gasEstimate,
  }))
  const v = valueArbitrageRoute(inputs, { baseFeeWei, ethUsd: c.ethUsd })
  const last = legs.at(-1) as QuotedLeg
  const path = [legs[0]?.from.symbol as string]
  for (const leg of legs) path.push(venueOf(leg.quote), leg.to.symbol)
  return {
    path,
    amountIn: amountIn.toString(),
    expectedOut: last.quote.buyAmount.toString(),
    minOut: last.quote.minBuyAmount.toString(),
    minOutUsd: v.minOutUsd,
    leftoverUsd: v.leftoverUsd,
    gasUnits: v.gasUnits.toString(),
    gasUsd: v.gasUsd,
    feesUsd: v.feesUsd,
    netUsd: v.netUsd,
    legs: legs.map((leg) => ({
      venue: venueOf(leg.quote),
      fromToken: leg.from.address,
      toToken: leg.to.address,
      amountIn: leg.amountIn.toString(),
      expectedOut: leg.quote.buyAmount.toString(),
      minOut: leg.quote.minBuyAmount.toString(),
      swap: {
        fromToken: leg.from.address,
        toToken: leg.to.address,
        fromAmount: leg.amountIn.toString(),
        taker,
        slippageBps,
      },
    })),
  }
}
