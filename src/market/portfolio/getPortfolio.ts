import { type Address, erc20Abi, getAddress, type PublicClient, parseAbi } from 'viem'
import { z } from 'zod'
import { screenSpam } from '../../analytics/screenSpam.js'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../chain/addresses.js'
import { address, atomicAmount, unixSeconds } from '../../chain/fields.js'
import type { LendingCatalog } from '../../chain/lendingCatalog.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../../chain/multiRead.js'
import { AppError, UpstreamError } from '../../errors.js'
import { type KnownToken, knownTokens, type PriceSource } from '../knownTokens.js'
import type { MarketData } from '../marketData.js'
import { fromAtomic, significant } from '../numbers.js'
import { usdOrNull } from '../readFields.js'
import { SOURCE_OK, type SourceStatus, sourceStatus } from '../sourceStatus.js'
import type { ExplorerBalance } from '../upstreams/explorer.js'
import { walletReadCache } from '../walletReadCache.js'

/** What the read answers (the route's output schema). */
export const portfolioOutput = z.object({
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
    .describe('Each upstream’s outcome; a failed one names its error and its section degrades as described'),
})

export type PortfolioToken = Portfolio['tokens'][number]
export type ScreenedToken = Portfolio['screened'][number]
export type Portfolio = z.output<typeof portfolioOutput>

/** The service's token list comes from configuration: the lending catalog and the UTIL token. */
export interface TokenListConfig {
  lending: LendingCatalog
  utilToken: Address | null
}

const multicall3Abi = parseAbi([
  'function getBlockNumber() view returns (uint256)',
  'function getCurrentBlockTimestamp() view returns (uint256)',
  'function getEthBalance(address addr) view returns (uint256)',
])
const NATIVE_PRICE: PriceSource = { kind: 'spot', product: 'ETH-USD' }
/**
 * Explorer-only tokens confirmed on the chain at most (4 calls each in the one multicall). A wallet
 * flooded with airdrop spam (thousands of rows) would otherwise make the multicall exceed the node's
 * eth_call gas cap, and the whole read would fail as a chain fault. The rest is reported in
 * sources.explorer, not silently dropped.
 */
const MAX_EXPLORER_TOKENS = 250

/**
 * Every ERC-20 the explorer lists for `owner` plus every token of the service's token list plus native
 * ETH, confirmed on the chain in ONE eth_call (Multicall3 aggregate3: block number and timestamp,
 * getEthBalance, and per token balanceOf, decimals, symbol, name), so every balance is the chain's at one
 * block. Tokens the chain says are 0 are dropped; decimals/symbol/name are the chain's (the explorer's
 * when the token does not answer). Prices come from the exchange spot concurrently. The explorer failing
 * leaves the token list and native ETH (sources.explorer reports it); the exchange failing leaves spot
 * prices null (sources.prices); the chain failing is an UpstreamError (502, nothing charged).
 */
export function getPortfolio(
  chain: PublicClient,
  market: MarketData,
  tokenList: TokenListConfig,
  owner: Address,
): Promise<Portfolio> {
  return cache(chain, owner, (head) => readPortfolio(chain, market, tokenList, owner, head))
}

const cache = walletReadCache<Portfolio>()

async function readPortfolio(
  chain: PublicClient,
  market: MarketData,
  tokenList: TokenListConfig,
  owner: Address,
  head: bigint | undefined,
): Promise<Portfolio> {
  const listed = new Map(knownTokens(tokenList.lending, tokenList.utilToken).map((t) => [t.address, t]))
  const products = [
    ...new Set(
      [NATIVE_PRICE, ...[...listed.values()].map((t) => t.price)].flatMap((p) =>
        p?.kind === 'spot' ? [p.product] : [],
      ),
    ),
  ]
  const [found, spots] = await Promise.all([
    settle(market.explorer.tokenBalances(owner)),
    settle(readSpots(market, products)),
  ])

  const fromExplorer = new Map<Address, ExplorerBalance>(found.ok ? found.value.map((b) => [b.token, b]) : [])
  const explorerOnly = [...fromExplorer.keys()].filter((t) => !listed.has(t))
  const candidates = [...listed.keys(), ...explorerOnly.slice(0, MAX_EXPLORER_TOKENS)]
  const explorerStatus: SourceStatus =
    explorerOnly.length > MAX_EXPLORER_TOKENS
      ? {
          ok: false,
          error: `the explorer listed ${explorerOnly.length} unlisted tokens; only the first ${MAX_EXPLORER_TOKENS} were read on the chain`,
        }
      : status(found)
  const read = await multiRead(
    chain,
    {
      meta: [
        viewCall(BASE_ADDRESSES.Multicall3, multicall3Abi, 'getBlockNumber', []),
        viewCall(BASE_ADDRESSES.Multicall3, multicall3Abi, 'getCurrentBlockTimestamp', []),
        viewCall(BASE_ADDRESSES.Multicall3, multicall3Abi, 'getEthBalance', [owner]),
      ],
      balances: candidates.map((t) => viewCall(t, erc20Abi, 'balanceOf', [owner])),
      decimals: candidates.map((t) => viewCall(t, erc20Abi, 'decimals', [])),
      symbols: candidates.map((t) => viewCall(t, erc20Abi, 'symbol', [])),
      names: candidates.map((t) => viewCall(t, erc20Abi, 'name', [])),
    },
    head,
  )
  const [blockNumber, timestamp, wei] = read.meta
  if (blockNumber === undefined || timestamp === undefined || wei === undefined) {
    throw new UpstreamError(CHAIN_UPSTREAM, 'Multicall3 did not answer the block and balance reads')
  }

  const priceOf = (price: PriceSource | null, amount: bigint, decimals: number) => {
    if (price === null) return { usd: null, priceSource: null }
    if (price.kind === 'par') {
      return { usd: significant(fromAtomic(amount, decimals)), priceSource: `par:${price.currency}` }
    }
    const px = spots.ok ? spots.value.get(price.product) : undefined
    return px === undefined
      ? { usd: null, priceSource: null }
      : { usd: significant(fromAtomic(amount, decimals) * px), priceSource: `coinbase:${price.product}` }
  }

  const tokens: PortfolioToken[] = []
  const screened: ScreenedToken[] = []
  if (wei > 0n) {
    tokens.push({
      token: NATIVE_SENTINEL,
      symbol: 'ETH',
      decimals: 18,
      balance: wei.toString(),
      ...priceOf(NATIVE_PRICE, wei, 18),
    })
  }
  const listedSymbols = new Set(['ETH'])
  candidates.forEach((token, i) => {
    const symbol = read.symbols[i]
    if (listed.has(token) && symbol !== undefined) listedSymbols.add(symbol.toUpperCase())
  })
  candidates.forEach((token, i) => {
    const balance = read.balances[i]
    const seen = fromExplorer.get(token)
    const decimals = read.decimals[i] ?? seen?.decimals ?? null
    // Not a readable ERC-20 (no balanceOf, no decimals anywhere) or nothing held: nothing to report.
    if (balance === undefined || balance === 0n || decimals === null) return
    const symbol = read.symbols[i] ?? seen?.symbol ?? null
    const name = read.names[i] ?? seen?.name ?? null
    const known: KnownToken | undefined = listed.get(token)
    const reason = screenSpam(
      { symbol: symbol ?? '', name, listed: known !== undefined, priced: known?.price != null },
      listedSymbols,
    )
    if (reason !== null) {
      screened.push({ token, symbol, name, decimals, balance: balance.toString(), reason })
      return
    }
    tokens.push({
      token,
      symbol,
      decimals,
      balance: balance.toString(),
      ...priceOf(known?.price ?? null, balance, decimals),
    })
  })

  const native = (t: PortfolioToken) => (t.token === NATIVE_SENTINEL ? 0 : 1)
  tokens.sort(
    (a, b) => native(a) - native(b) || (b.usd ?? -1) - (a.usd ?? -1) || a.token.localeCompare(b.token),
  )
  screened.sort((a, b) => a.token.localeCompare(b.token))
  const totalUsd = significant(tokens.reduce((sum, t) => sum + (t.usd ?? 0), 0))
  return {
    address: getAddress(owner),
    block: { number: Number(blockNumber), timestamp: Number(timestamp) },
    totalUsd,
    unpricedCount: tokens.filter((t) => t.usd === null).length,
    tokens,
    screened,
    sources: { explorer: explorerStatus, chain: SOURCE_OK, prices: status(spots) },
  }
}

/** Spot USD per product the exchange lists online; a product it does not list is simply absent. */
async function readSpots(market: MarketData, products: readonly string[]): Promise<Map<string, number>> {
  const online = await market.coinbase.products()
  const listedProducts = products.filter((p) => online.has(p))
  const prices = await Promise.all(listedProducts.map(async (p) => (await market.coinbase.ticker(p)).price))
  return new Map(listedProducts.map((p, i) => [p, prices[i] as number]))
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: string }

async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await promise }
  } catch (err) {
    // An upstream's typed fault is reported in `sources`; anything else is a bug and surfaces as one.
    if (!(err instanceof AppError)) throw err
    return { ok: false, error: err.message }
  }
}

function status(s: Settled<unknown>): SourceStatus {
  return s.ok ? SOURCE_OK : { ok: false, error: s.error }
}
