import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { getAddress, type Hex, isAddress } from 'viem'
import { z } from 'zod'
import { NETWORK, USDC, USDC_EIP712 } from '../../chain/network.js'
import { MAX_TIMEOUT_SECONDS } from '../gate/buildChallenge.js'
import { acceptedSchema, hexBytes } from '../gate/paymentPayloadFields.js'
import type { QuoteSigner } from '../gate/quoteToken.js'
import { PaymentError } from '../paymentError.js'
import { recoverAuthorizer } from './recoverAuthorizer.js'

/** The facilitator refuses authorizations that expire within this many seconds (x402 exact/EVM). */
export const MIN_VALIDITY_SECONDS = 6
/**
 * How far ahead of our clock `validBefore` may lie beyond the challenge's `maxTimeoutSeconds`: room for a
 * payer's clock running ahead of ours. A longer window would only lengthen the replay window.
 */
export const CLOCK_SKEW_SECONDS = 30

const UINT256_LIMIT = 1n << 256n
/** A decimal uint256: anything larger cannot be signed as EIP-712 `uint256` or sent to the token. */
// One refine, not regex + refine: zod runs every check even after one fails, and BigInt('1e9') throws.
const uintString = z.string().refine((s) => /^\d{1,78}$/.test(s) && BigInt(s) < UINT256_LIMIT)

/**
 * How far a block's timestamp can trail the clock that admitted its transaction: at Base's 200 ms blocks a
 * block carries its whole second (several share one), up to 1 s behind, plus up to 1 s of clock skew.
 */
const BLOCK_STAMP_LAG_SECONDS = 2

const payloadSchema = z.object({
  x402Version: z.literal(2),
  accepted: acceptedSchema(z.string(), uintString),
  payload: z.object({
    authorization: z.object({
      from: hexBytes(20),
      to: hexBytes(20),
      value: uintString,
      validAfter: uintString,
      validBefore: uintString,
      nonce: hexBytes(32),
    }),
    signature: z.string().regex(/^0x([0-9a-fA-F]{2})+$/),
  }),
  /** The client's echo of the challenge's extensions (see settlementExtensions), unchecked here. */
  extensions: z.record(z.string(), z.unknown()).optional(),
})

export interface PriceTerms {
  /** `METHOD /path`, the quote's scope. */
  route: string
  /** What the route costs right now, in atomic units. */
  currentAmount: bigint
  payTo: `0x${string}`
  nowSec: number
  quotes: QuoteSigner
  /** Whether an address holds code; asked only when a signature does not recover to its signer. */
  isContract: (address: `0x${string}`) => Promise<boolean>
}

export interface CheckedPayment {
  payload: PaymentPayload
  /** What the facilitator settles against: our terms at the amount owed. */
  requirements: PaymentRequirements
  payer: `0x${string}`
  nonce: Hex
  amount: bigint
  validBefore: number
  /**
   * False when the signature did not recover to `from` locally: it may still be a smart-wallet
   * (ERC-1271/6492) signature, which only the facilitator can judge.
   */
  signatureRecovered: boolean
}

/**
 * Everything about a payment that can be judged without the chain, in the order that yields the most
 * specific error: shape, scheme, network, asset, recipient, signature, amount, validity window. Pure
 * apart from the signature recovery (local secp256k1, no RPC).
 */
export async function checkPayment(decoded: unknown, terms: PriceTerms): Promise<CheckedPayment> {
  // undefined: the header did not decode (paymentRail.ts).
  if (decoded === undefined) throw new PaymentError('payment_malformed')
  const parsed = payloadSchema.safeParse(decoded)
  if (!parsed.success) throw new PaymentError('payment_malformed')
  const { accepted, payload } = parsed.data
  const auth = payload.authorization

  if (accepted.scheme !== 'exact') throw new PaymentError('payment_wrong_scheme')
  if (accepted.network !== NETWORK) throw new PaymentError('payment_wrong_network')
  if (!isAddress(accepted.asset, { strict: false }) || getAddress(accepted.asset) !== USDC) {
    throw new PaymentError('payment_wrong_asset')
  }
  const payTo = getAddress(terms.payTo)
  if (getAddress(auth.to) !== payTo || !sameAddress(accepted.payTo, payTo)) {
    throw new PaymentError('payment_wrong_recipient')
  }

  // A transfer from payTo to itself moves nothing, yet would cost the relayer gas and could count as
  // paid volume (for referrals): refused before the signature is even recovered.
  if (getAddress(auth.from) === payTo) throw new PaymentError('payment_self_payment')

  const message = {
    from: getAddress(auth.from),
    to: getAddress(auth.to),
    value: BigInt(auth.value),
    validAfter: BigInt(auth.validAfter),
    validBefore: BigInt(auth.validBefore),
    nonce: auth.nonce as Hex,
  }
  const signatureRecovered = recoverAuthorizer(message, payload.signature as Hex) === message.from
  // An externally owned account can only sign with ECDSA, so a mismatch there is a tampered payload.
  if (!signatureRecovered && !(await terms.isContract(message.from))) {
    throw new PaymentError('payment_invalid_signature')
  }

  const owed = amountOwed(accepted, terms)
  if (message.value < owed.amount) {
    throw new PaymentError(owed.quoteExpired ? 'payment_quote_expired' : 'payment_underpaid', {
      authorized: message.value.toString(),
      owed: owed.amount.toString(),
    })
  }
  if (message.value !== owed.amount) {
    throw new PaymentError(owed.quoteExpired ? 'payment_quote_expired' : 'payment_amount_mismatch', {
      authorized: message.value.toString(),
      owed: owed.amount.toString(),
    })
  }
  if (message.validBefore < BigInt(terms.nowSec + MIN_VALIDITY_SECONDS))
    throw new PaymentError('payment_expired')
  // USDC wants block.timestamp > validAfter, strictly, and a block's timestamp trails the clock (Base
  // stamps a block with its whole second; anvil's clock can lag ours by a second): an authorization valid from
  // within the last two seconds could revert in the block that includes it, at the relayer's cost
  // (settlements are not estimated first). Official clients sign validAfter = now − 600 s.
  if (message.validAfter >= BigInt(terms.nowSec - BLOCK_STAMP_LAG_SECONDS))
    throw new PaymentError('payment_not_yet_valid')
  const latestValidBefore = terms.nowSec + MAX_TIMEOUT_SECONDS + CLOCK_SKEW_SECONDS
  if (message.validBefore > BigInt(latestValidBefore)) {
    throw new PaymentError('payment_window_too_long', {
      validBefore: message.validBefore.toString(),
      latestAccepted: String(latestValidBefore),
    })
  }

  const requirements: PaymentRequirements = {
    scheme: 'exact',
    network: NETWORK,
    asset: USDC,
    amount: owed.amount.toString(),
    payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { ...USDC_EIP712 },
  }
  return {
    payload: parsed.data as PaymentPayload,
    requirements,
    payer: message.from,
    nonce: message.nonce,
    amount: owed.amount,
    validBefore: Number(message.validBefore),
    signatureRecovered,
  }
}

/**
 * The amount this payment must carry: the current price, or the amount it was quoted at when the
 * echoed quote is authentic and unexpired (surge may have moved since the challenge).
 */
function amountOwed(
  accepted: z.infer<typeof payloadSchema>['accepted'],
  terms: PriceTerms,
): { amount: bigint; quoteExpired: boolean } {
  const quotedAmount = BigInt(accepted.amount)
  if (quotedAmount === terms.currentAmount) return { amount: quotedAmount, quoteExpired: false }
  const token = accepted.extra?.quote
  const scope = { route: terms.route, amount: accepted.amount, payTo: terms.payTo }
  const verdict = terms.quotes.verify(token, scope, terms.nowSec)
  if (verdict === 'valid') return { amount: quotedAmount, quoteExpired: false }
  return { amount: terms.currentAmount, quoteExpired: verdict === 'expired' }
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}
