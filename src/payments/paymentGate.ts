import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentRequired, SettleResponse } from '@x402/core/types'
import type { Context, MiddlewareHandler } from 'hono'
import { isAddress } from 'viem'
import type { AppDeps } from '../app.js'
import { NETWORK } from '../chain/network.js'
import { AppError, InvalidInputError } from '../errors.js'
import type { AppEnv } from '../http/env.js'
import { clientAddress } from '../http/rateLimiter.js'
import type { Route } from '../routes/route.js'
import { buildChallenge, type Challenge, MAX_TIMEOUT_SECONDS } from './buildChallenge.js'
import { type CheckedPayment, checkPayment } from './checkPayment.js'
import { FacilitatorUnavailableError, fromFacilitatorReason, PaymentError } from './paymentError.js'
import { surgedAmount } from './surgeMeter.js'
import { usdToAtomic } from './usdToAtomic.js'

/** How long past an authorization's expiry its claim is kept (clock skew between us and the chain). */
const CLAIM_GRACE_SECONDS = 60

/**
 * The x402 v2 gate in front of one priced route.
 *
 * Unpaid → 402 before any input validation. Paid (PAYMENT-SIGNATURE or its alias X-PAYMENT) →
 * local checks → paid rate limit → claim on the authorization → handler → settle only if the handler
 * answered < 400 → 200 with the receipt in PAYMENT-RESPONSE and X-PAYMENT-RESPONSE. Every refusal is a
 * 402 with a specific code and a fresh challenge; a failed handler keeps its own error and costs nothing.
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
    surge.record()
    const nowSec = Math.floor(deps.clock() / 1000)
    const currentAmount = surgedAmount(baseAmount, surge.multiplier())
    const header = c.req.header('payment-signature') ?? c.req.header('x-payment')
    if (header === undefined) return paymentRequired(c, challengeFor(c, currentAmount, nowSec))

    let payment: CheckedPayment
    try {
      payment = await checkPayment(header, {
        route: scope,
        currentAmount,
        payTo: config.payTo,
        nowSec,
        quotes,
        isContract: async (address) => ((await deps.chain.getCode({ address })) ?? '0x') !== '0x',
      })
    } catch (err) {
      // A payment that does not check out is unpaid traffic.
      await limiter.unpaid(clientAddress(c, config.rateLimits.trustProxy))
      if (err instanceof PaymentError) return paymentRequired(c, challengeFor(c, currentAmount, nowSec), err)
      throw err
    }
    await limiter.paid(payment.payer)
    const verifiedAt = performance.now()
    const referrer = referrerOf(c.req.query('ref'), payment.payer)

    const claimKey = `auth:${payment.payer.toLowerCase()}:${payment.nonce.toLowerCase()}`
    const claimTtlMs = (Math.max(0, payment.validBefore - nowSec) + CLAIM_GRACE_SECONDS) * 1000
    if (!(await state.claim(claimKey, claimTtlMs))) {
      return paymentRequired(c, challengeFor(c, currentAmount, nowSec), new PaymentError('payment_replayed'))
    }
    // From here on every exit either keeps the claim (money moved or may have) or releases it.
    let keepClaim = false
    let handlerMs = 0
    let settleMs = 0
    let ledgerMs = 0
    const claimedMs = performance.now() - verifiedAt
    try {
      if (!payment.signatureRecovered) await verifyWithFacilitator(payment, deps)

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
        // The facilitator did not answer: the outcome is unknown, so the row stays pending and the
        // reconciler asks the chain. The caller is not charged unless the chain says so.
        keepClaim = true
        deps.logger.warn({ msg: 'settlement outcome unknown', payer: payment.payer, err })
        throw new FacilitatorUnavailableError({ cause: err })
      } finally {
        settleMs = performance.now() - settleStarted
      }

      const recordStarted = performance.now()
      if (result.success) {
        keepClaim = true
        // Off the response path: the pending row written before the broadcast, and the reconciler,
        // already guarantee the outcome reaches the books even if this write is lost.
        recordLater(ledger.settle(id, result.transaction), id)
        setReceipt(c, { ...result, network: NETWORK, payer: payment.payer })
      } else if (result.errorReason === 'settlement_pending' && result.transaction !== '') {
        // Broadcast but not seen included within the bounded wait: never rebroadcast; reconcile later.
        keepClaim = true
        recordLater(ledger.markPending(id, result.transaction), id)
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
          ledger: ledgerMs,
          handler: handlerMs,
          settle: settleMs,
        }),
      )
      return undefined
    } catch (err) {
      const challenge = challengeFor(c, currentAmount, nowSec)
      c.res = undefined
      if (err instanceof PaymentError) c.res = paymentRequired(c, challenge, err)
      else if (err instanceof AppError) c.res = c.json(err.toBody(), err.status)
      else throw err
      return c.res
    } finally {
      if (!keepClaim) await state.release(claimKey)
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
 * the paid rate limit), `claim` (the replay claim), `ledger` (the pending row written before the
 * broadcast; the outcome is recorded after the response).
 */
function timing(
  parts: Record<'gate' | 'verify' | 'claim' | 'ledger' | 'handler' | 'settle', number>,
): string {
  return Object.entries(parts)
    .map(([name, ms]) => `${name};dur=${ms.toFixed(3)}`)
    .join(', ')
}
