import { type Address, encodeFunctionData, erc20Abi } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { address, atomicAmount, positiveAtomicAmount } from '../../chain/fields.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../../chain/multiRead.js'
import type { AaveReserveInfo, LendingChain } from '../../market/lendingChain.js'
import { approveIfShort } from '../approveIfShort.js'
import { grantsOf } from '../assertOutflows.js'
import { owner } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance } from '../builderErrors.js'
import { required } from '../required.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { aavePoolAbi, finishAave } from './aavePool.js'
import { findAaveReserve } from './findAaveReserve.js'

const POOL = BASE_ADDRESSES.AavePool

export const aaveSupplyBody = z.strictObject({
  asset: address.describe('Underlying token of a listed Aave reserve (USDC, WETH, cbBTC)'),
  amount: positiveAtomicAmount.describe('Atomic amount of `asset` to supply'),
  owner,
})

export type AaveSupplyBody = z.output<typeof aaveSupplyBody>

export const aaveSupplyAction = {
  type: z.literal('aaveSupply'),
  asset: address,
  amount: atomicAmount.describe('Atomic amount supplied, as requested'),
  aToken: address.describe('The reserve’s aToken (receipt token) minted to the owner'),
  expectedATokenBalanceAfter: atomicAmount.describe(
    'Owner’s aToken balance at the quote + `amount`: Aave’s scaled balances round the mint by up to 1 wei, and interest accrues until inclusion',
  ),
}

export type AaveSupplyAction = ActionOf<typeof aaveSupplyAction>

/** The live state a supply needs, read in one multicall. */
export interface AaveSupplyState {
  reserve: AaveReserveInfo
  allowance: bigint
  balance: bigint
  aTokenBalance: bigint
}

/**
 * Pure: approve (only when short, exactly `amount`, to the Pool that pulls it) then
 * `supply(asset, amount, onBehalfOf = owner, referralCode 0)`: the owner's aTokens are minted to it.
 */
export function encodeAaveSupply(p: { state: AaveSupplyState; amount: bigint; owner: Address }) {
  const { asset } = p.state.reserve
  const label = tokenLabel(p.amount, asset)
  const approve = approveIfShort({
    token: asset.address,
    spender: POOL,
    needed: p.amount,
    allowance: p.state.allowance,
    label,
    spenderName: 'the Aave v3 Pool',
  })
  const supply: TxStep = {
    to: POOL,
    data: encodeFunctionData({
      abi: aavePoolAbi,
      functionName: 'supply',
      args: [asset.address, p.amount, p.owner, 0],
    }),
    value: 0n,
    description: `Supply ${label} to Aave v3 (receipt: ${p.state.reserve.name})`,
  }
  return { steps: [...approve.steps, supply], allowanceIssue: approve.issue }
}

export async function buildAaveSupply(
  engine: BuilderEngine,
  lending: LendingChain,
  body: AaveSupplyBody,
): Promise<BuilderEnvelope<AaveSupplyAction>> {
  const { owner, amount } = body
  const reserve = await findAaveReserve(lending, body.asset)
  const token = reserve.asset.address
  const quotedAt = engine.nowSec()
  const r = await multiRead(engine.chain, {
    allowance: [viewCall(token, erc20Abi, 'allowance', [owner, POOL])],
    balance: [viewCall(token, erc20Abi, 'balanceOf', [owner])],
    aToken: [viewCall(reserve.aToken, erc20Abi, 'balanceOf', [owner])],
  })
  const state: AaveSupplyState = {
    reserve,
    allowance: required(r.allowance[0], `the ${reserve.asset.symbol} allowance`),
    balance: required(r.balance[0], `the ${reserve.asset.symbol} balance`),
    aTokenBalance: required(r.aToken[0], `the ${reserve.name} balance`),
  }
  assertBalance('amount', reserve.asset, state.balance, amount)
  const { steps, allowanceIssue } = encodeAaveSupply({ state, amount, owner })
  return finishAave(engine, {
    owner,
    steps,
    watch: [token, reserve.aToken],
    // Only the amount supplied leaves the owner's wallet, and only the exact approve is granted.
    outflows: { mayLeave: [{ token, amount }], mayApprove: grantsOf(allowanceIssue), source: CHAIN_UPSTREAM },
    issues: { balance: null, allowance: allowanceIssue },
    action: {
      type: 'aaveSupply',
      asset: token,
      amount: amount.toString(),
      aToken: reserve.aToken,
      // aTokens are scaled balances: the mint rounds by at most 1 wei, and interest accrues until inclusion.
      expectedATokenBalanceAfter: (state.aTokenBalance + amount).toString(),
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
