import { BaseError, ContractFunctionRevertedError, type PublicClient, parseAbi } from 'viem'
import type { UtilPool } from './readUtilPoolPrice.js'

const oracleAbi = parseAbi([
  'function observe(uint32[] secondsAgos) view returns (int56[] tickCumulatives, uint160[] secondsPerLiquidityCumulativeX128s)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function observations(uint256 index) view returns (uint32 blockTimestamp, int56 tickCumulative, uint160 secondsPerLiquidityCumulativeX128, bool initialized)',
])

/** What a Uniswap v3 pool's own oracle says of the `seconds` before a block. */
export interface PoolOracleReading {
  /** The window actually covered: the one asked for, or less when the pool's observations reach less far. */
  seconds: number
  /** The time-weighted mean tick (rounded toward negative infinity, as Uniswap's OracleLibrary does). */
  meanTick: number
  /** The harmonic mean of the in-range liquidity over the window. */
  harmonicLiquidity: bigint
}

/**
 * The pool's time-weighted mean tick and harmonic mean liquidity over the `windowSec` seconds up to the state
 * after `blockNumber` (its `observe`, one `eth_call` at that block: no older state is read). When the pool's
 * observations do not reach that far back (`OLD`: its observation cardinality is too small for its traffic),
 * over as far as they reach; undefined when that is under a second. Other RPC errors pass through.
 */
export async function readPoolOracle(
  chain: PublicClient,
  p: UtilPool,
  blockNumber: bigint,
  windowSec: number,
): Promise<PoolOracleReading | undefined> {
  const observe = (seconds: number) =>
    chain.readContract({
      address: p.pool,
      abi: oracleAbi,
      functionName: 'observe',
      args: [[seconds, 0]],
      blockNumber,
    })
  let seconds = windowSec
  let answer: Awaited<ReturnType<typeof observe>>
  try {
    answer = await observe(seconds)
  } catch (err) {
    if (!isOld(err)) throw err
    seconds = await reach(chain, p, blockNumber)
    if (seconds < 1) return undefined
    answer = await observe(seconds)
  }
  const [[tickThen, tickNow], [splThen, splNow]] = answer as unknown as [[bigint, bigint], [bigint, bigint]]
  const delta = tickNow - tickThen
  const span = BigInt(seconds)
  // Floor division for a negative delta too.
  const meanTick = Number(delta / span - (delta % span !== 0n && delta < 0n ? 1n : 0n))
  const perLiquidity = splNow - splThen
  const harmonicLiquidity = perLiquidity === 0n ? 0n : (span << 128n) / perLiquidity
  return { seconds, meanTick, harmonicLiquidity }
}

function isOld(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError)
  return reverted instanceof ContractFunctionRevertedError && reverted.reason === 'OLD'
}

/** How many seconds before the block the pool's oldest observation lies. */
async function reach(chain: PublicClient, p: UtilPool, blockNumber: bigint): Promise<number> {
  const read = { address: p.pool, abi: oracleAbi, blockNumber } as const
  const [slot0, block] = await Promise.all([
    chain.readContract({ ...read, functionName: 'slot0' }),
    chain.getBlock({ blockNumber }),
  ])
  const [, , index, cardinality] = slot0
  // The slot after the newest is the oldest once the ring has wrapped; before that, slot 0 is.
  let oldest = await chain.readContract({
    ...read,
    functionName: 'observations',
    args: [BigInt((index + 1) % cardinality)],
  })
  if (!oldest[3]) oldest = await chain.readContract({ ...read, functionName: 'observations', args: [0n] })
  return Number(block.timestamp) - oldest[0]
}
