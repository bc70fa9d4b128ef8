import type { HandlerContext } from '../route.js'

/**
 * The wallet that paid for this call: a priced route's handler runs only after the payment gate admitted a
 * payment, and the gate names its payer. A missing payer is a wiring bug, never the caller's fault.
 */
export function payerOf(ctx: HandlerContext): `0x${string}` {
  if (ctx.payer === undefined) throw new Error('a priced handler ran without the payer the gate admitted')
  return ctx.payer
}
