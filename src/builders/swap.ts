import { getAddress } from 'viem'
import { InvalidInputError } from '../errors.js'
import type { SwapFill } from '../market/swapQuoteSource.js'
import type { ZeroEx } from '../market/upstreams/zeroEx.js'
import { BUILD_TTL_SEC, type BuilderEngine } from './builderEngine.js'
import { UnlistedTargetError } from './builderErrors.js'
import { planDirectSwap } from './swapDirect.js'
import { isNative, type SwapRequest } from './swapState.js'
import { planZeroExSwap } from './swapZeroEx.js'
import type { BuilderEnvelope } from './txStep.js'

export interface SwapBody {
  fromToken: string
  toToken: string
  fromAmount: string
  taker: string
  signerAddress?: string | undefined
  slippageBps: number
}

export interface SwapAction {
  type: 'swap'
  /** `0x`: the 0x Swap API's allowance-holder quote; `onchain`: a pool read and encoded directly. */
  quotedBy: '0x' | 'onchain'
  expectedOut: string
  minOut: string
  route: SwapFill[]
  zid: string | null
  /** Always null: the allowance-holder flow and the direct routers need no signature. */
  signingPayload: null
}

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
    amountIn: BigInt(body.fromAmount),
    owner,
    signer: body.signerAddress === undefined ? null : getAddress(body.signerAddress),
    slippageBps: body.slippageBps,
    expiresAt,
  }
  const plan = zeroEx === null ? await planDirectSwap(engine, req) : await planZeroExSwap(engine, zeroEx, req)
  return engine.finish({
    owner,
    steps: plan.steps,
    watch: [fromToken, toToken],
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
}
