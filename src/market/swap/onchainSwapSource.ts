import { type Address, getAddress, type PublicClient } from 'viem'
import { minOutAfterSlippage } from '../../analytics/minOutAfterSlippage.js'
import {
  AERODROME_SWAP_GAS,
  poolSwapTxGas,
  WETH_DEPOSIT_TX_GAS,
  WETH_WITHDRAW_TX_GAS,
} from '../../analytics/swapTxGas.js'
import { BASE_ADDRESSES, erc20Of, isNative } from '../../chain/addresses.js'
import { CHAIN_UPSTREAM, type GroupResults, multiRead, viewCall } from '../../chain/multiRead.js'
import {
  aerodromePoolFactoryAbi,
  aerodromeRouterAbi,
  multicall3BlockFactsAbi,
  quoterV2Abi,
  UNISWAP_V3_FEE_TIERS,
} from '../../chain/swapVenueAbis.js'
import { isB20Token } from '../../chain/tokenizedStocks.js'
import { UpstreamError } from '../../errors.js'
import { createTtlCache, type TtlCache } from '../../ttlCache.js'
import type { SwapQuote, SwapQuoteSource } from './swapQuoteSource.js'

/** A quote is the pools' state at one block: about one Base block (2 s). */
export const ONCHAIN_QUOTE_TTL_MS = 2000

/** The best single-hop venue for one (sell, buy, amount), at one block. */
interface PoolQuote {
  blockNumber: bigint
  basefee: bigint
  best: {
    source: 'Uniswap_V3' | 'Aerodrome_V2'
    from: Address
    to: Address
    amountOut: bigint
    poolFeeBps: number | null
    /** The whole swap transaction's gas units (swapTxGas.ts). */
    gasEstimate: bigint
  } | null
}

const caches = new WeakMap<PublicClient, TtlCache<PoolQuote>>()

/**
 * Swap prices straight from the DEX contracts, no API key needed: the best single-hop output among
 * Uniswap v3's QuoterV2 over the four fee tiers and the Aerodrome Router's `getAmountsOut` (volatile and
 * stable pools; not for a native ETH leg, which the swap builder sends through Uniswap only), read in one
 * multicall with the block number and base fee. Native ETH is priced as WETH;
 * ETH ⇄ WETH alone is a 1:1 wrap through WETH9 (only the block's base fee read, for the fee).
 *
 * Gas: the swap transaction POST /v1/tx/swap would send (swapTxGas.ts): 21,000 intrinsic + 40,000 router
 * overhead + QuoterV2's estimate of the pool swap, or + 110,000 for an Aerodrome swap (its router gives no
 * estimate); a wrap or unwrap is WETH9's deposit or withdraw transaction. Approvals and Base's L1 data fee
 * are excluded; the units are priced at the read block's base fee, with no priority fee (the built
 * transactions leave fee fields to the wallet, so the tip is the wallet's choice). Cached for
 * ONCHAIN_QUOTE_TTL_MS per (sell, buy, amount, block asked) and per client; concurrent identical reads share
 * one call. A request naming `blockNumber` reads the pools at that block.
 */
export function onchainSwapSource(chain: PublicClient): SwapQuoteSource {
  let cache = caches.get(chain)
  if (cache === undefined) {
    cache = createTtlCache<PoolQuote>(ONCHAIN_QUOTE_TTL_MS)
    caches.set(chain, cache)
  }
  const pools = cache
  return {
    async quote(req): Promise<SwapQuote | null> {
      const sell = asErc20(req.sellToken)
      const buy = asErc20(req.buyToken)
      if (sell === buy) {
        // ETH → WETH (deposit) or WETH → ETH (withdraw): WETH9 converts 1:1, so the price needs no chain;
        // only the fee does (the base fee): an RPC that fails leaves the fee unknown, not the price.
        const facts = await readBlockFacts(chain, req.blockNumber).catch((err: unknown) => {
          if (err instanceof UpstreamError) return null
          throw err
        })
        const gas = isNative(req.sellToken) ? WETH_DEPOSIT_TX_GAS : WETH_WITHDRAW_TX_GAS
        return {
          source: 'onchain',
          blockNumber: facts?.blockNumber ?? null,
          buyAmount: req.sellAmount,
          minBuyAmount: minOutAfterSlippage(req.sellAmount, req.slippageBps),
          gasEstimate: gas,
          gasPriceWei: facts?.basefee ?? null,
          networkFeeWei: facts === null ? null : gas * facts.basefee,
          poolFeeBps: 0,
          aggregatorFee: null,
          route: [{ source: 'WETH', from: req.sellToken, to: req.buyToken, proportionBps: 10_000 }],
        }
      }
      const at = req.blockNumber
      // As POST /v1/tx/swap builds, or the quote would name a pool the build cannot use.
      const aerodrome = aerodromeServes(req.sellToken, req.buyToken)
      const key = `${sell}:${buy}:${req.sellAmount}:${at ?? 'latest'}:${aerodrome}`
      const quoted = await pools.get(key, () => readPools(chain, sell, buy, req.sellAmount, at, aerodrome))
      if (quoted.best === null) return null
      const { best } = quoted
      return {
        source: 'onchain',
        blockNumber: quoted.blockNumber,
        buyAmount: best.amountOut,
        minBuyAmount: minOutAfterSlippage(best.amountOut, req.slippageBps),
        gasEstimate: best.gasEstimate,
        gasPriceWei: quoted.basefee,
        networkFeeWei: best.gasEstimate * quoted.basefee,
        poolFeeBps: best.poolFeeBps,
        aggregatorFee: null,
        route: [{ source: best.source, from: best.from, to: best.to, proportionBps: 10_000 }],
      }
    },
  }
}

/**
 * Whether Aerodrome can swap this pair on Base. Not with native ETH: its router takes none (Uniswap's
 * wraps and unwraps inside the call). Not with a tokenized stock: B20 tokens are precompiles without
 * bytecode, and Aerodrome's Router and Pool `require(token.code.length > 0)` before every transfer.
 * Uniswap v3 has no such check, so stocks route there (the devnet's Aerodrome stand-ins refuse B20s too).
 */
export function aerodromeServes(sellToken: Address, buyToken: Address): boolean {
  return ![sellToken, buyToken].some((token) => isNative(token) || isB20Token(token))
}

function asErc20(token: Address): Address {
  return getAddress(erc20Of(token))
}

/** The single-hop venue that pays most for one (sell, buy, amount), as the pools answered it. */
export type PoolVenue =
  | { source: 'Uniswap_V3'; fee: number; amountOut: bigint; gasEstimate: bigint }
  | { source: 'Aerodrome_V2'; stable: boolean; pool: Address; amountOut: bigint }

const AERODROME_KINDS = [false, true] as const

/**
 * The pool reads that price a single hop, as multiRead groups, so a caller can put them in its own
 * multicall (a builder reads them with the owner's balance and allowances): QuoterV2 over the four
 * Uniswap v3 tiers and, unless `aerodrome` is false, the Aerodrome router's getAmountsOut and poolFor for
 * its volatile and stable pools. `sell` and `buy` are ERC-20s (WETH for ETH).
 */
export function poolQuoteCalls(sell: Address, buy: Address, amountIn: bigint, options = { aerodrome: true }) {
  const factory = BASE_ADDRESSES.AerodromePoolFactory
  const router = BASE_ADDRESSES.AerodromeRouter
  const stables = options.aerodrome ? AERODROME_KINDS : []
  return {
    // A tier without a pool, or whose pool cannot fill the amount, reverts: undefined.
    uniswap: UNISWAP_V3_FEE_TIERS.map((fee) =>
      viewCall(BASE_ADDRESSES.QuoterV2, quoterV2Abi, 'quoteExactInputSingle', [
        { tokenIn: sell, tokenOut: buy, amountIn, fee, sqrtPriceLimitX96: 0n },
      ]),
    ),
    aerodrome: stables.map((stable) =>
      viewCall(router, aerodromeRouterAbi, 'getAmountsOut', [
        amountIn,
        [{ from: sell, to: buy, stable, factory }],
      ]),
    ),
    aerodromePools: stables.map((stable) =>
      viewCall(router, aerodromeRouterAbi, 'poolFor', [sell, buy, stable, factory]),
    ),
  }
}

/**
 * The best venue among what `poolQuoteCalls` read: highest output wins; on a tie, the earlier candidate
 * (lower Uniswap tier first, then Aerodrome volatile before stable). Null when nothing can fill it.
 */
export function bestPoolVenue(read: GroupResults<ReturnType<typeof poolQuoteCalls>>): PoolVenue | null {
  const candidates: PoolVenue[] = []
  read.uniswap.forEach((quote, i) => {
    const fee = UNISWAP_V3_FEE_TIERS[i]
    if (quote === undefined || quote[0] === 0n || fee === undefined) return
    candidates.push({ source: 'Uniswap_V3', fee, amountOut: quote[0], gasEstimate: quote[3] })
  })
  read.aerodrome.forEach((amounts, i) => {
    const pool = read.aerodromePools[i]
    const stable = AERODROME_KINDS[i]
    // The router reports 0 for a pool that does not exist.
    const amountOut = amounts?.at(-1) ?? 0n
    if (pool === undefined || stable === undefined || amountOut === 0n) return
    candidates.push({ source: 'Aerodrome_V2', stable, pool, amountOut })
  })
  let best: PoolVenue | null = null
  for (const c of candidates) if (best === null || c.amountOut > best.amountOut) best = c
  return best
}

/** The block a read sees and its base fee, through Multicall3 (at `at`, or the latest). */
async function readBlockFacts(
  chain: PublicClient,
  at: bigint | undefined,
): Promise<{ blockNumber: bigint; basefee: bigint }> {
  const read = await multiRead(
    chain,
    {
      blockNumber: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockFactsAbi, 'getBlockNumber', [])],
      basefee: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockFactsAbi, 'getBasefee', [])],
    },
    at,
  )
  const blockNumber = read.blockNumber[0]
  const basefee = read.basefee[0]
  if (blockNumber === undefined || basefee === undefined) {
    throw new UpstreamError(CHAIN_UPSTREAM, 'Multicall3 did not report the block')
  }
  return { blockNumber, basefee }
}

async function readPools(
  chain: PublicClient,
  sell: Address,
  buy: Address,
  amountIn: bigint,
  at: bigint | undefined,
  aerodrome: boolean,
): Promise<PoolQuote> {
  const read = await multiRead(
    chain,
    {
      blockNumber: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockFactsAbi, 'getBlockNumber', [])],
      basefee: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockFactsAbi, 'getBasefee', [])],
      ...poolQuoteCalls(sell, buy, amountIn, { aerodrome }),
    },
    at,
  )
  const blockNumber = read.blockNumber[0]
  const basefee = read.basefee[0]
  if (blockNumber === undefined || basefee === undefined) {
    throw new UpstreamError(CHAIN_UPSTREAM, 'Multicall3 did not report the block')
  }
  const venue = bestPoolVenue(read)
  if (venue === null) return { blockNumber, basefee, best: null }
  if (venue.source === 'Uniswap_V3') {
    return {
      blockNumber,
      basefee,
      best: {
        source: venue.source,
        from: sell,
        to: buy,
        amountOut: venue.amountOut,
        poolFeeBps: venue.fee / 100,
        gasEstimate: poolSwapTxGas(venue.gasEstimate),
      },
    }
  }
  // The pool's fee (bps of the input) is only known once the pool's address is: one more read, at the
  // same block.
  const fee = await multiRead(
    chain,
    {
      fee: [
        viewCall(BASE_ADDRESSES.AerodromePoolFactory, aerodromePoolFactoryAbi, 'getFee', [
          venue.pool,
          venue.stable,
        ]),
      ],
    },
    blockNumber,
  )
  return {
    blockNumber,
    basefee,
    best: {
      source: venue.source,
      from: sell,
      to: buy,
      amountOut: venue.amountOut,
      poolFeeBps: fee.fee[0] === undefined ? null : Number(fee.fee[0]),
      gasEstimate: poolSwapTxGas(AERODROME_SWAP_GAS),
    },
  }
}
