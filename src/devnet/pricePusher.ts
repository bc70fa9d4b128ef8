import { type Address, maxUint256, parseAbi } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { approve, ensureDeployerBalance } from './deploy/tokens.js'
import type { DeployContext } from './deployContext.js'

const feedAbi = parseAbi([
  'function setAnswer(int256 answer)',
  'function latestAnswer() view returns (int256)',
])
const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
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

export interface PricePusherOptions {
  ctx: DeployContext
  feeds: readonly PushedFeed[]
  pools: readonly NudgedPool[]
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
  const maxOffset = options.maxOffset ?? 0.004
  const tolerance = options.tolerance ?? 0.001
  let prepared = false
  let round = 0
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> = Promise.resolve()

  async function prepare(): Promise<void> {
    if (prepared) return
    const tokens = new Set(options.pools.flatMap((p) => [p.token0.address, p.token1.address]))
    for (const token of tokens) await approve(ctx, token, BASE_ADDRESSES.SwapRouter02, maxUint256)
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
    return { feeds: options.feeds.length, swaps }
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

/** sqrt(price of token0 in token1, atomic units) × 2^96, for the reference prices times `factor`. */
function sqrtPriceX96Of(p: NudgedPool, factor: number): bigint {
  const price =
    ((p.token0.usd() / p.token1.usd()) * factor * 10 ** p.token1.decimals) / 10 ** p.token0.decimals
  return BigInt(Math.floor(Math.sqrt(price) * 2 ** 48)) * 2n ** 48n
}
