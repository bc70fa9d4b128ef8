import { getAddress } from 'viem'
import { z } from 'zod'
import { address, atomicAmount, positiveAtomicAmount, tokenOrNative, wallet } from '../../chain/fields.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { InvalidInputError, UpstreamError } from '../../errors.js'
import type { ZeroEx } from '../../market/upstreams/zeroEx.js'
import { slippageBpsBody } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { UnlistedTargetError } from '../builderErrors.js'
import type { ActionOf, BalanceChange, BuilderEnvelope } from '../txStep.js'
import { planDirectSwap } from './swapDirect.js'
import { isNative, type SwapPlan, type SwapRequest } from './swapState.js'
import { planZeroExSwap } from './swapZeroEx.js'

export const swapBody = z.strictObject({
  fromToken: tokenOrNative,
  toToken: tokenOrNative,
  fromAmount: positiveAtomicAmount,
  taker: wallet.describe('Pays fromToken, sends the steps, receives toToken'),
  signerAddress: wallet.optional().describe('Smart wallets: the EOA that signs (0x txOrigin)'),
  slippageBps: slippageBpsBody(),
})

export type SwapBody = z.output<typeof swapBody>

export const swapAction = {
  type: z.literal('swap'),
  quotedBy: z.enum(['0x', 'onchain']),
  expectedOut: atomicAmount,
  minOut: atomicAmount.describe('The swap reverts below it'),
  route: z.array(
    z.object({ source: z.string(), from: address, to: address, proportionBps: z.number().int() }),
  ),
  zid: z.string().nullable(),
  signingPayload: z.null(),
}

export type SwapAction = ActionOf<typeof swapAction>

/**
 * POST /v1/tx/swap: `fromAmount` of `fromToken` into `toToken` for `taker`, through the 0x Swap API's
 * allowance-holder quote when the service has a 0x key, else the best Uniswap v3 / Aerodrome pool read
 * directly. Both tokens must be in the address book (or ETH's sentinel): a swap never touches a token the
 * service has not listed.
 */
export async function buildSwap(
  engine: BuilderEngine,
  zeroEx: ZeroEx | null,
  body: SwapBody,
): Promise<BuilderEnvelope<SwapAction>> {
  const fromToken = getAddress(body.fromToken)
  const toToken = getAddress(body.toToken)
  if (fromToken === toToken)
    throw new InvalidInputError(
      'toToken',
      'body field "toToken" must differ from fromToken: there is nothing to swap.',
    )
  if (!isNative(fromToken) && !engine.book.has(fromToken))
    throw new UnlistedTargetError(fromToken, 'fromToken')
  if (!isNative(toToken) && !engine.book.has(toToken)) throw new UnlistedTargetError(toToken, 'toToken')
  const owner = getAddress(body.taker)
  const quotedAt = engine.nowSec()
  const expiresAt = quotedAt + BUILD_TTL_SEC
  const req: SwapRequest = {
    fromToken,
    toToken,
    amountIn: body.fromAmount,
    owner,
    signer: body.signerAddress === undefined ? null : getAddress(body.signerAddress),
    slippageBps: body.slippageBps,
    expiresAt,
  }
  const plan = zeroEx === null ? await planDirectSwap(engine, req) : await planZeroExSwap(engine, zeroEx, req)
  const envelope = await engine.finish<SwapAction>({
    owner,
    steps: plan.steps,
    watch: [fromToken, toToken],
    // Only fromAmount of fromToken (ETH as the sentinel) leaves the taker, and only the exact approve is
    // granted; a 0x transaction that pulls anything else through a standing allowance is refused.
    outflows: {
      mayLeave: [{ token: fromToken, amount: req.amountIn }],
      mayApprove: plan.grants,
      source: sourceOf(plan),
    },
    issues: { balance: null, allowance: plan.allowanceIssue },
    action: {
      type: 'swap',
      quotedBy: plan.quotedBy,
      expectedOut: plan.expectedOut.toString(),
      minOut: plan.minOut.toString(),
      route: plan.route,
      zid: plan.zid,
      signingPayload: null,
    },
    revertAbi: plan.revertAbi,
    quotedAt,
    expiresAt,
  })
  assertSimulatedOutcome(envelope.simulation.balanceChanges, req, plan)
  return envelope
}

/** Who wrote the swap's calldata: a refusal of its simulated outcome is a 502 naming it. */
const sourceOf = (plan: Pick<SwapPlan, 'quotedBy'>) =>
  plan.quotedBy === '0x' ? '0x Swap API' : CHAIN_UPSTREAM

/**
 * The bundle, as simulated from the taker, must do what the answer says: spend exactly fromAmount of
 * fromToken and pay the taker at least minOut of toToken. A step can pass every static check and still
 * pay someone else (a 0x transaction whose Settler pays another recipient, or one that pulls the approved
 * tokens and delivers nothing): such a bundle is refused as 502 from its source, never handed on (and so
 * never charged). The spend check also covers a taker whose earlier, larger allowance to AllowanceHolder
 * means no approve step caps the pull; spending less than sold is refused too (a quote that does not sell
 * what it says is not the swap asked for). One wei of slack either way: a rebasing listed token (an Aave
 * aToken) moves balances by the amount ±1 from rounding. `balanceChanges` follow `watch`: [fromToken, toToken].
 */
export function assertSimulatedOutcome(
  changes: readonly BalanceChange[],
  req: SwapRequest,
  plan: Pick<SwapPlan, 'minOut' | 'quotedBy'>,
): void {
  const [spent, received] = changes
  const source = sourceOf(plan)
  if (spent === undefined || received === undefined)
    throw new UpstreamError(source, 'the swap simulation reported no balance changes')
  const taken = -BigInt(spent.delta)
  if (taken > req.amountIn + 1n)
    throw new UpstreamError(
      source,
      `the swap, simulated, takes ${taken} of ${req.fromToken} from the taker, more than fromAmount ${req.amountIn}`,
    )
  if (taken < req.amountIn - 1n)
    throw new UpstreamError(
      source,
      `the swap, simulated, takes ${taken} of ${req.fromToken} from the taker, not the fromAmount ${req.amountIn} sold`,
    )
  if (BigInt(received.delta) < plan.minOut)
    throw new UpstreamError(
      source,
      `the swap, simulated, pays the taker ${received.delta} of ${req.toToken}, less than minOut ${plan.minOut}`,
    )
}
