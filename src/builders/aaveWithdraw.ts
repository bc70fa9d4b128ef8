import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { multiRead, viewCall } from '../chain/multiRead.js'
import type { AaveReserveInfo, LendingChain } from '../market/lendingChain.js'
import { aavePoolAbi, finishAave } from './aavePool.js'
import { BUILD_TTL_SEC, type BuilderEngine } from './builderEngine.js'
import { assertBalance, BuildRefusedError } from './builderErrors.js'
import { findAaveReserve } from './findAaveReserve.js'
import { required } from './required.js'
import { tokenLabel } from './tokenLabel.js'
import type { BuilderEnvelope, TxStep } from './txStep.js'

export interface AaveWithdrawBody {
  asset: string
  /** Atomic, or "max" for the whole aToken balance at inclusion. */
  amount: string
  owner: string
}

export interface AaveWithdrawAction {
  type: 'aaveWithdraw'
  asset: Address
  amount: string
  aToken: Address
  expectedAmount: string
  expectedATokenBalanceAfter: string
}

/**
 * Pure: `withdraw(asset, amount, to = owner)`; `null` amount = type(uint256).max, which the Pool resolves
 * to the owner's whole aToken balance at execution (interest included, no dust left).
 */
export function encodeAaveWithdraw(p: {
  reserve: AaveReserveInfo
  amount: bigint | null
  owner: Address
  /** For the description of a max withdraw: the balance at the quote. */
  aTokenBalance: bigint
}): TxStep {
  const { asset } = p.reserve
  return {
    to: BASE_ADDRESSES.AavePool,
    data: encodeFunctionData({
      abi: aavePoolAbi,
      functionName: 'withdraw',
      args: [asset.address, p.amount ?? maxUint256, p.owner],
    }),
    value: 0n,
    description:
      p.amount === null
        ? `Withdraw the whole ${asset.symbol} supply from Aave v3 (about ${tokenLabel(p.aTokenBalance, asset)})`
        : `Withdraw ${tokenLabel(p.amount, asset)} from Aave v3`,
  }
}

export async function buildAaveWithdraw(
  engine: BuilderEngine,
  lending: LendingChain,
  body: AaveWithdrawBody,
): Promise<BuilderEnvelope<AaveWithdrawAction>> {
  const owner = body.owner as Address
  const amount = body.amount === 'max' ? null : BigInt(body.amount)
  const reserve = await findAaveReserve(lending, body.asset as Address)
  const quotedAt = engine.nowSec()
  const r = await multiRead(engine.chain, {
    aToken: [viewCall(reserve.aToken, erc20Abi, 'balanceOf', [owner])],
  })
  const aTokenBalance = required(r.aToken[0], `the ${reserve.name} balance`)
  // The Pool reverts on more than the balance (and on "max" of nothing): say so before simulating.
  if (amount === null && aTokenBalance === 0n)
    throw new BuildRefusedError(
      'nothing_to_withdraw',
      `The owner has no ${reserve.asset.symbol} supplied to Aave (${reserve.name} balance 0).`,
      'amount',
      { aToken: reserve.aToken, aTokenBalance: '0' },
    )
  if (amount !== null)
    assertBalance('amount', { address: reserve.aToken, symbol: reserve.name }, aTokenBalance, amount)
  const withdrawn = amount ?? aTokenBalance
  return finishAave(engine, {
    owner,
    steps: [encodeAaveWithdraw({ reserve, amount, owner, aTokenBalance })],
    watch: [reserve.asset.address, reserve.aToken],
    issues: { balance: null, allowance: null },
    action: {
      type: 'aaveWithdraw',
      asset: reserve.asset.address,
      amount: body.amount,
      aToken: reserve.aToken,
      expectedAmount: withdrawn.toString(),
      expectedATokenBalanceAfter: (aTokenBalance - withdrawn).toString(),
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
