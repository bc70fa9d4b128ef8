import { type Address, encodeFunctionData, type Hex } from 'viem'
import { minOutAfterSlippage } from '../analytics/minOutAfterSlippage.js'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { BUILD_TTL_SEC, type BuilderEngine } from './builderEngine.js'
import { BuildRefusedError } from './builderErrors.js'
import { lpRevertAbi, positionManagerAbi } from './lpAbis.js'
import { collectCall, encodeUniCollect } from './lpUniCollect.js'
import { amountsForLiquidity } from './lpUniMath.js'
import { readUniPosition } from './lpUniPosition.js'
import type { BuilderEnvelope, TxStep } from './txStep.js'

const NPM = BASE_ADDRESSES.NonfungiblePositionManager

export interface UniRemoveBody {
  tokenId: string
  liquidity: string
  owner: string
  slippageBps: number
  burn: boolean
}

export interface UniRemoveAction {
  type: 'uniRemove'
  tokenId: string
  liquidity: string
  token0: Address
  token1: Address
  /** What decreaseLiquidity frees at the quote (the pool rounds down), and its slippage floors. */
  amount0: string
  amount1: string
  amount0Min: string
  amount1Min: string
  /** Fees owed at the quote, paid by the same collect. */
  fees0: string
  fees1: string
  liquidityAfter: string
  burned: boolean
}

export interface RemoveArgs {
  tokenId: bigint
  liquidity: bigint
  amount0Min: bigint
  amount1Min: bigint
  owner: Address
  deadline: bigint
  burn: boolean
}

/**
 * Pure: NPM `multicall([decreaseLiquidity, collect(max, max) to owner, burn?])`. decreaseLiquidity only
 * credits tokensOwed, so collect in the same transaction pays it out; the NPM refuses a decrease of 0,
 * so liquidity 0 is collect alone (fees only), or collect + burn for an already emptied position.
 */
export function encodeUniRemove(r: RemoveArgs): TxStep {
  const calls: Hex[] = []
  if (r.liquidity > 0n)
    calls.push(
      encodeFunctionData({
        abi: positionManagerAbi,
        functionName: 'decreaseLiquidity',
        args: [
          {
            tokenId: r.tokenId,
            liquidity: r.liquidity,
            amount0Min: r.amount0Min,
            amount1Min: r.amount1Min,
            deadline: r.deadline,
          },
        ],
      }),
    )
  if (calls.length === 0 && !r.burn) return encodeUniCollect(r.tokenId, r.owner)
  calls.push(collectCall(r.tokenId, r.owner))
  if (r.burn)
    calls.push(encodeFunctionData({ abi: positionManagerAbi, functionName: 'burn', args: [r.tokenId] }))
  const what =
    r.liquidity > 0n
      ? `Remove ${r.liquidity} liquidity from position ${r.tokenId} and collect`
      : `Collect the fees of position ${r.tokenId}`
  return {
    to: NPM,
    data: encodeFunctionData({ abi: positionManagerAbi, functionName: 'multicall', args: [calls] }),
    value: 0n,
    description: r.burn ? `${what}, then burn the empty position NFT` : what,
  }
}

/**
 * POST /v1/tx/lp/uni/remove: `liquidity` of position `tokenId` out to the owner with the fees owed.
 * Expected amounts follow the pool's current price (what the pool's burn credits, rounded down); mins are
 * those less slippageBps; deadline = expiresAt. `burn: true` also burns the NFT and needs `liquidity` to be
 * the position's whole liquidity.
 */
export async function buildUniRemove(
  engine: BuilderEngine,
  body: UniRemoveBody,
): Promise<BuilderEnvelope<UniRemoveAction>> {
  const owner = body.owner as Address
  const tokenId = BigInt(body.tokenId)
  const liquidity = BigInt(body.liquidity)
  const quotedAt = engine.nowSec()
  const expiresAt = quotedAt + BUILD_TTL_SEC
  const position = await readUniPosition(engine, tokenId, owner)
  if (liquidity > position.liquidity)
    throw new BuildRefusedError(
      'exceeds_position_liquidity',
      `Position ${tokenId} holds ${position.liquidity} liquidity; ${liquidity} cannot be removed.`,
      'liquidity',
      { positionLiquidity: position.liquidity.toString() },
    )
  if (body.burn && liquidity !== position.liquidity)
    throw new BuildRefusedError(
      'burn_needs_full_removal',
      `burn: true closes the position: liquidity must be its whole liquidity, ${position.liquidity}.`,
      'burn',
      { positionLiquidity: position.liquidity.toString() },
    )
  const out = amountsForLiquidity(position.pool, position.tickLower, position.tickUpper, liquidity, false)
  const amount0Min = minOutAfterSlippage(out.amount0, body.slippageBps)
  const amount1Min = minOutAfterSlippage(out.amount1, body.slippageBps)
  return engine.finish({
    owner,
    atBlock: position.blockNumber,
    steps: [
      encodeUniRemove({
        tokenId,
        liquidity,
        amount0Min,
        amount1Min,
        owner,
        deadline: BigInt(expiresAt),
        burn: body.burn,
      }),
    ],
    watch: [position.token0.address, position.token1.address],
    issues: { balance: null, allowance: null },
    action: {
      type: 'uniRemove',
      tokenId: body.tokenId,
      liquidity: body.liquidity,
      token0: position.token0.address,
      token1: position.token1.address,
      amount0: out.amount0.toString(),
      amount1: out.amount1.toString(),
      amount0Min: amount0Min.toString(),
      amount1Min: amount1Min.toString(),
      fees0: position.fees0.toString(),
      fees1: position.fees1.toString(),
      liquidityAfter: (position.liquidity - liquidity).toString(),
      burned: body.burn,
    },
    revertAbi: lpRevertAbi,
    quotedAt,
    expiresAt,
  })
}
