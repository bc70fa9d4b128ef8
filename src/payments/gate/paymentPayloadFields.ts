import { z } from 'zod'

/** `bytes` bytes as 0x-prefixed hex. */
export const hexBytes = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`))

/** A payment payload's `accepted` member (the requirements the client chose), one shape for every rail. */
export function acceptedSchema<S extends z.ZodType, A extends z.ZodType>(scheme: S, amount: A) {
  return z.object({
    scheme,
    network: z.string(),
    asset: z.string(),
    amount,
    payTo: z.string(),
    maxTimeoutSeconds: z.number(),
    extra: z.record(z.string(), z.unknown()).optional(),
  })
}
