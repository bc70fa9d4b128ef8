import { type Address, encodeFunctionData, erc20Abi, isAddressEqual } from 'viem'
import { z } from 'zod'
import { DEAD_ADDRESS } from '../chain/addresses.js'
import { address, atomicAmount, positiveAtomicAmount } from '../chain/fields.js'
import { CHAIN_UPSTREAM, multiRead, viewCall } from '../chain/multiRead.js'
import { AppError } from '../errors.js'
import type { TokenMeta } from '../market/lendingChain.js'
import { owner } from './bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from './builderEngine.js'
import { assertBalance, BUILDER_FAULTS, BuildRefusedError } from './builderErrors.js'
import { required } from './required.js'
import { tokenLabel } from './tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from './txStep.js'

/**
 * UTIL is not deployed on this network profile (UTIL_TOKEN unset): a lasting property of the deployment,
 * not a fault to retry, hence 501 like a capability not built. Never charged.
 */
export class UtilNotDeployedError extends AppError {
  override readonly name = 'UtilNotDeployedError'
  constructor() {
    super(
      BUILDER_FAULTS.util_not_deployed.status,
      'util_not_deployed',
      'UTIL is not deployed on this network profile (no UTIL_TOKEN configured), so there is nothing to burn. Nothing was charged.',
    )
  }
}

export const burnBody = z.strictObject({
  amount: positiveAtomicAmount.describe('Atomic UTIL (18 decimals), above 0'),
  owner,
})

export type BurnBody = z.output<typeof burnBody>

export const burnAction = {
  type: z.literal('burn'),
  token: address.describe('The UTIL token'),
  burnAddress: address.describe('0x000000000000000000000000000000000000dEaD, where burned UTIL goes'),
  amount: atomicAmount.describe('Atomic UTIL burned, as requested'),
  totalSupply: atomicAmount.describe('UTIL totalSupply(): fixed, a burn does not change it'),
  burnedAfter: atomicAmount.describe('balanceOf(0x…dEaD) after this burn: all UTIL ever burned'),
  supplyAfter: atomicAmount.describe(
    'Circulating supply after this burn: totalSupply − burnedAfter (read at the quote)',
  ),
}

export type BurnAction = ActionOf<typeof burnAction>

/** The live state a burn needs, read in one multicall. */
export interface BurnState {
  util: TokenMeta
  balance: bigint
  totalSupply: bigint
  /** What the dead address already holds: everything burned so far. */
  burned: bigint
}

/** Pure: `transfer(0x…dEaD, amount)`: UTIL has no burn function; the dead address is where burns go. */
export function encodeBurn(p: { util: TokenMeta; amount: bigint }): TxStep {
  return {
    to: p.util.address,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [DEAD_ADDRESS, p.amount] }),
    value: 0n,
    description: `Transfer ${tokenLabel(p.amount, p.util)} to the dead address (burn)`,
  }
}

export async function buildBurn(
  engine: BuilderEngine,
  utilToken: Address | null,
  body: BurnBody,
): Promise<BuilderEnvelope<BurnAction>> {
  if (utilToken === null) throw new UtilNotDeployedError()
  const { owner, amount } = body
  // A transfer from the dead address to itself would burn nothing (and nobody holds its key).
  if (isAddressEqual(owner, DEAD_ADDRESS))
    throw new BuildRefusedError('owner_is_burn_address', 'The owner is the dead address itself.', 'owner')
  const quotedAt = engine.nowSec()
  const r = await multiRead(engine.chain, {
    symbol: [viewCall(utilToken, erc20Abi, 'symbol', [])],
    decimals: [viewCall(utilToken, erc20Abi, 'decimals', [])],
    balance: [viewCall(utilToken, erc20Abi, 'balanceOf', [owner])],
    totalSupply: [viewCall(utilToken, erc20Abi, 'totalSupply', [])],
    burned: [viewCall(utilToken, erc20Abi, 'balanceOf', [DEAD_ADDRESS])],
  })
  const state: BurnState = {
    util: {
      address: utilToken,
      symbol: required(r.symbol[0], 'the UTIL symbol'),
      decimals: required(r.decimals[0], 'the UTIL decimals'),
    },
    balance: required(r.balance[0], 'the UTIL balance'),
    totalSupply: required(r.totalSupply[0], 'the UTIL totalSupply'),
    burned: required(r.burned[0], 'the UTIL balance of the dead address'),
  }
  assertBalance('amount', state.util, state.balance, amount)
  const burnedAfter = state.burned + amount
  return engine.finish({
    owner,
    steps: [encodeBurn({ util: state.util, amount })],
    watch: [utilToken],
    // Only the UTIL burned leaves the owner's wallet (assertOutflows).
    outflows: { mayLeave: [{ token: utilToken, amount }], mayApprove: [], source: CHAIN_UPSTREAM },
    issues: { balance: null, allowance: null },
    action: {
      type: 'burn',
      token: utilToken,
      burnAddress: DEAD_ADDRESS,
      amount: amount.toString(),
      totalSupply: state.totalSupply.toString(),
      burnedAfter: burnedAfter.toString(),
      // totalSupply never shrinks (a burn is a transfer): what burning reduces is the circulating supply.
      supplyAfter: (state.totalSupply - burnedAfter).toString(),
    },
    quotedAt,
    expiresAt: quotedAt + BUILD_TTL_SEC,
  })
}
