import { z } from 'zod'

/**
 * Numbers as upstreams send them: a JSON number or a decimal string ("64123.45", "-0.5", "1e-7").
 * Unlike `z.coerce.number()`, which reads `null`, `""`, `false` and `[]` as 0, a missing or empty value
 * is refused here: a price, an amount or an open interest that is not there must never become a 0.
 */
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/

export const wireNumber = z
  .union([z.number(), z.string().trim().regex(DECIMAL, { error: 'must be a decimal number' })])
  .transform((v) => (typeof v === 'number' ? v : Number(v)))
  .refine(Number.isFinite, { error: 'must be a finite number' })

/** A wire number above zero: a price (a zero price is an unpublished or broken feed, never a quote). */
export const wirePrice = wireNumber.refine((n) => n > 0, { error: 'must be above zero' })
