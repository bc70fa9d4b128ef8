/**
 * A clock that follows the wall clock until a test holds it at an instant: the devnet world's simulator
 * reads it, so a test whose truth changes with simulated time (the crowd turns on the hour) stops time
 * instead of waiting for a safe moment.
 */
export interface TestClock {
  now(): number
  /** Stands still at `atMs` until `follow()`. */
  hold(atMs: number): void
  /** Back to the wall clock. */
  follow(): void
}

export function createTestClock(): TestClock {
  let held: number | undefined
  return {
    now: () => held ?? Date.now(),
    hold(atMs) {
      held = atMs
    },
    follow() {
      held = undefined
    },
  }
}
