import { type Address, maxUint256, parseAbi } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { constantProductSteer } from './constantProductSteer.js'
import { approve, ensureDeployerBalance } from './deploy/tokens.js'
import type { DeployContext } from './deployContext.js'

const feedAbi = parseAbi([
  'function setAnswer(int256 answer)',
  'function latestAnswer() view returns (int256)',
])
const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
])
const aerodromePoolAbi = parseAbi([
  'function getReserves() view returns (uint256 reserve0, uint256 reserve1, uint256 blockTimestampLast)',
])
const aerodromeRouterAbi = parseAbi([
  'struct Route { address from; address to; bool stable; address factory; }',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, Route[] routes, address to, uint256 deadline) returns (uint256[] amounts)',
])
const routerAbi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
])

/** A Chainlink-style feed (8 decimals) that follows one simulator symbol. */
export interface PushedFeed {
  address: Address
  usd: () => number
}

/** A Uniswap v3 pool kept near the reference price of its two tokens. */
export interface NudgedPool {
  pool: Address
  fee: number
  token0: { address: Address; decimals: number; usd: () => number }
  token1: { address: Address; decimals: number; usd: () => number }
}

/** An Aerodrome volatile (x·y = k) pool kept near the reference price of its two tokens. */
export interface NudgedAerodromePool {
  pool: Address
  /** The pool's swap fee in bps of the input (PoolFactory.getFee), kept in the reserves by the stand-in. */
  feeBps: number
  token0: NudgedPool['token0']
  token1: NudgedPool['token1']
}

/** Default wander of each pool around the reference: ±0.4 %. */
export const PUSHER_MAX_OFFSET = 0.004
/** Default drift a pool may keep before it is swapped back (relative price gap): 0.1 %. */
export const PUSHER_TOLERANCE = 0.001
/**
 * Right after a push, each pool's mid price is within maxOffset + tolerance of the reference the feeds
 * carry, so two venues of one pair are at most twice that apart (1 % with the defaults).
 */
export const PUSHER_MAX_VENUE_GAP = 2 * (PUSHER_MAX_OFFSET + PUSHER_TOLERANCE)

export interface PricePusherOptions {
  ctx: DeployContext
  feeds: readonly PushedFeed[]
  pools: readonly NudgedPool[]
  /** Aerodrome volatile pools, steered by real swaps through the Aerodrome router. */
  aerodromePools?: readonly NudgedAerodromePool[]
  /**
   * Pools are steered to reference × (1 + offset), with offset wandering in ±maxOffset, so they sit
   * near but not at the reference and cross-venue routes sometimes exist.
   */
  maxOffset?: number
  /** Smallest relative gap worth a swap. */
  tolerance?: number
}

export interface PricePusher {
  /** One round: write every feed, nudge every pool that drifted. */
  push(): Promise<{ feeds: number; swaps: number }>
  start(intervalMs: number): void
  stop(): Promise<void>
}

/**
 * Moves the devnet's onchain prices with the market simulator. Feeds are written as they are; pools are
 * moved by real swaps from the deployer with a sqrtPriceLimit at the target, so liquidity and events
 * stay genuine.
 */
export function createPricePusher(options: PricePusherOptions): PricePusher {
  const { ctx } = options
  const maxOffset = options.maxOffset ?? PUSHER_MAX_OFFSET
  const tolerance = options.tolerance ?? PUSHER_TOLERANCE
  const aerodromePools = options.aerodromePools ?? []
  let prepared = false
  let round = 0
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> = Promise.resolve()

  async function prepare(): Promise<void> {
    if (prepared) return
    const tokens = new Set(options.pools.flatMap((p) => [p.token0.address, p.token1.address]))
    for (const token of tokens) await approve(ctx, token, BASE_ADDRESSES.SwapRouter02, maxUint256)
    const aeroTokens = new Set(aerodromePools.flatMap((p) => [p.token0.address, p.token1.address]))
    for (const token of aeroTokens) await approve(ctx, token, BASE_ADDRESSES.AerodromeRouter, maxUint256)
    prepared = true
  }

  async function push(): Promise<{ feeds: number; swaps: number }> {
    await prepare()
    round++
    for (const feed of options.feeds) {
      const answer = BigInt(Math.round(feed.usd() * 1e8))
      await ctx.write({ address: feed.address, abi: feedAbi, functionName: 'setAnswer', args: [answer] })
    }
    let swaps = 0
    for (const [i, p] of options.pools.entries()) {
      // A slow deterministic wobble per pool: sin of the round number, phase-shifted per pool.
      const offset = maxOffset * Math.sin(round / 7 + i * 1.3)
      const target = sqrtPriceX96Of(p, 1 + offset)
      const [current] = await ctx.read<readonly [bigint]>({
        address: p.pool,
        abi: poolAbi,
        functionName: 'slot0',
      })
      const gap = Number(target) / Number(current) - 1
      if (Math.abs(gap) < tolerance / 2) continue
      // Raising sqrtP means buying token0 with token1, and the reverse.
      const up = target > current
      const tokenIn = up ? p.token1 : p.token0
      const tokenOut = up ? p.token0 : p.token1
      const amountIn = 10n ** BigInt(tokenIn.decimals + 9)
      await ensureDeployerBalance(ctx, tokenIn.address, amountIn)
      await ctx.write({
        address: BASE_ADDRESSES.SwapRouter02,
        abi: routerAbi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn: tokenIn.address,
            tokenOut: tokenOut.address,
            fee: p.fee,
            recipient: ctx.deployer,
            amountIn,
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: target,
          },
        ],
      })
      swaps++
    }
    for (const [j, p] of aerodromePools.entries()) {
      // The same wobble, phase-shifted past the Uniswap pools, so venues of one pair drift apart and back.
      const offset = maxOffset * Math.sin(round / 7 + (options.pools.length + j) * 1.3)
      if (await steerAerodrome(p, 1 + offset)) swaps++
    }
    return { feeds: options.feeds.length, swaps }
  }

  /**
   * One real swap through the Aerodrome router (fee paid, Swap and Sync emitted) that moves the pool's
   * reserve ratio to the reference × `factor`; nothing when it is already within the tolerance.
   */
  async function steerAerodrome(p: NudgedAerodromePool, factor: number): Promise<boolean> {
    const [reserve0, reserve1] = await ctx.read<readonly [bigint, bigint, bigint]>({
      address: p.pool,
      abi: aerodromePoolAbi,
      functionName: 'getReserves',
    })
    const target = priceOf(p, factor)
    const current = Number(reserve1) / Number(reserve0)
    if (!(current > 0) || Math.abs(target / current - 1) < tolerance) return false
    // token0 too cheap in the pool: buy it with token1; too dear: sell it.
    const up = target > current
    const amountIn = up
      ? constantProductSteer(reserve1, reserve0, target, p.feeBps)
      : constantProductSteer(reserve0, reserve1, 1 / target, p.feeBps)
    if (amountIn === 0n) return false
    const tokenIn = up ? p.token1 : p.token0
    const tokenOut = up ? p.token0 : p.token1
    await ensureDeployerBalance(ctx, tokenIn.address, amountIn)
    await ctx.write({
      address: BASE_ADDRESSES.AerodromeRouter,
      abi: aerodromeRouterAbi,
      functionName: 'swapExactTokensForTokens',
      args: [
        amountIn,
        0n,
        [
          {
            from: tokenIn.address,
            to: tokenOut.address,
            stable: false,
            factory: BASE_ADDRESSES.AerodromePoolFactory,
          },
        ],
        ctx.deployer,
        maxUint256,
      ],
    })
    return true
  }

  return {
    push: () => {
      const next = running.then(push)
      running = next.catch(() => undefined)
      return next
    },
    start(intervalMs) {
      timer = setInterval(() => {
        running = running.then(push).catch(() => undefined)
      }, intervalMs)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      await running
    },
  }
}

/** Price of token0 in token1 (atomic units), for the reference prices times `factor`. */
function priceOf(p: Pick<NudgedPool, 'token0' | 'token1'>, factor: number): number {
  return ((p.token0.usd() / p.token1.usd()) * factor * 10 ** p.token1.decimals) / 10 ** p.token0.decimals
}

/** sqrt(price of token0 in token1, atomic units) × 2^96, for the reference prices times `factor`. */
function sqrtPriceX96Of(p: NudgedPool, factor: number): bigint {
  return BigInt(Math.floor(Math.sqrt(priceOf(p, factor)) * 2 ** 48)) * 2n ** 48n
}
