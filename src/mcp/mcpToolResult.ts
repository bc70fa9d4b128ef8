import type { SettleResponse } from '@x402/core/types'

/** The `_meta` keys of x402's MCP transport (specs/transports-v2/mcp.md). */
export const X402_PAYMENT = 'x402/payment'
export const X402_PAYMENT_RESPONSE = 'x402/payment-response'

/**
 * The payment a tools/call's `_meta` carries: an object under `x402/payment`, which the route's gate then
 * judges (and counts when it refuses). Anything else there (null, a string, a number, absent) is no
 * payment: the call is unpaid, and counts against the unpaid ceiling like any unpaid call.
 */
export function paymentOf(meta: Record<string, unknown> | undefined): object | undefined {
  const payment = meta?.[X402_PAYMENT]
  return payment !== null && typeof payment === 'object' ? payment : undefined
}

/** A tools/call result, in the shape the MCP SDK's CallToolResult takes. */
export interface ToolResult {
  [key: string]: unknown
  content: { type: 'text'; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
  _meta?: Record<string, unknown>
}

/**
 * An answer as a tool result: the JSON in `content[0].text` and, for an object, the same in
 * `structuredContent`. Tools declare no output schema, so an unmodified SDK client reads a PaymentRequired
 * result and a data result alike (the SDK validates structuredContent only against a declared schema).
 */
export function jsonResult(
  value: unknown,
  extra: { isError?: boolean; receipt?: SettleResponse } = {},
): ToolResult {
  const result: ToolResult = { content: [{ type: 'text', text: JSON.stringify(value) }] }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    result.structuredContent = value as Record<string, unknown>
  }
  if (extra.isError) result.isError = true
  if (extra.receipt !== undefined) result._meta = { [X402_PAYMENT_RESPONSE]: extra.receipt }
  return result
}
