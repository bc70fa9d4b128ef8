import type { Address, ContractFunctionParameters, PublicClient } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { UNISWAP_V3_FEE_TIERS } from '../../chain/swapVenueAbis.js'
import {
  type StockTicker,
  stockFeedAbi,
  stockRegistryAbi,
  stockTokenAbi,
  TOKENIZED_STOCKS,
} from '../../chain/tokenizedStocks.js'
import { uniswapV3PoolAbi, uniswapV3PoolAddress } from '../../chain/uniswapV3Pool.js'
import { UpstreamError } from '../../errors.js'
import { fromAtomic } from '../numbers.js'
import { throwOnRpcFault } from '../throwOnRpcFault.js'

const USDC = BASE_ADDRESSES.USDC

/** One existing Uniswap v3 stock/USDC pool (it has code and in-range liquidity). */
export interface StockPool {
  address: Address
  /** Fee tier, hundredths of a basis point (3000 = 0.3 %). */
  fee: number
  liquidity: bigint
  /** Reserves (the pool's token balances), atomic; read only when asked for. */
  usdc?: bigint
  shares?: bigint
}

/** What the chain says about one ticker, read in the caller's multicall. */
export interface StockState {
  ticker: StockTicker
  token: Address
  feed: Address
  /** Feed answer in USD per token; null when the feed does not answer or answers ≤ 0. */
  feedUsd: number | null
  /** The feed's own timestamp of that answer, unix seconds. */
  feedUpdatedAt: number | null
  /** Shares per token (multiplier() / 1e18); from the registry when the token does not answer. */
  multiplier: number | null
  /** Any supply exists. */
  minted: boolean
  /** The oracle registry knows the token (getOracleParams does not revert). */
  registered: boolean
  paused: boolean
  /** Existing USDC pools, deepest (most in-range liquidity) first. */
  pools: StockPool[]
}

type Call = ContractFunctionParameters
export type Result = { status: 'success'; result: unknown } | { status: 'failure'; error: Error }

/**
 * The calls that read one ticker's state (feed, token, registry, and every fee tier's pool), and the
 * decoder of their results. Callers put several of these, plus their own calls, into one multicall.
 */
export function stockStateCalls(
  ticker: StockTicker,
  options: { reserves?: boolean } = {},
): { calls: Call[]; decode(results: readonly Result[]): StockState } {
  const { token, feed } = TOKENIZED_STOCKS[ticker]
  const pools = UNISWAP_V3_FEE_TIERS.map((fee) => ({ fee, address: uniswapV3PoolAddress(token, USDC, fee) }))
  const balanceOf = (asset: Address, owner: Address): Call => ({
    address: asset,
    abi: stockTokenAbi,
    functionName: 'balanceOf',
    args: [owner],
  })
  const calls: Call[] = [
    { address: feed, abi: stockFeedAbi, functionName: 'latestRoundData' },
    { address: feed, abi: stockFeedAbi, functionName: 'decimals' },
    { address: token, abi: stockTokenAbi, functionName: 'multiplier' },
    { address: token, abi: stockTokenAbi, functionName: 'totalSupply' },
    {
      address: BASE_ADDRESSES.StockOracleRegistry,
      abi: stockRegistryAbi,
      functionName: 'getOracleParams',
      args: [token],
    },
    ...pools.flatMap((p): Call[] => [
      { address: p.address, abi: uniswapV3PoolAbi, functionName: 'liquidity' },
      ...(options.reserves ? [balanceOf(USDC, p.address), balanceOf(token, p.address)] : []),
    ]),
  ]
  return {
    calls,
    decode(results) {
      const [round, decimals, multiplier, supply, params, ...poolResults] = results
      const answer = ok<readonly [bigint, bigint, bigint, bigint, bigint]>(round)
      const feedDecimals = ok<number>(decimals) ?? 8
      const oracle = ok<readonly [bigint, boolean]>(params)
      const wad = ok<bigint>(multiplier) ?? oracle?.[0]
      const perPool = options.reserves ? 3 : 1
      const found = pools.flatMap((p, i): StockPool[] => {
        const liquidity = ok<bigint>(poolResults[i * perPool])
        if (liquidity === undefined || liquidity === 0n) return []
        const pool: StockPool = { address: p.address, fee: p.fee, liquidity }
        if (options.reserves) {
          pool.usdc = ok<bigint>(poolResults[i * perPool + 1]) ?? 0n
          pool.shares = ok<bigint>(poolResults[i * perPool + 2]) ?? 0n
        }
        return [pool]
      })
      found.sort((a, b) => (a.liquidity === b.liquidity ? 0 : a.liquidity > b.liquidity ? -1 : 1))
      const positive = answer !== undefined && answer[1] > 0n
      return {
        ticker,
        token,
        feed,
        feedUsd: positive ? fromAtomic(answer[1], feedDecimals) : null,
        feedUpdatedAt: positive ? Number(answer[3]) : null,
        multiplier: wad === undefined ? null : fromAtomic(wad, 18),
        minted: (ok<bigint>(supply) ?? 0n) > 0n,
        registered: oracle !== undefined,
        paused: oracle?.[1] ?? false,
        pools: found,
      }
    },
  }
}

/**
 * One multicall (one eth_call to Multicall3, never split into chunks) with every call allowed to fail on
 * its own. The RPC not answering at all is the chain upstream's 502, with Retry-After, and costs nothing.
 */
export async function multicallAll(chain: PublicClient, calls: readonly Call[]): Promise<Result[]> {
  let results: Result[]
  try {
    results = (await chain.multicall({ contracts: calls, allowFailure: true, batchSize: 0 })) as Result[]
  } catch (err) {
    throw new UpstreamError('Base RPC', 'multicall failed', { cause: err })
  }
  throwOnRpcFault(results)
  return results
}

function ok<T>(r: Result | undefined): T | undefined {
  return r?.status === 'success' ? (r.result as T) : undefined
}
