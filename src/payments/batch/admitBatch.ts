import {
  type PaymentPayload,
  type PaymentRequirements,
  SettleError,
  type SettleResponse,
} from '@x402/core/types'
import { getAddress, isAddressEqual } from 'viem'
import { z } from 'zod'
import { NETWORK, USDC } from '../../chain/network.js'
import type { EncodedChallenge } from '../gate/encodeChallenge.js'
import {
  type Admission,
  decided,
  type GateOutcome,
  type GateRequest,
  type RouteRun,
} from '../gate/gateOutcome.js'
import { acceptedSchema, hexBytes } from '../gate/paymentPayloadFields.js'
import {
  FacilitatorUnavailableError,
  fromBatchReason,
  PaymentError,
  SettlementUnknownError,
} from '../paymentError.js'
import type { PaymentServices } from '../paymentServices.js'
import { FROZEN } from './claimRound.js'

const uintString = z.string().regex(/^\d{1,39}$/)
const signature = z.string().regex(/^0x([0-9a-fA-F]{2})+$/)
/**
 * A batch-settlement payment as a client may send it: a deposit (opening or topping up the channel, with
 * the call's voucher), a voucher, or a cooperative refund. Unknown members are dropped: a client never
 * supplies what the server or the facilitator adds (claims, authorizer signatures).
 */
const batchPayloadSchema = z.object({
  x402Version: z.literal(2),
  accepted: acceptedSchema(z.literal('batch-settlement'), uintString),
  payload: z.object({
    type: z.enum(['deposit', 'voucher', 'refund']),
    channelConfig: z.object({
      payer: hexBytes(20),
      payerAuthorizer: hexBytes(20),
      receiver: hexBytes(20),
      receiverAuthorizer: hexBytes(20),
      token: hexBytes(20),
      withdrawDelay: z.number().int().nonnegative(),
      salt: hexBytes(32),
    }),
    voucher: z.object({ channelId: hexBytes(32), maxClaimableAmount: uintString, signature }),
    deposit: z.object({ amount: uintString, authorization: z.record(z.string(), z.unknown()) }).optional(),
    amount: uintString.optional(),
  }),
})

export interface BatchAdmission {
  services: PaymentServices
  /** The decoded PAYMENT-SIGNATURE. */
  decoded: unknown
  /** `METHOD /path` of the route. */
  scope: string
  /** The batch-settlement entry of this request's challenge (undefined when the facilitator offers none). */
  requirements: PaymentRequirements | undefined
  ref: `0x${string}` | undefined
  request: GateRequest
  /** A fresh challenge naming `error`; `wire` is x402's reason, `batch` the batch entry as refused. */
  challenge: (error: PaymentError, wire?: string, batch?: PaymentRequirements) => EncodedChallenge
  /** A refusal of unpaid traffic (counted against the sender's unpaid ceiling). */
  refuse: (challenge: EncodedChallenge, discard: boolean) => Promise<GateOutcome>
  started: number
  /**
   * The call's payment identifier, when it carries one: `begin` takes it once the voucher is verified (an
   * outcome instead when a call under it is running or answered), `settle` stores the served answer or
   * frees it.
   */
  retry?: {
    begin(): Promise<GateOutcome | undefined>
    settle(outcome: GateOutcome): Promise<void>
  }
}

/**
 * The gate's `batch-settlement` rail, run by x402's own server scheme hooks through @x402/core's resource
 * server: a voucher is checked locally against the stored channel (signature, cumulative amount = charged
 * so far + the price, within the deposit; no chain round trip while the mirrored channel state is fresh)
 * and the channel is reserved for this call; a deposit is verified by the facilitator (an eth_call of the
 * deposit). Then the handler; only if it answered < 400 is the charge committed (a voucher: in the channel
 * storage, atomically; a deposit: onchain, then committed). A failed call releases the reservation and
 * consumes nothing. A refund is the request itself: settled (claim of the last voucher + refund, one
 * transaction) and answered without the handler.
 */
export async function admitBatch(a: BatchAdmission): Promise<Admission> {
  const decision = await decideBatch(a)
  if (decision.kind !== 'verified') return decided(decision)
  const { proceed, cancel } = decision
  return a.retry === undefined ? proceed() : withRetry(a.retry, cancel, proceed)
}

/**
 * The checks before the route: the outcome of a payment refused, or a verified payment (its channel reserved
 * for this call) that `proceed` admits (a voucher, a deposit) or decides (a refund); `cancel` releases it.
 */
type BatchDecision =
  | GateOutcome
  | { kind: 'verified'; proceed: () => Promise<Admission>; cancel: () => Promise<unknown> }

async function decideBatch(a: BatchAdmission): Promise<BatchDecision> {
  const { services } = a
  const { batch, config, limiter } = services
  const checked = checkBatchPayment(a.decoded, a.requirements, config.payTo)
  if (checked instanceof PaymentError) return a.refuse(a.challenge(checked), false)
  const { accepted, body, payer, requirements } = checked
  const referrer = a.ref !== undefined && !isAddressEqual(a.ref, payer) ? a.ref : undefined
  // The voucher is signed by the channel's payerAuthorizer: it proves the payer's will only when that is the
  // payer itself. Otherwise the channel names a payer nobody proved, and a handler
  // that acts for the paying wallet (the prop desk) must not take it as the caller.
  const authorizer = body.channelConfig.payerAuthorizer
  const provenPayer = isSame(authorizer, payer) ? payer : undefined

  // One object from verify to settle: the scheme keeps this request's reservation under it.
  const payload: PaymentPayload = {
    x402Version: 2,
    accepted: { ...accepted, network: NETWORK, extra: accepted.extra ?? {} },
    payload: body,
  }
  const refused = (reason: string | undefined, discard: boolean) =>
    refusedByScheme(a, requirements, payload, reason, discard)

  // A deposit is verified onchain (an eth_call), and so is a voucher whose channel is unknown or whose mirror
  // is stale: RPC work that unproven traffic pays for with its unpaid room, checked before any of it (issue
  // 37 item 4: 100 vouchers for unknown channels reached the node 100 times, 80 of them answered 429).
  await limiter.unpaidRoom(a.request.client)
  // A zero payerAuthorizer makes the payer's own signature the voucher's, checked onchain at claim time by
  // the payer's code if it has any (ERC-1271): a contract, or an EOA that delegates (EIP-7702) after it was
  // served, can then make every claim of it fail (issue 37 item 2). The official client always names one.
  if (isZeroAddress(authorizer)) {
    return a.refuse(a.challenge(new PaymentError('payment_channel_authorizer_required')), false)
  }
  let verified: Awaited<ReturnType<typeof batch.server.verifyPayment>>
  // The reservation the scheme takes at verify lives for the challenge's timeout (clamped as the scheme
  // clamps it); noted before it is taken, so the deadline below is never later than the real one.
  const reservedUntil = Date.now() + reservationMs(requirements.maxTimeoutSeconds)
  try {
    verified = await batch.server.verifyPayment(payload, requirements)
  } catch (err) {
    return { kind: 'error', error: new FacilitatorUnavailableError({ cause: err }), discard: false }
  }
  if (!verified.isValid) return refused(verified.invalidReason, false)
  const verifiedAt = performance.now()

  const cancel = () =>
    batch.server
      .createPaymentCancellationDispatcher(payload, requirements)
      .cancel({ reason: 'handler_failed' })
      .catch((err: unknown) =>
        services.logger.warn({ msg: 'releasing a batch channel reservation failed', err }),
      )
  if (body.type !== 'refund' && Number(verified.extra?.withdrawRequestedAt ?? 0) > 0) {
    // The payer began a timed withdrawal: when its delay ends it pays out whatever is unclaimed, so the
    // channel serves no more calls and what it was served is claimed now (issue 37 item 1: 20 calls were
    // served after the payout against a 5-minute-old copy of the channel, and could never be claimed).
    await cancel()
    await withdrawalSeen(services, body.voucher.channelId)
    return a.refuse(a.challenge(new PaymentError('payment_channel_withdrawing')), false)
  }
  try {
    // The paid ceiling of the wallet the voucher proves: the payer when it signs, else the authorizer key that
    // signed it. A channel naming a victim as payer, signed by another key, no
    // longer spends the victim's ceiling (issue 37 item 3).
    await limiter.paid(provenPayer ?? getAddress(authorizer))
  } catch (err) {
    await cancel()
    return { kind: 'error', error: err, discard: false }
  }

  // From here the voucher is verified and the channel reserved for this call.
  const refund = async (skipped: { body?: unknown }): Promise<GateOutcome> => {
    // A refund: nothing to serve but the refund itself.
    const settled = await settle(services, payload, requirements)
    if (settled instanceof Error) return { kind: 'error', error: settled, discard: false }
    if (!settled.success) return refused(settled.errorReason, false)
    batch.noteRefundClaim()
    return { kind: 'answer', body: skipped.body ?? {}, receipt: receiptOf(settled, payer) }
  }

  const commit = async (run: RouteRun): Promise<GateOutcome> => {
    if (!run.ok) {
      await cancel()
      throw run.error
    }
    const { handlerMs } = run
    if (run.status >= 400) {
      await cancel()
      return { kind: 'pass' }
    }

    const settleStarted = performance.now()
    const settled = await settleVoucher(services, { payload, requirements, payer, reservedUntil }, cancel)
    const settleMs = performance.now() - settleStarted
    if (settled instanceof Error) return { kind: 'error', error: settled, discard: true }
    if (!settled.success) return refused(settled.errorReason, true)

    bookVoucher(services, { payer, voucher: body.voucher, route: a.scope, requirements, referrer }, settled)
    const serverTiming = serverTimingOf({
      gate: performance.now() - a.started - handlerMs - settleMs,
      verify: verifiedAt - a.started,
      handler: handlerMs,
      settle: settleMs,
    })
    return { kind: 'serve', receipt: receiptOf(settled, payer), serverTiming }
  }
  const proceed = async (): Promise<Admission> => {
    if (verified.skipHandler !== undefined) return decided(await refund(verified.skipHandler))
    services.surge.record()
    return { kind: 'admitted', payer: provenPayer, conclude: commit }
  }
  return { kind: 'verified', proceed, cancel }
}

/**
 * What can be judged of a batch payment without the scheme, in the order that yields the most specific
 * error: shape, scheme offered, network, asset, recipient, a payer that is not payTo.
 */
function checkBatchPayment(
  decoded: unknown,
  requirements: PaymentRequirements | undefined,
  payTo: `0x${string}`,
) {
  const parsed = batchPayloadSchema.safeParse(decoded)
  if (!parsed.success) return new PaymentError('payment_malformed')
  const { accepted, payload: body } = parsed.data
  if (requirements === undefined) return new PaymentError('payment_wrong_scheme')
  if (accepted.network !== NETWORK) return new PaymentError('payment_wrong_network')
  if (!/^0x[0-9a-fA-F]{40}$/.test(accepted.asset) || getAddress(accepted.asset) !== USDC) {
    return new PaymentError('payment_wrong_asset')
  }
  if (!isSame(accepted.payTo, payTo) || !isSame(body.channelConfig.receiver, payTo)) {
    return new PaymentError('payment_wrong_recipient')
  }
  const payer = getAddress(body.channelConfig.payer)
  if (isAddressEqual(payer, payTo)) return new PaymentError('payment_self_payment')
  return { accepted, body, payer, requirements }
}

/**
 * A refusal for x402's `reason`. A stale voucher gets the channel's state in the challenge's batch entry
 * (x402's corrective 402): the official client resumes from it on its own.
 */
async function refusedByScheme(
  a: BatchAdmission,
  requirements: PaymentRequirements,
  payload: PaymentPayload,
  reason: string | undefined,
  discard: boolean,
): Promise<GateOutcome> {
  const code = fromBatchReason(reason)
  let entry: PaymentRequirements | undefined
  if (code === 'payment_voucher_stale') {
    const copy = { ...requirements, extra: { ...requirements.extra } }
    await a.services.batch.scheme
      .enrichPaymentRequiredResponse({
        requirements: [copy],
        paymentPayload: payload,
        resourceInfo: { url: a.request.url },
        error: reason,
        paymentRequiredResponse: { x402Version: 2, resource: { url: a.request.url }, accepts: [copy] },
      })
      .catch(() => undefined)
    entry = copy
  }
  return a.refuse(a.challenge(new PaymentError(code), reason, entry), discard)
}

/**
 * A served call's charge committed (a voucher in the channel storage; a deposit onchain, then committed).
 * When the storage's answer was lost (a dropped connection after the commit) or its update was replayed and
 * met its own commit (a retried compare-and-set sees the channel moved on: "busy"), the channel itself says
 * whether this voucher's charge is in: in, the call is paid and is served (a refusal would make the payer pay
 * for it again); out, its reservation is released and the call is free. Only while this call's reservation
 * is live: past it another request may have reserved and committed this very voucher (sent again), and the
 * stored voucher would then be that request's charge, not ours.
 */
async function settleVoucher(
  services: PaymentServices,
  call: {
    payload: PaymentPayload
    requirements: PaymentRequirements
    payer: `0x${string}`
    reservedUntil: number
  },
  cancel: () => Promise<unknown>,
): Promise<SettleResponse | Error> {
  const { payload, requirements, payer } = call
  const body = payload.payload as z.infer<typeof batchPayloadSchema>['payload']
  const settled = await settle(services, payload, requirements)
  const ownCommitKnowable = Date.now() < call.reservedUntil - RESERVATION_MARGIN_MS
  if (
    body.type !== 'voucher' ||
    !ownCommitKnowable ||
    !(settled instanceof Error || settled.errorReason === CHANNEL_BUSY)
  ) {
    return settled
  }
  const committed = await committedVoucher(services, body.voucher, requirements, payer)
  if (committed === 'unreadable') {
    services.logger.error({
      msg: 'a voucher charge is unknown: the channel is unreadable',
      channel: body.voucher.channelId,
    })
    return settled
  }
  if (committed !== undefined) return committed
  if (settled instanceof Error) await cancel()
  return settled
}

/**
 * A verified voucher's call under its payment identifier: the identifier is taken only now (an unproven
 * voucher cannot hold it); a call under it already answered gets that answer and this reservation is
 * released (issue 37 item 6); the call's own outcome is stored or frees the identifier.
 */
async function withRetry(
  retry: NonNullable<BatchAdmission['retry']>,
  cancel: () => Promise<unknown>,
  proceed: () => Promise<Admission>,
): Promise<Admission> {
  let begun: GateOutcome | undefined
  try {
    begun = await retry.begin()
  } catch (err) {
    await cancel()
    throw err
  }
  if (begun !== undefined) {
    await cancel()
    return decided(begun)
  }
  // The call's own outcome is stored, or frees the identifier, whichever phase decides it.
  const admission = await storedAfter(retry, proceed)
  if (admission.kind === 'decided') return admission
  const { payer, conclude } = admission
  return { kind: 'admitted', payer, conclude: (run) => storedAfter(retry, () => conclude(run)) }
}

/** `decide`'s outcome (a decided admission's, or a conclusion's) stored under the identifier, or freeing it. */
async function storedAfter<T extends Admission | GateOutcome>(
  retry: NonNullable<BatchAdmission['retry']>,
  decide: () => Promise<T>,
): Promise<T> {
  let result: T
  try {
    result = await decide()
  } catch (err) {
    await retry.settle({ kind: 'error', error: err, discard: false })
    throw err
  }
  if (result.kind === 'admitted') return result
  await retry.settle(result.kind === 'decided' ? result.result : (result as GateOutcome))
  return result
}

/** The served call's ledger row, written off the response path (its failure is logged, never the caller's). */
function bookVoucher(
  services: PaymentServices,
  call: {
    payer: `0x${string}`
    voucher: { channelId: string }
    route: string
    requirements: PaymentRequirements
    referrer: `0x${string}` | undefined
  },
  settled: SettleResponse,
): void {
  const channel = call.voucher.channelId
  const charged = chargedTotal(settled)
  if (charged === undefined) {
    services.logger.error({ msg: 'a batch settlement answered without its charged total', channel })
    return
  }
  services.ledger
    .recordVoucher({
      payer: call.payer,
      channelId: channel,
      cumulative: charged,
      route: call.route,
      amount: BigInt(call.requirements.amount),
      referrer: call.referrer,
      payTo: services.config.payTo,
      scheme: 'batch-settlement',
    })
    .then((fresh) => {
      if (!fresh) services.logger.error({ msg: 'a voucher charge was booked twice', channel })
    })
    .catch((err: unknown) => services.logger.error({ msg: 'ledger write of a voucher call failed', err }))
}

/** `Server-Timing` of a served call: the gate's own time and its parts, in milliseconds. */
function serverTimingOf(parts: Record<string, number>): string {
  return Object.entries(parts)
    .map(([name, ms]) => `${name};dur=${ms.toFixed(3)}`)
    .join(', ')
}

/**
 * A channel whose withdrawal is pending: its vouchers are claimed at once, and its stored state stops being
 * trusted (the next voucher on it is checked against the chain, so the channel serves again, within what it
 * still holds, once the withdrawal is finalized).
 */
async function withdrawalSeen(services: PaymentServices, channelId: string): Promise<void> {
  services.batch.claimSoon(channelId)
  await services.batch.scheme
    .getStorage()
    .updateChannel(channelId, (current) =>
      current?.onchainSyncedAt === undefined || current.onchainSyncedAt === FROZEN
        ? current
        : { ...current, onchainSyncedAt: undefined },
    )
    .catch((err: unknown) => services.logger.warn({ msg: 'marking a withdrawing channel stale failed', err }))
}

/** x402's reason for a channel whose state moved between the reservation and the commit. */
const CHANNEL_BUSY = 'invalid_batch_settlement_evm_channel_busy'
/** Headroom before a reservation's end (the commit's own duration, clock steps between instances). */
const RESERVATION_MARGIN_MS = 5_000

/** How long @x402/evm's server keeps a voucher's reservation: the challenge's timeout, within 5 s–10 min. */
function reservationMs(maxTimeoutSeconds: number): number {
  return Math.min(600_000, Math.max(5_000, maxTimeoutSeconds * 1000))
}

/**
 * Whether this very voucher's charge is committed in the channel storage (the stored voucher is this
 * one, at its cumulative amount), as the scheme's receipt for it; undefined when it is not; 'unreadable'
 * when the storage cannot say.
 */
async function committedVoucher(
  services: PaymentServices,
  voucher: { channelId: string; maxClaimableAmount: string; signature: string },
  requirements: PaymentRequirements,
  payer: `0x${string}`,
): Promise<SettleResponse | undefined | 'unreadable'> {
  let channel: Awaited<ReturnType<ReturnType<PaymentServices['batch']['scheme']['getStorage']>['get']>>
  try {
    channel = await services.batch.scheme.getStorage().get(voucher.channelId)
  } catch {
    return 'unreadable'
  }
  if (
    channel === undefined ||
    channel.signature.toLowerCase() !== voucher.signature.toLowerCase() ||
    channel.chargedCumulativeAmount !== voucher.maxClaimableAmount
  ) {
    return undefined
  }
  // The receipt the scheme gives a committed voucher (its channel state after the charge).
  return {
    success: true,
    payer: payer.toLowerCase() as `0x${string}`,
    transaction: '',
    network: requirements.network,
    amount: '',
    extra: {
      channelState: {
        channelId: channel.channelId,
        balance: channel.balance,
        totalClaimed: channel.totalClaimed,
        withdrawRequestedAt: channel.withdrawRequestedAt,
        refundNonce: String(channel.refundNonce),
        chargedCumulativeAmount: channel.chargedCumulativeAmount,
      },
      chargedAmount: requirements.amount,
    },
  }
}

/**
 * The scheme's settlement: a voucher's charge committed in the channel storage (no chain), a deposit sent
 * onchain then committed, a refund sent onchain. An abort by the scheme (the channel moved on meanwhile)
 * is a refusal; anything thrown is a fault on our side: free for a voucher, unknown for a transaction.
 */
async function settle(
  services: PaymentServices,
  payload: PaymentPayload,
  requirements: PaymentRequirements,
): Promise<SettleResponse | Error> {
  const voucher = (payload.payload as { type: string }).type === 'voucher'
  try {
    const settled = await services.batch.server.settlePayment(payload, requirements)
    if (voucher && !settled.success) {
      // The scheme commits a voucher itself or aborts (thrown, below); a refusal answered here came from
      // the facilitator, which has nothing to settle for a voucher. @x402/core got there because the
      // commit threw (the channel storage failed; core logs it and goes on): its outcome is unknown.
      services.logger.warn({ msg: 'a voucher commit failed', reason: settled.errorReason })
      return new FacilitatorUnavailableError()
    }
    return settled
  } catch (err) {
    if (err instanceof SettleError) {
      return { success: false, errorReason: err.errorReason, transaction: '', network: NETWORK }
    }
    services.logger.warn({ msg: 'batch settlement failed', err })
    return voucher ? new FacilitatorUnavailableError({ cause: err }) : new SettlementUnknownError()
  }
}

/** The channel's charged total after this call, as the scheme reports it to the client. */
function chargedTotal(settled: SettleResponse): bigint | undefined {
  const state = (settled.extra as { channelState?: { chargedCumulativeAmount?: unknown } } | undefined)
    ?.channelState
  const value = state?.chargedCumulativeAmount
  return typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : undefined
}

/**
 * The receipt: the scheme's answer (its `extra` carries the channel state the client books), with the
 * payer; only the wire fields (the built-in facilitator's answer also holds the transaction's receipt).
 */
function receiptOf(settled: SettleResponse, payer: `0x${string}`): SettleResponse {
  const { success, transaction, network, amount, extra } = settled
  return {
    success,
    transaction,
    network,
    payer: settled.payer ?? payer,
    ...(amount === undefined ? {} : { amount }),
    ...(extra === undefined ? {} : { extra }),
  }
}

function isSame(a: string, b: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(a) && isAddressEqual(a as `0x${string}`, b as `0x${string}`)
}

/** The zero address, in any case. */
function isZeroAddress(value: string): boolean {
  return /^0x0{40}$/i.test(value)
}
