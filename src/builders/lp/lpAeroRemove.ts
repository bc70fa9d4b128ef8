import { type Address, encodeFunctionData, erc20Abi } from 'viem'
import { z } from 'zod'
import { minOutAfterSlippage } from '../../analytics/minOutAfterSlippage.js'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { address, atomicAmount, positiveAtomicAmount } from '../../chain/fields.js'
import { multiRead, viewCall } from '../../chain/multiRead.js'
import { aerodromePoolFactoryAbi, multicall3BlockFactsAbi } from '../../chain/swapVenueAbis.js'
import { approveIfShort } from '../approveIfShort.js'
import { owner, slippageBpsBody } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { required } from '../required.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { aerodromeLiquidityAbi, lpRevertAbi } from './lpAbis.js'
import { aeroPool } from './lpAeroAdd.js'
import { aeroPair, aeroPairFields, type NativeSide, nativeSide, watchedSide } from './lpAeroPair.js'

const ROUTER = BASE_ADDRESSES.AerodromeRouter
const FACTORY = BASE_ADDRESSES.AerodromePoolFactory

export const aeroRemoveBody = z.strictObject({
  ...aeroPairFields,
  liquidity: positiveAtomicAmount.describe('LP tokens to burn, atomic (18 decimals)'),
  owner,
  slippageBps: slippageBpsBody(),
})

export type AeroRemoveBody = z.output<typeof aeroRemoveBody>

export const aeroRemoveAction = {
  type: z.literal('aeroRemove'),
  pool: address.describe('The volatile pool, which is also the LP token'),
  nativeSide,
  amountA: atomicAmount.describe('tokenA paid out at the quote'),
  amountB: atomicAmount.describe('tokenB paid out at the quote'),
  amountAMin: atomicAmount.describe('Least tokenA the remove may pay (slippage floor)'),
  amountBMin: atomicAmount.describe('Least tokenB the remove may pay (slippage floor)'),
}

export type AeroRemoveAction = ActionOf<typeof aeroRemoveAction>

interface AeroRemoveArgs {
  tokenA: Address
  tokenB: Address
  liquidity: bigint
  amountAMin: bigint
  amountBMin: bigint
  owner: Address
  deadline: bigint
  poolSymbol: string
}

/**
 * Pure: Router.removeLiquidity(tokenA, tokenB, stable = false, liquidity, mins, to = owner, deadline), or
 * with one side native ETH, removeLiquidityETH(token, false, liquidity, tokenMin, ethMin, owner, deadline)
 * (the router unwraps the pool's WETH and sends ETH to owner).
 */
export function encodeAeroRemove(r: AeroRemoveArgs, nativeSide: NativeSide): TxStep {
  if (nativeSide !== null) {
    const eth = nativeSide === 'tokenA'
    const [token, tokenMin, ethMin] = eth
      ? [r.tokenB, r.amountBMin, r.amountAMin]
      : [r.tokenA, r.amountAMin, r.amountBMin]
    return {
      to: ROUTER,
      data: encodeFunctionData({
        abi: aerodromeLiquidityAbi,
        functionName: 'removeLiquidityETH',
        args: [token, false, r.liquidity, tokenMin, ethMin, r.owner, r.deadline],
      }),
      value: 0n,
      description: `Remove ${r.liquidity} LP from ${r.poolSymbol}, the WETH side paid as ETH`,
    }
  }
  return {
    to: ROUTER,
    data: encodeFunctionData({
      abi: aerodromeLiquidityAbi,
      functionName: 'removeLiquidity',
      args: [r.tokenA, r.tokenB, false, r.liquidity, r.amountAMin, r.amountBMin, r.owner, r.deadline],
    }),
    value: 0n,
    description: `Remove ${r.liquidity} LP from ${r.poolSymbol}`,
  }
}

/**
 * POST /v1/tx/lp/aero/remove: the factory's volatile pool of the pair (two listed tokens; its LP token is
 * the pool itself, the approve target), then at the same block the router's quoteRemoveLiquidity and the
 * owner's LP balance and allowance to the router. Mins are the quote less slippageBps; deadline =
 * expiresAt. Two multicalls: the LP token's address comes from the first.
 *
 * Why the pool may be a target although it is not in the static address book: anyone can create an
 * Aerodrome pool, but only for the pair given, only through the listed factory (getPool reports only pools
 * it created, all clones of its own implementation), and only when both tokens are listed. A pool address
 * from the caller is never taken: it is derived from the pair.
 */
export async function buildAeroRemove(
  engine: BuilderEngine,
  body: AeroRemoveBody,
): Promise<BuilderEnvelope<AeroRemoveAction>> {
  const pair = aeroPair(engine.book, body)
  const { tokenA, tokenB } = pair
  const { owner, liquidity } = body
  const quotedAt = engine.nowSec()
  const expiresAt = quotedAt + BUILD_TTL_SEC
  const first = await multiRead(engine.chain, {
    block: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockFactsAbi, 'getBlockNumber', [])],
    pool: [viewCall(FACTORY, aerodromePoolFactoryAbi, 'getPool', [tokenA, tokenB, false])],
  })
  const pool = aeroPool(first.pool[0], tokenA, tokenB)
  const block = required(first.block[0], 'the block number')
  const read = await multiRead(
    engine.chain,
    {
      quote: [
        viewCall(ROUTER, aerodromeLiquidityAbi, 'quoteRemoveLiquidity', [
          tokenA,
          tokenB,
          false,
          FACTORY,
          liquidity,
        ]),
      ],
      balance: [viewCall(pool, erc20Abi, 'balanceOf', [owner])],
      allowance: [viewCall(pool, erc20Abi, 'allowance', [owner, ROUTER])],
      symbol: [viewCall(pool, erc20Abi, 'symbol', [])],
    },
    block,
  )
  const lp = { address: pool, symbol: read.symbol[0] ?? 'Aerodrome LP', decimals: 18 }
  assertBalance('liquidity', lp, required(read.balance[0], 'the LP balance'), liquidity)
  const [amountA, amountB] = required(read.quote[0], 'the router’s quoteRemoveLiquidity')
  if (amountA === 0n || amountB === 0n)
    throw new BuildRefusedError(
      'amounts_too_small',
      `${liquidity} LP of ${lp.symbol} returns nothing on one side at the pool’s reserves (the pool burns such dust with InsufficientLiquidityBurned).`,
      'liquidity',
    )
  const amountAMin = minOutAfterSlippage(amountA, body.slippageBps)
  const amountBMin = minOutAfterSlippage(amountB, body.slippageBps)
  const approval = approveIfShort({
    token: pool,
    spender: ROUTER,
    needed: liquidity,
    allowance: required(read.allowance[0], 'the LP allowance'),
    label: `${liquidity} ${lp.symbol} LP`,
    spenderName: 'the Aerodrome router',
  })
  return engine.finish({
    owner,
    atBlock: block,
    steps: [
      ...approval.steps,
      encodeAeroRemove(
        {
          tokenA,
          tokenB,
          liquidity,
          amountAMin,
          amountBMin,
          owner,
          deadline: BigInt(expiresAt),
          poolSymbol: lp.symbol,
        },
        pair.nativeSide,
      ),
    ],
    watch: [watchedSide(pair, 'tokenA'), watchedSide(pair, 'tokenB'), pool],
    issues: { balance: null, allowance: approval.issue },
    action: {
      type: 'aeroRemove',
      pool,
      nativeSide: pair.nativeSide,
      amountA: amountA.toString(),
      amountB: amountB.toString(),
      amountAMin: amountAMin.toString(),
      amountBMin: amountBMin.toString(),
    },
    revertAbi: lpRevertAbi,
    confirmedTargets: [pool],
    quotedAt,
    expiresAt,
  })
}
