import { type Address, encodeFunctionData, type Hex } from 'viem'
import { z } from 'zod'
import { minOutAfterSlippage } from '../../analytics/minOutAfterSlippage.js'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { address, atomicAmount, atomicAmountInput, nftTokenId, nftTokenIdDigits } from '../../chain/fields.js'
import { owner, slippageBpsBody } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError } from '../builderErrors.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { lpRevertAbi, positionManagerAbi } from './lpAbis.js'
import { collectCall, encodeUniCollect } from './lpUniCollect.js'
import { amountsForLiquidity } from './lpUniMath.js'
import { readUniPosition } from './lpUniPosition.js'

const NPM = BASE_ADDRESSES.NonfungiblePositionManager

export const uniRemoveBody = z.strictObject({
  tokenId: nftTokenId,
  liquidity: atomicAmountInput.describe('uint128 liquidity to remove; "0" collects fees only'),
  owner,
  slippageBps: slippageBpsBody(),
  burn: z
    .boolean()
    .default(false)
    .describe('Burn the NFT after a full removal (liquidity must be all of it); default false'),
})

export type UniRemoveBody = z.output<typeof uniRemoveBody>

export const uniRemoveAction = {
  type: z.literal('uniRemove'),
  tokenId: nftTokenIdDigits,
  liquidity: atomicAmount.describe('Liquidity removed'),
  token0: address.describe('The pool’s token0'),
  token1: address.describe('The pool’s token1'),
  amount0: atomicAmount.describe('token0 freed by the decrease at the quote (fees excluded)'),
  amount1: atomicAmount.describe('token1 freed by the decrease at the quote (fees excluded)'),
  amount0Min: atomicAmount.describe('Least token0 the decrease may free (slippage floor)'),
  amount1Min: atomicAmount.describe('Least token1 the decrease may free (slippage floor)'),
  fees0: atomicAmount.describe('token0 fees owed at the quote, paid by the same collect'),
  fees1: atomicAmount.describe('token1 fees owed at the quote, paid by the same collect'),
  liquidityAfter: atomicAmount.describe('The position’s liquidity after the step'),
  burned: z.boolean().describe('Whether the step burns the NFT'),
}

export type UniRemoveAction = ActionOf<typeof uniRemoveAction>

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
  const { owner, tokenId, liquidity } = body
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
      tokenId: tokenId.toString(),
      liquidity: liquidity.toString(),
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
