import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentRequired, SettleResponse } from '@x402/core/types'
import type { Context, MiddlewareHandler } from 'hono'
import { isAddress } from 'viem'
import type { AppDeps } from '../app.js'
import { NETWORK } from '../chain/network.js'
import { InvalidInputError } from '../errors.js'
import type { AppEnv } from '../http/env.js'
import { clientAddress } from '../http/rateLimiter.js'
import type { Route } from '../routes/route.js'
import { buildChallenge, type Challenge, MAX_TIMEOUT_SECONDS } from './buildChallenge.js'
import { type CheckedPayment, checkPayment } from './checkPayment.js'
import { SettlementNotAttemptedError } from './createFacilitator.js'
import { FacilitatorUnavailableError, fromFacilitatorReason, PaymentError } from './paymentError.js'
import { surgedAmount } from './surgeMeter.js'
import { usdToAtomic } from './usdToAtomic.js'

/** How long past an authorization's expiry its claim is kept (clock skew between us and the chain). */
const CLAIM_GRACE_SECONDS = 60

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
  const { config, surge, quotes, state, ledger, facilitator, limiter } = deps

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
    if (header === undefined) return paymentRequired(c, challengeFor(c, currentAmount, nowSec))

    // Until the payment proves its wallet, the request counts against the client's unpaid ceiling: a
    // replayed, forged or garbage payment never spends the named wallet's paid ceiling.
    let countedUnpaid = false
    const countUnpaid = async () => {
      if (countedUnpaid) return
      countedUnpaid = true
      await limiter.unpaid(clientAddress(c, config.rateLimits.trustProxy))
    }
    const refuse = (err: PaymentError) => paymentRequired(c, challengeFor(c, currentAmount, nowSec), err)

    let payment: CheckedPayment
    let referrer: string | undefined
    try {
      payment = await checkPayment(header, {
        route: scope,
        currentAmount,
        payTo: config.payTo,
        nowSec,
        quotes,
        // Only for signatures that do not recover locally: the RPC is counted before it is spent.
        isContract: async (address) => {
          await countUnpaid()
          return deps.isContract(address)
        },
      })
      referrer = referrerOf(c.req.query('ref'), payment.payer)
    } catch (err) {
      await countUnpaid()
      if (err instanceof PaymentError) return refuse(err)
      throw err
    }
    const verifiedAt = performance.now()

    const claimKey = `auth:${payment.payer.toLowerCase()}:${payment.nonce.toLowerCase()}`
    const claimTtlMs = (Math.max(0, payment.validBefore - nowSec) + CLAIM_GRACE_SECONDS) * 1000
    if (!(await state.claim(claimKey, claimTtlMs))) {
      // A copy of an authorization in use or used: it proves nothing about who sends it.
      await countUnpaid()
      return refuse(new PaymentError('payment_replayed'))
    }
    // From here on every exit either keeps the claim (money moved or may have) or releases it, and the
    // funds reservation follows the money: kept while a settlement may land, released when none will.
    let keepClaim = false
    // What becomes of the funds reservation: released unless a transfer landed or may still land.
    let funds: 'none' | 'release' | 'settled' | 'keep' = 'none'
    let handlerMs = 0
    let settleMs = 0
    let ledgerMs = 0
    const claimedMs = performance.now() - verifiedAt
    try {
      if (!payment.signatureRecovered) await verifyWithFacilitator(payment, deps)
      // Proven: the signature is the wallet's and the authorization is fresh. Now its own ceiling.
      await limiter.paid(payment.payer)
      await deps.funds.reserve({
        payer: payment.payer,
        nonce: payment.nonce,
        amount: payment.amount,
        ttlMs: claimTtlMs,
      })
      funds = 'release'
      // Surge meters admitted work only: refused, replayed and rate-limited requests never move it.
      surge.record()
      const admittedMs = performance.now() - verifiedAt - claimedMs

      const handlerStarted = performance.now()
      await next()
      handlerMs = performance.now() - handlerStarted
      if (c.res.status >= 400) return undefined

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

      const settleStarted = performance.now()
      let result: SettleResponse
      try {
        result = await facilitator.settle(payment.payload, payment.requirements)
      } catch (err) {
        if (err instanceof SettlementNotAttemptedError) {
          // Refused before it could broadcast anything: nothing moved, nothing is served.
          await ledger.fail(id, 'facilitator_unavailable')
          throw new FacilitatorUnavailableError({ cause: err })
        }
        // The facilitator may have broadcast before it failed: the outcome is unknown. Tell the truth
        // and serve: the receipt says pending, and the reconciler settles the row from the chain (or
        // closes it unpaid). The caller is never charged for a call it was not served.
        deps.logger.warn({ msg: 'settlement outcome unknown', payer: payment.payer, err })
        result = { success: false, errorReason: 'settlement_pending', transaction: '', network: NETWORK }
      } finally {
        settleMs = performance.now() - settleStarted
      }

      const recordStarted = performance.now()
      if (result.success) {
        keepClaim = true
        funds = 'settled'
        // Off the response path: the pending row written before the broadcast, and the reconciler,
        // already guarantee the outcome reaches the books even if this write is lost.
        recordLater(ledger.settle(id, result.transaction, true), id)
        setReceipt(c, { ...result, network: NETWORK, payer: payment.payer })
      } else if (result.errorReason === 'settlement_pending') {
        // Broadcast (or maybe broadcast) but not seen included within the bounded wait: never
        // rebroadcast; reconcile later. The reservation lives until the authorization expires.
        keepClaim = true
        funds = 'keep'
        recordLater(ledger.markPending(id, result.transaction || undefined), id)
        setReceipt(c, {
          success: false,
          errorReason: 'settlement_pending',
          transaction: result.transaction,
          network: NETWORK,
          payer: payment.payer,
        })
      } else {
        const code = fromFacilitatorReason(result.errorReason)
        keepClaim = code === 'payment_replayed'
        await ledger.fail(id, code, result.transaction || undefined)
        deps.logger.info({ msg: 'settlement refused', reason: result.errorReason, payer: payment.payer })
        throw new PaymentError(code)
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
      c.res = refuse(err)
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

async function verifyWithFacilitator(payment: CheckedPayment, deps: AppDeps): Promise<void> {
  let verdict: Awaited<ReturnType<AppDeps['facilitator']['verify']>>
  try {
    verdict = await deps.facilitator.verify(payment.payload, payment.requirements)
  } catch (err) {
    throw new FacilitatorUnavailableError({ cause: err })
  }
  if (!verdict.isValid) throw new PaymentError(fromFacilitatorReason(verdict.invalidReason))
}

/** `?ref=` attributes the payment to another wallet; a wallet cannot refer itself. */
function referrerOf(ref: string | undefined, payer: `0x${string}`): string | undefined {
  if (ref === undefined) return undefined
  if (!isAddress(ref, { strict: false })) {
    throw new InvalidInputError('ref', 'query field "ref" must be a 0x-prefixed 20-byte wallet address.')
  }
  return ref.toLowerCase() === payer.toLowerCase() ? undefined : ref
}

function paymentRequired(c: Context<AppEnv>, challenge: Challenge, error?: PaymentError): Response {
  const { promote, utilCredit, ...required } = challenge
  const header: PaymentRequired = error === undefined ? required : { ...required, error: error.code }
  const body = error === undefined ? challenge : { ...challenge, error: error.toBody().error }
  return c.json(body, 402, {
    'PAYMENT-REQUIRED': encodePaymentRequiredHeader(header),
    'Cache-Control': 'no-store',
  })
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
