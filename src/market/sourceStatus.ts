/** A section's source in a wallet read's `sources` block: answered, or why not. */
export type SourceStatus = { ok: true } | { ok: false; error: string }

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
