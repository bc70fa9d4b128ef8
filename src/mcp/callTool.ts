import { createHash } from 'node:crypto'
import { encodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload } from '@x402/core/types'
import type { AppDeps } from '../deps.js'
import { AppError, unreachable } from '../errors.js'
import type { Logger } from '../logger.js'
import type { EncodedChallenge } from '../payments/gate/encodeChallenge.js'
import type { GateOutcome } from '../payments/gate/gateOutcome.js'
import type { PaymentGate } from '../payments/gate/paymentGate.js'
import type { Route } from '../routes/route.js'
import { mcpBazaar } from './mcpBazaar.js'
import { jsonResult, paymentOf, type ToolResult } from './mcpToolResult.js'
import { toolInput, toolPath } from './toolInput.js'

/** What one tools/call needs besides its route. */
export interface ToolCall {
  route: Route
  /** The route's payment gate (the same one HTTP uses); undefined for a free route. */
  gate: PaymentGate | undefined
  deps: AppDeps
  routes: readonly Route[]
  args: Record<string, unknown>
  /** `params._meta` of the call: `x402/payment` carries the PaymentPayload. */
  meta: Record<string, unknown> | undefined
  /** The MCP request's client address: the key of its unpaid ceiling, as over HTTP. */
  client: string
  requestId: string
  logger: Logger
}

const INTERNAL = { error: { code: 'internal_error', message: 'Internal error. Nothing was charged.' } }

/**
 * One tools/call over x402's MCP transport (specs/transports-v2/mcp.md), through the route's own payment
 * gate, so replay claims, the ledger, rate limits, the credit rail, batch-settlement, payment identifiers
 * and referrals are HTTP's, not a copy. Unpaid: an `isError` result whose structuredContent (and
 * content[0].text) is the PaymentRequired, its resource `mcp://tool/<name>`. Paid: the payload from
 * `_meta["x402/payment"]` goes through the gate as a PAYMENT-SIGNATURE would; the handler runs once, the
 * settlement follows only its success and comes back in `_meta["x402/payment-response"]`; a refusal is
 * another `isError` PaymentRequired with the content withheld.
 */
export async function callTool(call: ToolCall): Promise<ToolResult> {
  const { route, gate, deps } = call
  const raw = toolInput(route, call.args)
  const ctx = { deps, routes: call.routes, requestId: call.requestId, logger: call.logger }
  if (gate === undefined) {
    try {
      return jsonResult(await route.run(raw, ctx))
    } catch (err) {
      return failure(err, call.logger)
    }
  }
  const query = new URLSearchParams(raw.query).toString()
  const url = `${deps.config.publicUrl}${toolPath(route, raw.params)}${query === '' ? '' : `?${query}`}`
  const payload = paymentOf(call.meta)
  // The handler's answer, kept for the result (and for a payment identifier's stored answer).
  let answer: { status: number; body: unknown } = { status: 500, body: INTERNAL }
  const outcome = await gate.admit({
    method: route.method,
    url,
    payment: payload === undefined ? undefined : encodePaymentSignatureHeader(payload as PaymentPayload),
    ref: typeof call.args.ref === 'string' ? call.args.ref : undefined,
    topUp: typeof call.meta?.['x402/util-topup'] === 'string' ? call.meta['x402/util-topup'] : undefined,
    creditOff: call.meta?.['x402/util-credit'] === 'off',
    client: call.client,
    next: async (payer) => {
      try {
        answer = { status: 200, body: await route.run(raw, { ...ctx, payer }) }
      } catch (err) {
        answer =
          err instanceof AppError
            ? { status: err.status, body: err.toBody() }
            : { status: 500, body: INTERNAL }
        if (!(err instanceof AppError)) call.logger.error({ msg: 'mcp tool failed', tool: route.id, err })
      }
      return answer.status
    },
    bodyDigest: async () =>
      route.method === 'POST'
        ? createHash('sha256')
            .update(JSON.stringify(raw.body ?? {}))
            .digest('hex')
        : '',
    answer: async () => ({
      status: answer.status,
      contentType: 'application/json',
      body: JSON.stringify(answer.body),
    }),
  })
  return resultOf(outcome, route, () => answer, call.logger)
}

function resultOf(
  outcome: GateOutcome,
  route: Route,
  answer: () => { status: number; body: unknown },
  logger: Logger,
): ToolResult {
  switch (outcome.kind) {
    case 'challenge':
    case 'refuse':
      return jsonResult(paymentRequired(outcome.challenge, route), { isError: true })
    case 'serve':
      return jsonResult(answer().body, { receipt: outcome.receipt })
    case 'replay':
      return jsonResult(JSON.parse(outcome.answer.body) as unknown, { receipt: outcome.answer.receipt })
    case 'answer':
      return jsonResult(outcome.body, { receipt: outcome.receipt })
    case 'pass':
      return jsonResult(answer().body, { isError: true })
    case 'error':
      return failure(outcome.error, logger)
    case 'release_failed':
      return failure(outcome.error, logger)
    default:
      return unreachable(outcome)
  }
}

/**
 * The 402 body as MCP's PaymentRequired: the resource is the tool (`mcp://tool/<name>`), and `bazaar` takes
 * its MCP form (the tool's name and arguments, not an HTTP method and query).
 */
function paymentRequired(challenge: EncodedChallenge, route: Route): Record<string, unknown> {
  const body = JSON.parse(challenge.body) as Record<string, unknown> & {
    resource?: Record<string, unknown>
    extensions?: Record<string, unknown>
  }
  return {
    ...body,
    resource: { ...body.resource, url: `mcp://tool/${route.id}` },
    extensions: { ...body.extensions, bazaar: mcpBazaar(route) },
  }
}

/** A typed error as its error body; anything else is a bug: `internal_error`, logged. */
function failure(err: unknown, logger: Logger): ToolResult {
  if (err instanceof AppError) return jsonResult(err.toBody(), { isError: true })
  logger.error({ msg: 'mcp tool failed', err })
  return jsonResult(INTERNAL, { isError: true })
}
