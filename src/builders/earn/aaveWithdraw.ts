import { type Address, encodeFunctionData, erc20Abi, maxUint256 } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { address, atomicAmount, positiveAtomicAmount } from '../../chain/fields.js'
import { multiRead, viewCall } from '../../chain/multiRead.js'
import type { AaveReserveInfo, LendingChain } from '../../market/lendingChain.js'
import { owner } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { required } from '../required.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { aavePoolAbi, finishAave } from './aavePool.js'
import { findAaveReserve } from './findAaveReserve.js'

export const aaveWithdrawBody = z.strictObject({
  asset: address.describe('Underlying token of a listed Aave reserve (USDC, WETH, cbBTC)'),
  amount: z.union([z.literal('max'), positiveAtomicAmount], {
    error: 'must be a positive atomic amount (digits, no leading zeros) or the literal "max".',
  }),
  owner,
})

export type AaveWithdrawBody = z.output<typeof aaveWithdrawBody>

export const aaveWithdrawAction = {
  type: z.literal('aaveWithdraw'),
  asset: address,
  amount: z.string().describe('As requested: atomic digits, or "max"'),
  aToken: address.describe('The reserve’s aToken (receipt token) burned from the owner'),
  expectedAmount: atomicAmount.describe(
    'Atomic `asset` the owner receives: `amount`, or for "max" the aToken balance at the quote (plus the interest accrued until inclusion)',
  ),
  expectedATokenBalanceAfter: atomicAmount.describe(
    'Owner’s aToken balance at the quote − expectedAmount ("0" for "max"); interest accrues on the rest until inclusion',
  ),
}

export type AaveWithdrawAction = ActionOf<typeof aaveWithdrawAction>

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
  const { owner } = body
  const amount = body.amount === 'max' ? null : body.amount
  const reserve = await findAaveReserve(lending, body.asset)
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
      amount: amount === null ? 'max' : amount.toString(),
      aToken: reserve.aToken,
      expectedAmount: withdrawn.toString(),
      expectedATokenBalanceAfter: (aTokenBalance - withdrawn).toString(),
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
