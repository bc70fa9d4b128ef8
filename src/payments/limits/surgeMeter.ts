/**
 * Load-driven surge. The meter counts admitted paid calls (the gate records one when it hands a proven,
 * claimed and funded payment to the handler) in a sliding window of ten one-second buckets: rejected
 * and rate-limited traffic costs us little and must not raise the price for everyone. Below half of the capacity there is no surge; from there the multiplier rises
 * linearly and reaches the 2x cap at full capacity:
 *
 *   multiplier = clamp(1 + (rps − capacity/2) / (capacity/2), 1, 2), rounded down to a step of 0.1
 *
 * Each instance meters its own load (it is the instance that is busy). Credit calls are exempt.
 */
export interface SurgeMeter {
  record(): void
  /** Priced requests per second over the last ten seconds. */
  rps(): number
  multiplier(): number
}

export const SURGE_CAP = 2
const BUCKETS = 10

export function createSurgeMeter(capacityRps: number, now: () => number = Date.now): SurgeMeter {
  const counts = new Array<number>(BUCKETS).fill(0)
  const stamps = new Array<number>(BUCKETS).fill(-1)
  const rps = () => {
    const second = Math.floor(now() / 1000)
    let total = 0
    for (let i = 0; i < BUCKETS; i++)
      if (second - (stamps[i] as number) < BUCKETS) total += counts[i] as number
    return total / BUCKETS
  }
  return {
    record() {
      const second = Math.floor(now() / 1000)
      const i = second % BUCKETS
      if (stamps[i] !== second) {
        stamps[i] = second
        counts[i] = 0
      }
      counts[i] = (counts[i] as number) + 1
    },
    rps,
    multiplier() {
      const half = capacityRps / 2
      const raw = 1 + (rps() - half) / half
      const stepped = Math.floor(Math.min(SURGE_CAP, Math.max(1, raw)) * 10 + 1e-9) / 10
      return stepped
    },
  }
}

/** Base price times surge, in atomic units; the multiplier is applied in tenths so amounts stay exact. */
export function surgedAmount(baseAtomic: bigint, multiplier: number): bigint {
  return (baseAtomic * BigInt(Math.round(multiplier * 10))) / 10n
}
