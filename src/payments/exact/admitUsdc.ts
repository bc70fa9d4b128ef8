import type { PaymentPayload, SettleResponse } from '@x402/core/types'
import type { PublicClient } from 'viem'
import { unreachable } from '../../errors.js'
import type { Facilitator } from '../facilitator/createFacilitator.js'
import { type ChallengeExtensions, settlementExtensions } from '../gate/challengeExtensions.js'
import type { EncodedChallenge } from '../gate/encodeChallenge.js'
import {
  type Admission,
  decided,
  type GateOutcome,
  type GateRequest,
  type RouteRun,
} from '../gate/gateOutcome.js'
import { FacilitatorUnavailableError, fromFacilitatorReason, PaymentError } from '../paymentError.js'
import type { PaymentServices } from '../paymentServices.js'
import { type Attempt, attemptSettlement } from './attemptSettlement.js'
import type { CheckedPayment } from './checkPayment.js'
import { type FundsFate, fateOf, recordSettlement } from './recordSettlement.js'

/** A payment whose authorization the gate has claimed, with what the gate knows of its request. */
export interface ClaimedPayment {
  services: PaymentServices
  payment: CheckedPayment
  /** `METHOD /path` of the route. */
  scope: string
  referrer: `0x${string}` | undefined
  nowSec: number
  claimTtlMs: number
  /** The route's challenge extensions (the facilitator gets ours, not the client's echo). */
  extensions: ChallengeExtensions
  request: GateRequest
  /** A fresh challenge naming `error`. */
  challenge: (error: PaymentError) => EncodedChallenge
  /** A refusal of unpaid traffic: counted against the client's unpaid ceiling (which may answer 429). */
  refuse: (error: PaymentError, discard: boolean) => Promise<GateOutcome>
  /** performance.now() marks: the request's start, its payment verified; the claim's duration. */
  timing: { started: number; verifiedAt: number; claimedMs: number }
}

/** The outcome, and whether the authorization's claim and the funds reservation outlive the call. */
export interface Held {
  outcome: GateOutcome
  /** Kept when money moved or may have: the authorization cannot be used again. */
  keepClaim: boolean
  funds: FundsFate
}

/**
 * The USDC settlement of a claimed `exact` payment, in the rail's two phases. Admission: the facilitator's
 * verdict for signatures that do not recover, the wallet's paid ceiling, funds reserved. Conclusion, once
 * the route ran: the settlement in the payer's turn, and the books. Neither throws: a failure is an
 * outcome, with what becomes of the claim and of the reservation at the point where it happened.
 */
export async function admitUsdc(claim: ClaimedPayment): Promise<Admission<Held>> {
  const { services, payment } = claim
  const { limiter } = services
  // Whether the payer's own code decides its transfer: a smart wallet, or an EOA that delegated its
  // code (EIP-7702) whose ECDSA signature recovered locally. Read uncached (a delegation can be set at
  // any time, and it decides the lane). Started as early as the rules allow, so its round trip runs
  // beside the balance read and the handler: once the sender has shown unpaid room for a balance read
  // (the same RPC budget), or else once the funds are reserved; never for a payment still unproven.
  let codeRead: Promise<boolean> | undefined
  const startCodeRead = () => {
    if (codeRead !== undefined) return codeRead
    codeRead = payment.signatureRecovered ? holdsCode(services.chain, payment.payer) : Promise.resolve(true)
    // A refusal or a failed handler makes the read moot; its rejection must not surface unhandled.
    codeRead.catch(() => undefined)
    return codeRead
  }
  let forwarded: PaymentPayload
  try {
    // What the facilitator gets: the payment with our extensions, not the client's echo of them.
    forwarded = {
      ...payment.payload,
      extensions: settlementExtensions(
        claim.extensions,
        payment.payload.extensions,
        services.config.builderCodes,
      ),
    }
    if (!payment.signatureRecovered) await verifyWithFacilitator(forwarded, payment, services.facilitator)
    // The signature is the wallet's and the authorization is fresh: now its own paid ceiling.
    await limiter.paid(payment.payer)
    await services.funds.reserve(
      { payer: payment.payer, nonce: payment.nonce, amount: payment.amount, ttlMs: claim.claimTtlMs },
      async () => {
        await limiter.unpaidRoom(claim.request.client)
        startCodeRead()
      },
    )
  } catch (err) {
    // Not admitted: a refusal is still unpaid traffic of the sender.
    return decided({ outcome: await notAdmitted(claim, err), keepClaim: false, funds: 'none' })
  }
  const hasCode = startCodeRead()
  // Surge meters admitted work only: refused, replayed and rate-limited requests never move it.
  services.surge.record()
  const admittedMs = performance.now() - claim.timing.verifiedAt - claim.timing.claimedMs
  return {
    kind: 'admitted',
    payer: payment.payer,
    conclude: async (run) => {
      try {
        return await settleServed(claim, forwarded, hasCode, admittedMs, run)
      } catch (err) {
        return { outcome: admittedFailure(claim, err), keepClaim: false, funds: 'release' }
      }
    },
  }
}

/** From admission on: the reservation is released unless the settlement says otherwise. */
async function settleServed(
  claim: ClaimedPayment,
  forwarded: PaymentPayload,
  codeRead: Promise<boolean>,
  admittedMs: number,
  run: RouteRun,
): Promise<Held> {
  const { services, payment } = claim
  const { payerSettlements } = services
  if (!run.ok) throw run.error
  const { handlerMs } = run
  if (run.status >= 400) return { outcome: { kind: 'pass' }, keepClaim: false, funds: 'release' }

  const hasCode = await codeRead
  // One settlement in flight per payer, and one across all payers with code: wait for the turn
  // (a free refusal past the wait).
  const turn = await payerSettlements.turn(payment.payer, hasCode, claim.claimTtlMs)
  let attempt: Attempt
  try {
    attempt = await attemptSettlement({
      services,
      payment,
      forwarded,
      scope: claim.scope,
      referrer: claim.referrer,
      nowSec: claim.nowSec,
      hasCode,
    })
  } catch (err) {
    await turn.end()
    throw err
  }
  // A settlement that may still land keeps the payer's slot until the reconciler decides it (or its
  // authorization expires). 'unknown' follows a fault on our side (the RPC, the facilitator), not
  // the payer's conduct, and does not block the payer. The lane of payers with code is never kept:
  // one unmined settlement must not stop every smart wallet for minutes.
  try {
    if (attempt.kind === 'settled' && attempt.disposition.kind === 'pending' && !hasCode) turn.keep()
    else await turn.end()
  } catch (err) {
    // The ledger already holds this authorization (a replay): its claim stays.
    return { outcome: admittedFailure(claim, err), keepClaim: attempt.kind === 'replayed', funds: 'release' }
  }

  switch (attempt.kind) {
    case 'cooling_down':
      // Refused for its payer's conduct after admission: unpaid traffic after all.
      await services.limiter.unpaid(claim.request.client).catch(() => undefined)
      return {
        outcome: refusal(claim, new PaymentError('payment_payer_cooling_down')),
        keepClaim: false,
        funds: 'release',
      }
    case 'replayed':
      return {
        outcome: refusal(claim, new PaymentError('payment_replayed')),
        keepClaim: true,
        funds: 'release',
      }
    case 'settled': {
      const recordStarted = performance.now()
      const { keepClaim, funds } = fateOf(attempt.disposition)
      const serve = (receipt: SettleResponse): GateOutcome => {
        const ledgerMs = attempt.openMs + performance.now() - recordStarted
        const { started, verifiedAt, claimedMs } = claim.timing
        const serverTiming = timing({
          gate: performance.now() - started - handlerMs - attempt.settleMs,
          verify: verifiedAt - started,
          claim: claimedMs,
          admit: admittedMs,
          ledger: ledgerMs,
          handler: handlerMs,
          settle: attempt.settleMs,
        })
        return { kind: 'serve', receipt, serverTiming }
      }
      let outcome: GateOutcome
      try {
        outcome = await recordSettlement(services, payment.payer, attempt.id, attempt.disposition, {
          serve,
          refuse: (error) => refusal(claim, error),
        })
      } catch (err) {
        outcome = admittedFailure(claim, err)
      }
      return { outcome, keepClaim, funds }
    }
    default:
      return unreachable(attempt)
  }
}

/** A refusal after admission: a 402 in place of whatever the route answered; the call was paid traffic. */
function refusal(claim: ClaimedPayment, error: PaymentError): GateOutcome {
  return { kind: 'refuse', challenge: claim.challenge(error), discard: true }
}

/** A failure after admission: a payment refusal (a 402), or an error the error handler answers. */
function admittedFailure(claim: ClaimedPayment, err: unknown): GateOutcome {
  return err instanceof PaymentError ? refusal(claim, err) : { kind: 'error', error: err, discard: false }
}

/** A failure before admission: a payment refusal counts against the sender's unpaid ceiling. */
async function notAdmitted(claim: ClaimedPayment, err: unknown): Promise<GateOutcome> {
  if (!(err instanceof PaymentError)) return { kind: 'error', error: err, discard: false }
  try {
    return await claim.refuse(err, true)
  } catch (countFailed) {
    return { kind: 'error', error: countFailed, discard: true }
  }
}

/**
 * Whether `address` holds code now (a contract, or an EIP-7702 delegation): one uncached RPC. Unreadable,
 * the settlement cannot be placed in its lane: a fault on our side, free (nothing was broadcast).
 */
async function holdsCode(chain: PublicClient, address: `0x${string}`): Promise<boolean> {
  let code: `0x${string}` | undefined
  try {
    code = await chain.getCode({ address })
  } catch (err) {
    throw new FacilitatorUnavailableError({ cause: err })
  }
  return code !== undefined && code !== '0x'
}

async function verifyWithFacilitator(
  forwarded: PaymentPayload,
  payment: CheckedPayment,
  facilitator: Facilitator,
): Promise<void> {
  let verdict: Awaited<ReturnType<Facilitator['verify']>>
  try {
    verdict = await facilitator.verify(forwarded, payment.requirements)
  } catch (err) {
    throw new FacilitatorUnavailableError({ cause: err })
  }
  if (!verdict.isValid) throw new PaymentError(fromFacilitatorReason(verdict.invalidReason))
}

/**
 * Server-Timing of a paid call. `gate` is the gate's own time: everything but the handler and the
 * facilitator's settlement (gas estimation, broadcast, inclusion). Its parts: `verify` (local checks and
 * the referral), `claim` (the replay claim), `admit` (the paid rate limit and the funds reservation,
 * which reads the payer's balance at most once per BALANCE_TTL_MS), `ledger` (the pending row written
 * before the broadcast; the outcome is recorded after the response).
 */
function timing(
  parts: Record<'gate' | 'verify' | 'claim' | 'admit' | 'ledger' | 'handler' | 'settle', number>,
): string {
  return Object.entries(parts)
    .map(([name, ms]) => `${name};dur=${ms.toFixed(3)}`)
    .join(', ')
}
