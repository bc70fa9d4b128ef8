import { encodePaymentResponseHeader } from '@x402/core/http'
import type { SettleResponse } from '@x402/core/types'
import type { Context, MiddlewareHandler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { AppDeps } from '../deps.js'
import { unreachable } from '../errors.js'
import type { EncodedChallenge } from '../payments/gate/encodeChallenge.js'
import type { GateOutcome } from '../payments/gate/gateOutcome.js'
import type { PaymentGate } from '../payments/gate/paymentGate.js'
import type { StoredAnswer } from '../payments/gate/paymentRetries.js'
import { bodyDigest } from './bodyDigest.js'
import { clientAddress } from './clientAddress.js'
import type { AppEnv } from './env.js'

/**
 * The payment gate (src/payments/gate/paymentGate.ts) in front of one priced route, as Hono middleware: the
 * request's pieces in, the gate's outcome out as a response (a 402), headers on the route's answer (the
 * receipt), or an error for the error handler.
 */
export function paymentMiddleware(gate: PaymentGate, deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const outcome = await gate.admit({
      method: c.req.method,
      url: c.req.url,
      payment: c.req.header('payment-signature') ?? c.req.header('x-payment'),
      ref: c.req.query('ref'),
      topUp: c.req.header('x-util-topup'),
      creditOff: c.req.header('x-util-credit')?.trim().toLowerCase() === 'off',
      client: clientAddress(c, deps.config.rateLimits.trustProxy),
      next: async (payer) => {
        if (payer !== undefined) c.set('payer', payer)
        await next()
        return c.res.status
      },
      bodyDigest: () => bodyDigest(c, deps.config.bodyLimitBytes),
      answer: async () => ({
        status: c.res.status,
        contentType: c.res.headers.get('content-type'),
        body: await c.res.clone().text(),
      }),
    })
    return respond(c, outcome)
  }
}

function respond(c: Context<AppEnv>, outcome: GateOutcome): Response | undefined {
  switch (outcome.kind) {
    case 'challenge':
      return challengeResponse(c, outcome.challenge)
    case 'refuse':
      if (!outcome.discard) return challengeResponse(c, outcome.challenge)
      // Whatever was written so far (the route's answer, its headers) is dropped: the 402 is the answer.
      c.res = undefined
      c.res = challengeResponse(c, outcome.challenge)
      return c.res
    case 'serve':
      setReceipt(c, outcome.receipt)
      c.header('Server-Timing', outcome.serverTiming)
      return undefined
    case 'replay':
      return replayResponse(c, outcome.answer)
    case 'answer':
      setReceipt(c, outcome.receipt)
      return c.json(outcome.body as object, 200)
    case 'pass':
      return undefined
    case 'error':
      if (outcome.discard) c.res = undefined
      // Typed errors (400, 429, 503) go to the error handler, which sets their headers (Retry-After).
      throw outcome.error
    case 'release_failed':
      try {
        respond(c, outcome.decided)
      } catch {
        // The store's error below replaces the one decided.
      }
      throw outcome.error
    default:
      return unreachable(outcome)
  }
}

function challengeResponse(c: Context<AppEnv>, encoded: EncodedChallenge): Response {
  return c.body(encoded.body, 402, {
    'Content-Type': 'application/json',
    'PAYMENT-REQUIRED': encoded.header,
    'Cache-Control': 'no-store',
  })
}

/** A retry's answer: the stored one, as it first left (its status, body and receipt). */
function replayResponse(c: Context<AppEnv>, answer: StoredAnswer): Response {
  setReceipt(c, answer.receipt)
  if (answer.contentType !== null) c.header('Content-Type', answer.contentType)
  // A served answer's own status (< 400, with a body), as the handler set it.
  return c.body(answer.body, answer.status as ContentfulStatusCode)
}

function setReceipt(c: Context<AppEnv>, receipt: SettleResponse): void {
  const encoded = encodePaymentResponseHeader(receipt)
  c.header('PAYMENT-RESPONSE', encoded)
  c.header('X-PAYMENT-RESPONSE', encoded)
  c.header('Cache-Control', 'private')
}
