/**
 * What /ready reports: every component the service needs registers here and flips to ready once up.
 * The service is ready when all registered components are. A component can also be a check that /ready
 * re-runs when its last answer is older than its interval (the production preflight): its failure keeps
 * the service out of ready, with the check's message in `problems`.
 */
export interface Readiness {
  register(component: string): void
  markReady(component: string): void
  markDown(component: string, problem?: string): void
  /**
   * Registers `component` as a check: `run` answers undefined when all is well, else the problem. It is
   * re-run by `refresh` when its last run is older than `everyMs` (`retryMs` after a failure), one run at
   * a time; it has not run before the first refresh.
   */
  addCheck(
    component: string,
    run: () => Promise<string | undefined>,
    timing: { everyMs: number; retryMs: number },
  ): void
  /**
   * Starts the checks that are due, at most one run per check at a time and never more often than once a
   * second; resolves when they have answered. /ready does not wait for it (a hung RPC would hold every
   * probe): it answers from the last results.
   */
  refresh(): Promise<void>
  state(): { ready: boolean; components: Record<string, boolean>; problems: Record<string, string> }
}

/** However often /ready is asked, a check runs at most once a second. */
const MIN_CHECK_SPACING_MS = 1_000

interface Check {
  run: () => Promise<string | undefined>
  everyMs: number
  retryMs: number
  lastRun: number
  inFlight: Promise<void> | undefined
}

export function createReadiness(clock: () => number = Date.now): Readiness {
  const components = new Map<string, boolean>()
  const problems = new Map<string, string>()
  const checks = new Map<string, Check>()
  const runCheck = (component: string, check: Check): Promise<void> => {
    check.inFlight ??= check
      .run()
      .catch((err: unknown) => `the check failed: ${err instanceof Error ? err.message : String(err)}`)
      .then((problem) => {
        check.lastRun = clock()
        components.set(component, problem === undefined)
        if (problem === undefined) problems.delete(component)
        else problems.set(component, problem)
      })
      .finally(() => {
        check.inFlight = undefined
      })
    return check.inFlight
  }
  return {
    register: (component) => void components.set(component, false),
    markReady: (component) => {
      components.set(component, true)
      problems.delete(component)
    },
    markDown: (component, problem) => {
      components.set(component, false)
      if (problem !== undefined) problems.set(component, problem)
    },
    addCheck(component, run, { everyMs, retryMs }) {
      components.set(component, false)
      problems.set(component, 'not checked yet')
      checks.set(component, { run, everyMs, retryMs, lastRun: Number.NEGATIVE_INFINITY, inFlight: undefined })
    },
    async refresh() {
      const now = clock()
      const due = [...checks].filter(([component, check]) => {
        const every = components.get(component) === true ? check.everyMs : check.retryMs
        return now - check.lastRun >= Math.max(every, MIN_CHECK_SPACING_MS)
      })
      await Promise.all(due.map(([component, check]) => runCheck(component, check)))
    },
    state() {
      const snapshot = Object.fromEntries(components)
      return {
        ready: components.size > 0 && [...components.values()].every(Boolean),
        components: snapshot,
        problems: Object.fromEntries(problems),
      }
    },
  }
}
