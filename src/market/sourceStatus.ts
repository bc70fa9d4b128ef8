import { z } from 'zod'

/** One upstream's outcome in a wallet read's `sources` block: answered, or why not. */
export const sourceStatus = z
  .union([z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), error: z.string() })])
  .describe(
    'ok, or why this source failed (the sections it feeds are then empty, null or reduced, as the description says)',
  )

export type SourceStatus = z.infer<typeof sourceStatus>

export const SOURCE_OK: SourceStatus = { ok: true }

export function sourceFailed(err: unknown): SourceStatus {
  return { ok: false, error: err instanceof Error ? err.message : String(err) }
}

/**
 * The status of a source read with Promise.allSettled: its rejection, else the partial failures it
 * reported (a reverted call among many), else ok.
 */
export function settledStatus(
  settled: PromiseSettledResult<unknown>,
  partialFailures: readonly string[] = [],
): SourceStatus {
  if (settled.status === 'rejected') return sourceFailed(settled.reason)
  return partialFailures.length > 0 ? sourceFailed(partialFailures.join('; ')) : SOURCE_OK
}
