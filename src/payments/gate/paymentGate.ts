import { address } from '../../chain/fields.js'
import { InvalidInputError } from '../../errors.js'
import { admitBatch, type BatchAdmission } from '../batch/admitBatch.js'
import { TopUpError } from '../credit/topUpErrors.js'
import { admitExact } from '../exact/admitExact.js'
import { CLAIM_GRACE_SECONDS } from '../exact/payerSettlements.js'
import { surgedAmount } from '../limits/surgeMeter.js'
import { ChallengeTooLongError, PaymentError } from '../paymentError.js'
import type { PaymentServices } from '../paymentServices.js'
import { usdToAtomic } from '../usdToAtomic.js'
import { MAX_TIMEOUT_SECONDS } from './buildChallenge.js'
import { challengeExtensions } from './challengeExtensions.js'
import { type Challenges, createChallenges, type GatedRoute, type ProbeRequest } from './challenges.js'
import type { EncodedChallenge } from './encodeChallenge.js'
import { type Admission, decided, type GateOutcome, type GateRequest, type RouteRun } from './gateOutcome.js'
import { paymentRail } from './paymentRail.js'
import {
  beginRetryable,
  concludeRetry,
  earlyRetry,
  type RetryKey,
  type RetryVerdict,
  retryKeyOf,
} from './paymentRetries.js'

export type { GatedRoute, ProbeRequest } from './challenges.js'

/**
 * The most a PAYMENT-REQUIRED header may carry (issue 24): nginx's default proxy buffers (4 or 8 kB)
 * turn a larger 402 into a 502, and Node's 16 kB header limit must leave room for the rest.
 */
export const CHALLENGE_HEADER_LIMIT = 8_192

export interface PaymentGate {
  /** Decides one request. Never throws: every failure is an outcome (`error`). */
  admit(request: GateRequest): Promise<GateOutcome>
  /**
   * The challenge an unpaid request (or a HEAD) gets: the same for a route, an amount, a second and a
   * URL, so it is encoded once and reused. Throws ChallengeTooLongError when it would not fit a header.
   * Counts nothing: the caller has counted the request against the unpaid ceiling.
   */
  probe(request: ProbeRequest): Promise<EncodedChallenge>
}

/**
 * The x402 v2 gate in front of one priced route, free of any HTTP framework (src/http/paymentMiddleware.ts
 * maps its outcomes to responses). The challenge offers `exact` and `batch-settlement`; a payment goes down
 * its scheme's rail (paymentRail.ts): the `exact` path below, or admitBatch.ts.
 *
 * Unpaid → 402 before any input validation. Paid (PAYMENT-SIGNATURE or its alias X-PAYMENT) → a retry
 * of a call already answered under the same payment identifier gets its stored answer → local checks
 * (unproven payments count against the client's unpaid ceiling) → the payment identifier taken → claim on the
 * authorization → the wallet's paid ceiling → funds reserved against its balance → handler → settle
 * only if the handler answered < 400 → served with the receipt (PAYMENT-RESPONSE and X-PAYMENT-RESPONSE).
 * Every refusal is a 402 with a specific code and a fresh challenge; a failed handler keeps its own
 * error and costs nothing.
 */
export function createPaymentGate(route: GatedRoute, services: PaymentServices): PaymentGate {
  if (route.priceUsd === null) throw new Error(`${route.id} is free`)
  const baseAmount = usdToAtomic(route.priceUsd)
  const scope = `${route.method} ${route.path}`
  const { config, surge, quotes, state, limiter } = services
  const extensions = challengeExtensions(route, config)
  const challengeOf = createChallenges(route, config, quotes, extensions)

  /** A paid request's first phase: its rail's admission, or the gate's own refusal. */
  const admitPayment = async (request: GateRequest, payment: string): Promise<Admission> => {
    const started = performance.now()
    const nowSec = Math.floor(services.clock() / 1000)
    const currentAmount = surgedAmount(baseAmount, surge.multiplier())
    const batchAccept = await services.batch.requirements(currentAmount)
    const challenge = (error?: PaymentError) =>
      challengeOf(request, currentAmount, nowSec, batchAccept, error)
    // Until a payment is admitted (proven wallet, fresh authorization, funds reserved), it is unpaid
    // traffic of the client that sent it: before an RPC is spent on it the client must have unpaid room
    // left, and a refusal counts against that ceiling. A replayed, forged, unfunded or throwaway-key
    // payment never spends a wallet's paid ceiling, and a flood of them stops at the sender's ceiling.
    const refuse = async (err: PaymentError, discard: boolean): Promise<GateOutcome> => {
      await limiter.unpaid(request.client)
      return { kind: 'refuse', challenge: challenge(err), discard }
    }

    // A malformed `?ref=` is refused before any payment work (no signature recovery, no RPC), and, like
    // every refusal on the unpaid path, counts against the sender's unpaid ceiling.
    const ref = parseRef(request.ref)
    if (ref instanceof InvalidInputError) {
      await limiter.unpaid(request.client)
      return decided({ kind: 'error', error: ref, discard: false })
    }

    // A payment identifier (the `payment-identifier` extension) makes the call idempotent for its payer:
    // the very same payment and request again get the stored answer, before any check (the clock or the
    // price may have moved since, a voucher's channel has moved on) and before the authorization's claim
    // (which refuses a copy). On every rail.
    const rail = paymentRail(payment)
    let retry: RetryKey | undefined
    try {
      retry = await retryKeyOf(rail.decoded, request)
    } catch (err) {
      if (err instanceof PaymentError) return decided(await refuse(err, false))
      throw err
    }
    // Replays and 409s are free traffic: they count against the sender's unpaid ceiling.
    const retried = async (verdict: RetryVerdict): Promise<GateOutcome> => {
      await limiter.unpaid(request.client)
      return verdict.kind === 'replay'
        ? { kind: 'replay', answer: verdict.answer }
        : { kind: 'error', error: verdict.error, discard: false }
    }
    const early = retry === undefined ? undefined : await earlyRetry(state, retry)
    if (early !== undefined) return decided(await retried(early))

    if (rail.kind === 'exact') {
      return admitExact({
        services,
        decoded: rail.decoded,
        scope,
        baseAmount,
        currentAmount,
        nowSec,
        ref,
        request,
        extensions,
        retry,
        started,
        challenge,
        refuse,
        retried,
      })
    }
    return admitVoucher({
      services,
      decoded: rail.decoded,
      scope,
      requirements: batchAccept,
      ref,
      request,
      started,
      retry,
      retried,
      challenge: (error, wire, batch) =>
        challengeOf(request, currentAmount, nowSec, batch ?? batchAccept, error, wire),
    })
  }

  const probe = (request: ProbeRequest) => probeChallenge(request, baseAmount, services, challengeOf)

  return {
    async admit(request) {
      try {
        // Without a payment header the request was counted against the unpaid ceiling already (by the
        // HTTP layer). HEAD gets the challenge and is never charged: it would be served without its body.
        if (request.payment === undefined || request.method === 'HEAD') {
          return { kind: 'challenge', challenge: await probe(request) }
        }
        const admission = await admitPayment(request, request.payment)
        if (admission.kind === 'decided') return admission.result
        // The one place the route runs on a paid call: between its rail's two phases.
        return await admission.conclude(await runRoute(request, admission.payer))
      } catch (err) {
        // Other typed errors (429, 503) go to the error handler, which sets their headers (Retry-After).
        return { kind: 'error', error: err, discard: false }
      }
    },
    probe,
  }
}

/**
 * The batch-settlement rail's admission, with what the gate adds: a top-up is refused (a voucher proves the
 * channel's payer authorizer, not the wallet that sent the UTIL: top-ups ride on `exact` payments only),
 * and the payment identifier is taken once the voucher is verified.
 */
async function admitVoucher(
  a: Omit<BatchAdmission, 'refuse' | 'retry'> & {
    retry: RetryKey | undefined
    retried: (verdict: RetryVerdict) => Promise<GateOutcome>
  },
): Promise<Admission> {
  const { services, request, retry: key } = a
  const { limiter, state } = services
  if (request.topUp !== undefined) {
    await limiter.unpaid(request.client)
    return decided({ kind: 'error', error: new TopUpError('topup_unproven'), discard: false })
  }
  const ttlMs = (MAX_TIMEOUT_SECONDS + CLAIM_GRACE_SECONDS) * 1000
  return admitBatch({
    ...a,
    refuse: async (encoded, discard) => {
      await limiter.unpaid(request.client)
      return { kind: 'refuse', challenge: encoded, discard }
    },
    retry:
      key === undefined
        ? undefined
        : {
            begin: async () => {
              const begun = await beginRetryable(state, key, ttlMs)
              return begun === undefined ? undefined : a.retried(begun)
            },
            settle: (outcome) => concludeRetry(services, key, outcome, request.answer, ttlMs),
          },
  })
}

/** An unpaid request's challenge (a HEAD's too): at the price now, with the batch entry on offer. */
async function probeChallenge(
  request: ProbeRequest,
  baseAmount: bigint,
  services: PaymentServices,
  challengeOf: Challenges,
): Promise<EncodedChallenge> {
  const nowSec = Math.floor(services.clock() / 1000)
  const amount = surgedAmount(baseAmount, services.surge.multiplier())
  const challenge = challengeOf(request, amount, nowSec, await services.batch.requirements(amount))
  // Only the unpaid path refuses a long URL: a paid request with one (its payment signed on a shorter
  // URL's challenge) is served or refused as any other, and a refusal's header stays far below the
  // 16 kB clients read.
  if (challenge.header.length > CHALLENGE_HEADER_LIMIT) {
    const part = new URL(request.url).search.length > 0 ? 'query' : 'path'
    throw new ChallengeTooLongError(part, challenge.header.length, CHALLENGE_HEADER_LIMIT)
  }
  return challenge
}

/** The route's handler, run for `payer`, timed; what it threw is the rail's to conclude with. */
async function runRoute(request: GateRequest, payer: `0x${string}` | undefined): Promise<RouteRun> {
  const started = performance.now()
  try {
    const status = await request.next(payer)
    return { ok: true, status, handlerMs: performance.now() - started }
  } catch (error) {
    return { ok: false, error, handlerMs: performance.now() - started }
  }
}

/** `?ref=` attributes the payment to another wallet; malformed, it is a 400 naming the field. */
function parseRef(ref: string | undefined): `0x${string}` | undefined | InvalidInputError {
  if (ref === undefined) return undefined
  const parsed = address.safeParse(ref)
  if (!parsed.success) {
    return new InvalidInputError(
      'ref',
      `query field "ref" ${parsed.error.issues[0]?.message ?? 'must be a 0x-prefixed 20-byte wallet address.'}`,
    )
  }
  return ref as `0x${string}`
}
