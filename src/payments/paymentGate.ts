import { encodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentPayload, SettleResponse } from '@x402/core/types'
import type { Context, MiddlewareHandler } from 'hono'
import { isAddress, isAddressEqual } from 'viem'
import { address } from '../chain/fields.js'
import { NETWORK } from '../chain/network.js'
import type { AppDeps } from '../deps.js'
import { InvalidInputError } from '../errors.js'
import type { AppEnv } from '../http/env.js'
import { clientAddress } from '../http/rateLimiter.js'
import type { Route } from '../routes/route.js'
import { buildChallenge, type Challenge, MAX_TIMEOUT_SECONDS } from './buildChallenge.js'
import { challengeExtensions, settlementExtensions } from './challengeExtensions.js'
import { type CheckedPayment, checkPayment } from './checkPayment.js'
import { type EncodedChallenge, encodeChallenge } from './encodeChallenge.js'
import { CLAIM_GRACE_SECONDS } from './payerSettlements.js'
import {
  FacilitatorUnavailableError,
  fromFacilitatorReason,
  PaymentError,
  SettlementUnknownError,
} from './paymentError.js'
import { type Disposition, resolveSettlement } from './resolveSettlement.js'
import { type ExpectedTransfer, settlementOutcome } from './settlementOutcome.js'
import { surgedAmount } from './surgeMeter.js'
import { usdToAtomic } from './usdToAtomic.js'

/**
 * The x402 v2 gate in front of one priced route.
 *
 * Unpaid → 402 before any input validation. Paid (PAYMENT-SIGNATURE or its alias X-PAYMENT) →
 * local checks (unproven payments count against the client's unpaid ceiling) → claim on the
 * authorization → the wallet's paid ceiling → funds reserved against its balance → handler → settle
 * only if the handler answered < 400 → 200 with the receipt in PAYMENT-RESPONSE and X-PAYMENT-RESPONSE.
 * Every refusal is a 402 with a specific code and a fresh challenge; a failed handler keeps its own
 * error and costs nothing.
 */
export function paymentGate(route: Route, deps: AppDeps): MiddlewareHandler<AppEnv> {
  if (route.priceUsd === null) throw new Error(`${route.id} is free`)
  const baseAmount = usdToAtomic(route.priceUsd)
  const scope = `${route.method} ${route.path}`
  const { config, surge, quotes, state, ledger, facilitator, limiter, payerSettlements } = deps
  const extensions = challengeExtensions(route, config)
  const extensionsJson = JSON.stringify(extensions)

  const challengeFor = (c: Context<AppEnv>, amount: bigint, nowSec: number): Challenge => {
    const url = new URL(c.req.url)
    const ref = c.req.query('ref')
    return buildChallenge({
      resourceUrl: `${config.publicUrl}${url.pathname}${url.search}`,
      description: route.summary,
      amount,
      payTo: config.payTo,
      publicUrl: config.publicUrl,
      creditRecipient: config.payments.creditRecipient,
      ref: ref !== undefined && isAddress(ref, { strict: false }) ? ref : undefined,
      quote: quotes.sign({
        route: scope,
        amount: amount.toString(),
        payTo: config.payTo,
        expiresAt: nowSec + MAX_TIMEOUT_SECONDS,
      }),
    })
  }

  // Probes repeat: an indexer or a retrying client sends the same unpaid request again and again, and
  // within one second, at one price, the challenge is byte for byte the same (the quote expires on the
  // second). The last one encoded is reused; any other request encodes its own.
  let lastProbe: { key: string; encoded: EncodedChallenge } | undefined
  const challengeResponse = (
    c: Context<AppEnv>,
    amount: bigint,
    nowSec: number,
    error?: PaymentError,
  ): Response => {
    const key = `${amount}|${nowSec}|${c.req.url}`
    let encoded = error === undefined && lastProbe?.key === key ? lastProbe.encoded : undefined
    if (encoded === undefined) {
      encoded = encodeChallenge(
        challengeFor(c, amount, nowSec),
        extensionsJson,
        error === undefined ? undefined : { code: error.code, body: error.toBody().error },
      )
      if (error === undefined) lastProbe = { key, encoded }
    }
    return c.body(encoded.body, 402, {
      'Content-Type': 'application/json',
      'PAYMENT-REQUIRED': encoded.header,
      'Cache-Control': 'no-store',
    })
  }

  const recordLater = (write: Promise<void>, id: number) => {
    write.catch((err: unknown) =>
      deps.logger.error({
        msg: 'ledger write failed; the reconciler settles the row from the chain',
        id,
        err,
      }),
    )
  }

  return async (c, next) => {
    const started = performance.now()
    const nowSec = Math.floor(deps.clock() / 1000)
    const currentAmount = surgedAmount(baseAmount, surge.multiplier())
    const header = c.req.header('payment-signature') ?? c.req.header('x-payment')
    // Without a payment header the request was counted against the unpaid ceiling already (app.ts).
    // HEAD gets the challenge and is never charged: it would be served without its body.
    if (header === undefined || c.req.method === 'HEAD') {
      return challengeResponse(c, currentAmount, nowSec)
    }

    // Until a payment is admitted (proven wallet, fresh authorization, funds reserved), it is unpaid
    // traffic of the client that sent it: before an RPC is spent on it the client must have unpaid room
    // left, and a refusal counts against that ceiling. A replayed, forged, unfunded or throwaway-key
    // payment never spends a wallet's paid ceiling, and a flood of them stops at the sender's ceiling.
    const client = () => clientAddress(c, config.rateLimits.trustProxy)
    const unpaidRoom = () => limiter.unpaidRoom(client())
    const refuse = async (err: PaymentError) => {
      await limiter.unpaid(client())
      return challengeResponse(c, currentAmount, nowSec, err)
    }

    // A malformed `?ref=` is refused before any payment work (no signature recovery, no RPC), and, like
    // every refusal on the unpaid path, counts against the sender's unpaid ceiling.
    let ref: `0x${string}` | undefined
    try {
      ref = parseRef(c.req.query('ref'))
    } catch (err) {
      await limiter.unpaid(client())
      throw err
    }

    let payment: CheckedPayment
    try {
      payment = await checkPayment(header, {
        route: scope,
        currentAmount,
        payTo: config.payTo,
        nowSec,
        quotes,
        // Only for signatures that do not recover locally (smart wallets): an RPC.
        isContract: async (address) => {
          await unpaidRoom()
          return deps.isContract(address)
        },
      })
    } catch (err) {
      if (err instanceof PaymentError) return refuse(err)
      throw err
    }
    // A wallet cannot refer itself.
    const referrer = ref !== undefined && !isAddressEqual(ref, payment.payer) ? ref : undefined
    // A payer whose settlement reverted lately is refused before anything is spent on it.
    // A smart-wallet signature (one that does not recover) proves the payer holds code.
    if (await payerSettlements.coolingDown(payment.payer, !payment.signatureRecovered)) {
      return refuse(new PaymentError('payment_payer_cooling_down'))
    }
    const verifiedAt = performance.now()

    const claimKey = `auth:${payment.payer.toLowerCase()}:${payment.nonce.toLowerCase()}`
    const claimTtlMs = (Math.max(0, payment.validBefore - nowSec) + CLAIM_GRACE_SECONDS) * 1000
    // A copy of an authorization in use or used proves nothing about who sends it.
    if (!(await state.claim(claimKey, claimTtlMs))) return refuse(new PaymentError('payment_replayed'))
    // From here on every exit either keeps the claim (money moved or may have) or releases it, and the
    // funds reservation follows the money: kept while a settlement may land, released when none will.
    let keepClaim = false
    let funds: 'none' | 'release' | 'settled' | 'keep' = 'none'
    let admitted = false
    // Set when an admitted call is refused for its payer's conduct (cool-down): unpaid traffic after all.
    let unpaidRefusal = false
    let rowId = 0
    let handlerMs = 0
    let settleMs = 0
    let ledgerMs = 0
    let admittedMs = 0
    const claimedMs = performance.now() - verifiedAt
    try {
      // What the facilitator gets: the payment with our extensions, not the client's echo of them.
      const forwarded = {
        ...payment.payload,
        extensions: settlementExtensions(extensions, payment.payload.extensions, config.builderCodes),
      }
      if (!payment.signatureRecovered) await verifyWithFacilitator(forwarded, payment, deps)
      // The signature is the wallet's and the authorization is fresh: now its own paid ceiling.
      await limiter.paid(payment.payer)
      await deps.funds.reserve(
        { payer: payment.payer, nonce: payment.nonce, amount: payment.amount, ttlMs: claimTtlMs },
        unpaidRoom,
      )
      funds = 'release'
      admitted = true
      // Surge meters admitted work only: refused, replayed and rate-limited requests never move it.
      surge.record()
      admittedMs = performance.now() - verifiedAt - claimedMs

      const handlerStarted = performance.now()
      await next()
      handlerMs = performance.now() - handlerStarted
      if (c.res.status >= 400) return undefined

      // Whether the payer's own code decides its transfer: a smart wallet, or an EOA that delegated its
      // code (EIP-7702) whose ECDSA signature recovered locally. Read now, uncached: a delegation can be
      // set at any time, and it decides the lane.
      const hasCode = !payment.signatureRecovered || (await holdsCode(deps, payment.payer))
      // One settlement in flight per payer, and one across all payers with code: wait for the turn
      // (a free refusal past the wait).
      const turn = await payerSettlements.turn(payment.payer, hasCode, claimTtlMs)
      let keepTurn = false
      let disposition: Disposition
      try {
        // A predecessor may have reverted while this call waited.
        if (await payerSettlements.coolingDown(payment.payer, hasCode)) {
          unpaidRefusal = true
          throw new PaymentError('payment_payer_cooling_down')
        }
        const openStarted = performance.now()
        const id = await ledger.open({
          payer: payment.payer,
          nonce: payment.nonce,
          route: scope,
          amount: payment.amount,
          referrer,
          payTo: config.payTo,
          validBefore: payment.validBefore,
        })
        ledgerMs += performance.now() - openStarted
        if (id === undefined) {
          keepClaim = true
          throw new PaymentError('payment_replayed')
        }
        rowId = id

        const settleStarted = performance.now()
        const checked = payment
        disposition = await resolveSettlement(
          () => facilitator.settle(forwarded, checked.requirements),
          (txHash, receipt) =>
            settlementOutcome(
              deps.chain,
              expectedTransfer(checked, config.payTo, txHash, nowSec),
              nowSec,
              recentBlocks(deps),
              receipt,
            ),
        )
        settleMs = performance.now() - settleStarted
        // A settlement that may still land keeps the payer's slot until the reconciler decides it (or its
        // authorization expires). 'unknown' follows a fault on our side (the RPC, the facilitator), not
        // the payer's conduct, and does not block the payer. The lane of payers with code is never kept:
        // one unmined settlement must not stop every smart wallet for minutes.
        keepTurn = disposition.kind === 'pending' && !hasCode
        if (disposition.kind === 'refused' && disposition.payerAtFault) {
          await payerSettlements.coolDown(payment.payer, hasCode)
          deps.logger.warn({ msg: 'payer put on cool-down', payer: payment.payer, code: disposition.code })
        }
      } finally {
        if (keepTurn) turn.keep()
        else await turn.end()
      }
      const id = rowId

      const recordStarted = performance.now()
      switch (disposition.kind) {
        case 'paid':
          keepClaim = true
          funds = 'settled'
          // Off the response path: the pending row written before the broadcast, and the reconciler,
          // already guarantee the outcome reaches the books even if this write is lost.
          recordLater(ledger.settle(id, disposition.transaction), id)
          setReceipt(c, {
            success: true,
            transaction: disposition.transaction,
            network: NETWORK,
            payer: payment.payer,
          })
          break
        case 'pending':
          // Broadcast (or maybe broadcast) but not seen included within the bounded wait: serve, never
          // rebroadcast, reconcile soon. The reservation lives until the row is decided.
          keepClaim = true
          funds = 'keep'
          recordLater(ledger.markPending(id, disposition.transaction || undefined), id)
          deps.reconcileSoon()
          setReceipt(c, {
            success: false,
            errorReason: 'settlement_pending',
            transaction: disposition.transaction,
            network: NETWORK,
            payer: payment.payer,
          })
          break
        case 'not_attempted':
          await ledger.fail(id, 'facilitator_unavailable')
          throw new FacilitatorUnavailableError({ cause: disposition.cause })
        case 'unknown':
          keepClaim = true
          funds = 'keep'
          // The pending row already reaches the reconciler: a store fault here must not turn this into
          // a "nothing was charged, retry" answer while the transfer may still land.
          await ledger
            .withhold(id, 'settlement_unknown')
            .catch((err: unknown) =>
              deps.logger.error({ msg: 'withholding the row failed; the reconciler decides it', id, err }),
            )
          deps.reconcileSoon()
          deps.logger.warn({
            msg: 'settlement outcome unknown; not served',
            payer: payment.payer,
            reason: disposition.reason,
          })
          throw new SettlementUnknownError()
        case 'refused':
          keepClaim = disposition.keepClaim
          await ledger.fail(id, disposition.code, disposition.transaction)
          deps.logger.info({ msg: 'settlement refused', code: disposition.code, payer: payment.payer })
          throw new PaymentError(disposition.code)
      }
      ledgerMs += performance.now() - recordStarted
      c.header(
        'Server-Timing',
        timing({
          gate: performance.now() - started - handlerMs - settleMs,
          verify: verifiedAt - started,
          claim: claimedMs,
          admit: admittedMs,
          ledger: ledgerMs,
          handler: handlerMs,
          settle: settleMs,
        }),
      )
      return undefined
    } catch (err) {
      // Other typed errors (429, 503) go to the error handler, which sets their headers (Retry-After).
      if (!(err instanceof PaymentError)) throw err
      c.res = undefined
      if (unpaidRefusal) await limiter.unpaid(client()).catch(() => undefined)
      c.res = admitted ? challengeResponse(c, currentAmount, nowSec, err) : await refuse(err)
      return c.res
    } finally {
      await Promise.all([
        keepClaim ? undefined : state.release(claimKey),
        // Best effort: a lost update only leaves the reservation to expire with the authorization, which
        // errs towards refusing, and must never turn a paid, served call into an error.
        (funds === 'release'
          ? deps.funds.release(payment.payer, payment.nonce)
          : funds === 'settled'
            ? deps.funds.settled(payment.payer, payment.nonce)
            : Promise.resolve()
        ).catch((err: unknown) => deps.logger.warn({ msg: 'funds book update failed', err })),
      ])
    }
  }
}

/** How many blocks back a settlement just attempted can have landed (ours, or a copy submitted first). */
const RECENT_BLOCKS = 256n

/** Settlement checks right after our attempt only look at recent blocks: nothing older can be ours. */
function recentBlocks(deps: AppDeps): () => Promise<bigint> {
  return async () => {
    const head = await deps.chain.getBlockNumber()
    return head > RECENT_BLOCKS ? head - RECENT_BLOCKS : 0n
  }
}

/** Whether `address` holds code now (a contract, or an EIP-7702 delegation): one uncached RPC. */
async function holdsCode(deps: AppDeps, address: `0x${string}`): Promise<boolean> {
  const code = await deps.chain.getCode({ address })
  return code !== undefined && code !== '0x'
}

function expectedTransfer(
  payment: CheckedPayment,
  payTo: `0x${string}`,
  txHash: string | undefined,
  nowSec: number,
): ExpectedTransfer {
  return {
    payer: payment.payer,
    payTo,
    nonce: payment.nonce,
    amount: payment.amount,
    txHash: txHash as `0x${string}` | undefined,
    validBefore: payment.validBefore,
    openedAtSec: nowSec,
  }
}

async function verifyWithFacilitator(
  forwarded: PaymentPayload,
  payment: CheckedPayment,
  deps: AppDeps,
): Promise<void> {
  let verdict: Awaited<ReturnType<AppDeps['facilitator']['verify']>>
  try {
    verdict = await deps.facilitator.verify(forwarded, payment.requirements)
  } catch (err) {
    throw new FacilitatorUnavailableError({ cause: err })
  }
  if (!verdict.isValid) throw new PaymentError(fromFacilitatorReason(verdict.invalidReason))
}

/** `?ref=` attributes the payment to another wallet; malformed, it is a 400 naming the field. */
function parseRef(ref: string | undefined): `0x${string}` | undefined {
  if (ref === undefined) return undefined
  const parsed = address.safeParse(ref)
  if (!parsed.success) {
    throw new InvalidInputError(
      'ref',
      `query field "ref" ${parsed.error.issues[0]?.message ?? 'must be a 0x-prefixed 20-byte wallet address.'}`,
    )
  }
  return ref as `0x${string}`
}

function setReceipt(c: Context<AppEnv>, receipt: SettleResponse): void {
  const encoded = encodePaymentResponseHeader(receipt)
  c.header('PAYMENT-RESPONSE', encoded)
  c.header('X-PAYMENT-RESPONSE', encoded)
  c.header('Cache-Control', 'private')
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
