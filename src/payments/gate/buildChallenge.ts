import type { PaymentRequired, PaymentRequirements } from '@x402/core/types'
import { NETWORK, USDC, USDC_EIP712 } from '../../chain/network.js'
import { CREDIT_TERMS } from '../credit/creditRail.js'

/** How long a signed authorization for a quoted amount stays acceptable. */
export const MAX_TIMEOUT_SECONDS = 120

const PLACEHOLDER = '<your-wallet>'

export interface ChallengeInput {
  /** Absolute URL of the requested resource, as the caller sent it. */
  resourceUrl: string
  description: string
  /** Quoted amount in USDC atomic units (6 dp). */
  amount: bigint
  payTo: `0x${string}`
  /** The service's public base URL, for the links in `promote`. */
  publicUrl: string
  /** Where UTIL is sent to buy prepaid credit. */
  creditRecipient: `0x${string}`
  /** The caller's `?ref=` address, when it passed one. */
  ref?: `0x${string}` | undefined
  /** Signed quote (see quoteToken.ts), echoed back by the client so the amount stays payable. */
  quote?: string | undefined
  /** The `batch-settlement` entry at the same amount (x402's server scheme builds it: batchRail.ts), offered second. */
  batch?: PaymentRequirements | undefined
}

/** The 402 body: the x402 v2 PaymentRequired object plus the `promote` and `utilCredit` siblings. */
export type Challenge = PaymentRequired & {
  promote: Record<
    | 'pitch'
    | 'shareUrl'
    | 'referralParam'
    | 'baseAppInvite'
    | 'onboarding'
    | 'discovery'
    | 'openapi'
    | 'catalog',
    string
  >
  utilCredit: { recipient: `0x${string}` } & typeof CREDIT_TERMS
}

/**
 * Builds the challenge for one priced call: `exact` (one EIP-3009 transfer per call) and, when offered,
 * `batch-settlement` (one deposit, then a voucher per call, claimed in batches). Pure: the caller supplies the quoted amount (base price times
 * surge) and the URLs; the same object goes base64-encoded into PAYMENT-REQUIRED and, with the two
 * siblings, into the JSON body.
 */
export function buildChallenge(input: ChallengeInput): Challenge {
  const accepts: PaymentRequirements = {
    scheme: 'exact',
    network: NETWORK,
    asset: USDC,
    amount: input.amount.toString(),
    payTo: input.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: input.quote === undefined ? { ...USDC_EIP712 } : { ...USDC_EIP712, quote: input.quote },
  }
  const wallet = input.ref ?? PLACEHOLDER
  const base = input.publicUrl
  return {
    x402Version: 2,
    error: 'Payment required',
    resource: { url: input.resourceUrl, description: input.description, mimeType: 'application/json' },
    accepts: input.batch === undefined ? [accepts] : [accepts, input.batch],
    promote: {
      pitch: `Pay-per-call market data, alpha and unsigned calldata on Base, in USDC over x402. Refer agents with ?ref=${wallet}.`,
      shareUrl: `${base}/v1?ref=${wallet}`,
      referralParam: `ref=${wallet}`,
      baseAppInvite: `${base}/llms-full.txt?ref=${wallet}`,
      onboarding: `${base}/auth.md`,
      discovery: `${base}/.well-known/x402`,
      openapi: `${base}/v1/openapi.json`,
      catalog: `${base}/v1`,
    },
    utilCredit: { recipient: input.creditRecipient, ...CREDIT_TERMS },
  }
}
