import type { SettleResponse } from '@x402/core/types'
import type { Hex } from 'viem'
import { NETWORK } from '../../chain/network.js'
import { AppError, RateLimitedError } from '../../errors.js'
import type { ClaimedPayment, Held } from '../exact/admitUsdc.js'
import { AUTHORIZATION_TYPES, USDC_DOMAIN } from '../exact/recoverAuthorizer.js'
import { type Admission, decided, type GateOutcome, type RouteRun } from '../gate/gateOutcome.js'
import { FacilitatorUnavailableError, PaymentError } from '../paymentError.js'
import { creditCost } from './creditRail.js'

/** Where a claimed payment goes next: paid by credit (this rail's admission), or on to the USDC settlement. */
export type CreditStep = { kind: 'usdc' } | Admission<Held>

/** How many atomic units make a dollar: credit is kept in USDC atomic units. */
const ATOMIC_PER_USD = 1_000_000

/**
 * The UTIL credit rail's part of a claimed `exact` payment (issue 25). The caller signed the ordinary
 * challenge; its authorization proves the wallet (recovered locally, or an ERC-1271/6492 signature checked
 * onchain) and is never submitted.
 *
 * 1. `X-UTIL-TOPUP` is registered first, whatever becomes of the call: a refusal (4xx) answers the whole
 *    request and charges nothing.
 * 2. Unless `X-UTIL-CREDIT: off`, a wallet whose credit covers half the base price (no surge) is debited
 *    that (one conditional update, with the authorization recorded as used), the handler runs, and the debit
 *    is spent when the handler answered < 400, given back otherwise.
 * 3. Anything else pays in USDC as usual (`usdc`).
 */
export async function payByCredit(claim: ClaimedPayment, baseAmount: bigint): Promise<CreditStep> {
  const { services, payment, request } = claim
  const { credit } = services
  const cost = creditCost(baseAmount)
  let proven = payment.signatureRecovered
  let balance: bigint | undefined
  try {
    if (request.topUp !== undefined) {
      if (!proven) proven = await proveSmartWallet(claim)
      balance = (await credit.topUp(payment.payer, request.topUp, claim.nowSec)).balance
    }
    if (request.creditOff || (balance !== undefined && balance < cost)) return { kind: 'usdc' }
    // A smart wallet's signature is checked onchain before its credit is touched (an EOA's recovered
    // locally), and only when it holds enough to be worth that RPC.
    if (!proven) {
      if ((balance ?? (await credit.balance(payment.payer))) < cost) return { kind: 'usdc' }
      proven = await proveSmartWallet(claim)
    }
  } catch (err) {
    return decided({ outcome: await refusedFree(claim, err), keepClaim: false, funds: 'none' })
  }

  const holdStarted = performance.now()
  let hold: Awaited<ReturnType<typeof credit.hold>>
  try {
    hold = await credit.hold({
      wallet: payment.payer,
      nonce: payment.nonce,
      route: claim.scope,
      amount: cost,
      validBefore: payment.validBefore,
    })
  } catch (err) {
    return decided({
      outcome: { kind: 'error', error: err, discard: false },
      keepClaim: false,
      funds: 'none',
    })
  }
  switch (hold.kind) {
    case 'short':
      // No credit, or not enough: the call pays in USDC as if the rail did not exist.
      return { kind: 'usdc' }
    case 'used':
      // The authorization paid a call before (a copy, replayed after its claim lapsed): it stays used.
      return decided({
        outcome: await refusedFree(claim, new PaymentError('payment_replayed')),
        keepClaim: true,
        funds: 'none',
      })
    case 'held':
      break
    default:
      hold satisfies never
  }
  // The wallet's paid ceiling, as on the USDC path: over it, the debit goes back and the call is refused.
  try {
    await services.limiter.paid(payment.payer)
  } catch (err) {
    await giveBack(claim, hold.id)
    return decided({ outcome: await refusedFree(claim, err), keepClaim: false, funds: 'none' })
  }
  const holdMs = performance.now() - holdStarted
  services.surge.record()
  const held = { id: hold.id, balance: hold.balance, cost, holdMs }
  return { kind: 'admitted', payer: payment.payer, conclude: (run) => spendServed(claim, held, run) }
}

/** Once the route ran: the debit spent for a call served (< 400), given back otherwise. */
async function spendServed(
  claim: ClaimedPayment,
  hold: { id: number; balance: bigint; cost: bigint; holdMs: number },
  run: RouteRun,
): Promise<Held> {
  const { services, payment } = claim
  const { credit } = services
  const { cost, holdMs } = hold
  const { handlerMs } = run
  if (!run.ok) return notServed(claim, hold.id, { kind: 'error', error: run.error, discard: true })
  if (run.status >= 400) return notServed(claim, hold.id, { kind: 'pass' })
  try {
    if (!(await credit.spend(hold.id))) {
      // Released meanwhile (only the reconciler's sweep of debits held for minutes does that): the call was
      // served, and is not charged twice by re-debiting it.
      services.logger.warn({ msg: 'credit debit released before its call was served', id: hold.id })
    }
  } catch (err) {
    // Not served: the debit goes back (or the reconciler gives it back, held as it is).
    return notServed(claim, hold.id, { kind: 'error', error: err, discard: true })
  }
  const { started, verifiedAt, claimedMs } = claim.timing
  const receipt: SettleResponse = {
    success: true,
    // Nothing settles onchain: the authorization is never submitted.
    transaction: '',
    network: NETWORK,
    payer: payment.payer,
    amount: '0',
    extra: {
      utilCredit: {
        debitedUsd: Number(cost) / ATOMIC_PER_USD,
        balanceUsd: Number(hold.balance) / ATOMIC_PER_USD,
        debitedAtomic: cost.toString(),
        balanceAtomic: hold.balance.toString(),
      },
    },
  }
  const serverTiming = [
    ['gate', performance.now() - started - handlerMs],
    ['verify', verifiedAt - started],
    ['claim', claimedMs],
    ['credit', holdMs],
    ['handler', handlerMs],
  ]
    .map(([name, ms]) => `${name};dur=${(ms as number).toFixed(3)}`)
    .join(', ')
  return { outcome: { kind: 'serve', receipt, serverTiming }, keepClaim: true, funds: 'none' }
}

/**
 * A smart wallet's signature (one that does not recover to `from`) checked onchain: ERC-1271, or ERC-6492
 * for a wallet not deployed yet (viem's universal validator). The facilitator's verify is not used here: it
 * also asks for a USDC balance, which a credit payer need not hold.
 */
async function proveSmartWallet(claim: ClaimedPayment): Promise<true> {
  const { payment, services } = claim
  const inner = payment.payload.payload as {
    authorization: { from: Hex; to: Hex; value: string; validAfter: string; validBefore: string; nonce: Hex }
    signature: Hex
  }
  const a = inner.authorization
  let valid: boolean
  try {
    await services.limiter.unpaidRoom(claim.request.client)
    valid = await services.chain.verifyTypedData({
      address: payment.payer,
      domain: USDC_DOMAIN,
      types: AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: a.from,
        to: a.to,
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce,
      },
      signature: inner.signature,
    })
  } catch (err) {
    if (err instanceof PaymentError || err instanceof RateLimitedError) throw err
    throw new FacilitatorUnavailableError({ cause: err })
  }
  if (!valid) throw new PaymentError('payment_invalid_signature')
  return true
}

/**
 * A refusal before anything was debited: a payment refusal (402) or a top-up's (its own 4xx) is unpaid
 * traffic of the sender; a ceiling (429) or a fault on our side (5xx) is answered as it is.
 */
async function refusedFree(claim: ClaimedPayment, err: unknown): Promise<GateOutcome> {
  try {
    if (err instanceof PaymentError) return await claim.refuse(err, false)
    if (err instanceof AppError && err.status < 500 && !(err instanceof RateLimitedError)) {
      await claim.services.limiter.unpaid(claim.request.client)
    }
  } catch (countFailed) {
    return { kind: 'error', error: countFailed, discard: false }
  }
  return { kind: 'error', error: err, discard: false }
}

/** The call was not served: its debit goes back and its authorization is free again; `outcome` answers. */
async function notServed(claim: ClaimedPayment, id: number, outcome: GateOutcome): Promise<Held> {
  await giveBack(claim, id)
  return { outcome, keepClaim: false, funds: 'none' }
}

/** The call was not served: its debit goes back. A failure here leaves it held, for the reconciler. */
async function giveBack(claim: ClaimedPayment, id: number): Promise<void> {
  await claim.services.credit
    .release(id)
    .catch((err: unknown) => claim.services.logger.warn({ msg: 'credit release failed', id, err }))
}
