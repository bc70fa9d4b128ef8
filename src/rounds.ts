const FAST_ROUND_MS = 2_000
const FAST_ROUNDS = 4

export interface Rounds {
  /** A round that starts after this call (queued behind a running one if need be); resolves to its result. */
  run(): Promise<number>
  /** Rounds soon (2, 4, 8, 16 s), not only on the interval, while a round reports work left. */
  soon(): void
  /** No round starts on the interval or soon any more (one asked by `run` still does). */
  stopTimers(): void
  /** The round running and the one queued, finished. */
  settled(): Promise<void>
}

/**
 * A background round on an interval, one at a time. A caller always gets a round that starts after its call,
 * so it sees every change made before it asked. `round` resolves to the work it left (rows still pending):
 * after `soon`, rounds follow at 2, 4, 8 and 16 s until none is left.
 */
export function scheduleRounds(round: () => Promise<number>, intervalMs: number): Rounds {
  let running: Promise<number> | undefined
  let queued: Promise<number> | undefined
  const run = (): Promise<number> => {
    if (running === undefined) {
      running = round().finally(() => {
        running = undefined
      })
      return running
    }
    queued ??= running.then(() => {
      queued = undefined
      return run()
    })
    return queued
  }
  const timer = setInterval(() => void run(), intervalMs)
  timer.unref()
  let soonTimer: NodeJS.Timeout | undefined
  let attempt = 0
  let stopped = false
  const schedule = () => {
    if (stopped) return
    soonTimer = setTimeout(
      async () => {
        const left = await run()
        soonTimer = undefined
        if (left > 0 && ++attempt < FAST_ROUNDS) schedule()
      },
      FAST_ROUND_MS * 2 ** attempt,
    )
    soonTimer.unref()
  }
  return {
    run,
    soon: () => {
      attempt = 0
      if (soonTimer === undefined) schedule()
    },
    stopTimers() {
      stopped = true
      clearInterval(timer)
      clearTimeout(soonTimer)
    },
    async settled() {
      await queued
      await running
    },
  }
}
