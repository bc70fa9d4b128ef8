import { vi } from 'vitest'

/**
 * Waits, with a bounded poll, for an effect that the service makes after its response (an outcome
 * written to the ledger off the response path, a reconcile round). Ten seconds is room for a busy
 * machine, not a timing expectation: an effect that never comes fails the test with its last error.
 */
export function eventually<T>(check: () => Promise<T> | T): Promise<T> {
  return vi.waitFor(check, { timeout: 10_000, interval: 50 })
}
