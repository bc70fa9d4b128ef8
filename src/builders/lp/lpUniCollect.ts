import { type Address, encodeFunctionData, type Hex } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { address, atomicAmount, nftTokenId, nftTokenIdDigits } from '../../chain/fields.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { owner } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { lpRevertAbi, positionManagerAbi } from './lpAbis.js'
import { readUniPosition } from './lpUniPosition.js'

const NPM = BASE_ADDRESSES.NonfungiblePositionManager
/** collect's "everything owed": type(uint128).max. */
export const MAX_UINT128 = (1n << 128n) - 1n

export const uniCollectBody = z.strictObject({ tokenId: nftTokenId, owner })

export type UniCollectBody = z.output<typeof uniCollectBody>

export const uniCollectAction = {
  type: z.literal('uniCollect'),
  tokenId: nftTokenIdDigits,
  token0: address.describe('The pool’s token0'),
  token1: address.describe('The pool’s token1'),
  fees0: atomicAmount.describe('token0 fees owed at the quote'),
  fees1: atomicAmount.describe('token1 fees owed at the quote'),
}

export type UniCollectAction = ActionOf<typeof uniCollectAction>

/** Pure: the calldata of `collect(tokenId, recipient, max, max)`: every fee owed, paid to `recipient`. */
export function collectCall(tokenId: bigint, recipient: Address): Hex {
  return encodeFunctionData({
    abi: positionManagerAbi,
    functionName: 'collect',
    args: [{ tokenId, recipient, amount0Max: MAX_UINT128, amount1Max: MAX_UINT128 }],
  })
}

/** Pure: the collect step alone. */
export function encodeUniCollect(tokenId: bigint, recipient: Address): TxStep {
  return {
    to: NPM,
    data: collectCall(tokenId, recipient),
    value: 0n,
    description: `Collect the fees of position ${tokenId}`,
  }
}

/**
 * POST /v1/tx/lp/uni/collect: the fees owed (tokensOwed plus the fee growth inside the range since the
 * position's snapshot, computed from the pool's ticks and global growth as the NPM's collect does) paid to
 * the owner; the liquidity stays.
 */
export async function buildUniCollect(
  engine: BuilderEngine,
  body: UniCollectBody,
): Promise<BuilderEnvelope<UniCollectAction>> {
  const { owner, tokenId } = body
  const quotedAt = engine.nowSec()
  const position = await readUniPosition(engine, tokenId, owner)
  return engine.finish({
    owner,
    atBlock: position.blockNumber,
    steps: [encodeUniCollect(tokenId, owner)],
    watch: [position.token0.address, position.token1.address],
    // Nothing leaves the owner's wallet in this bundle: any token that would is refused (assertOutflows).
    outflows: { mayLeave: [], mayApprove: [], source: CHAIN_UPSTREAM },
    issues: { balance: null, allowance: null },
    action: {
      type: 'uniCollect',
      tokenId: tokenId.toString(),
      token0: position.token0.address,
      token1: position.token1.address,
      fees0: position.fees0.toString(),
      fees1: position.fees1.toString(),
    },
    revertAbi: lpRevertAbi,
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
