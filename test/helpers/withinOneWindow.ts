/**
 * Rate ceilings count in fixed windows (RATE_LIMIT_WINDOW_SECONDS, 60 s by default): a scenario that
 * straddles a window's end sees its count restart half-way. Runs `scenario` again (once, then once more)
 * when the window changed while it ran, so its counts always come from one window. Each run must stand
 * on its own (a fresh client address, fresh authorizations).
 */
export async function withinOneWindow<T>(scenario: () => Promise<T>, windowSeconds = 60): Promise<T> {
  const windowOf = () => Math.floor(Date.now() / (windowSeconds * 1000))
  for (let attempt = 1; ; attempt++) {
    const started = windowOf()
    try {
      const result = await scenario()
      if (windowOf() === started || attempt >= 3) return result
    } catch (err) {
      if (windowOf() === started || attempt >= 3) throw err
    }
  }
}
