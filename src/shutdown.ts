/**
 * The process's teardowns in one place (as ponder's `shutdown.add`): each part that starts timers or holds
 * a connection registers how it stops when it is built, and `run` stops them in reverse order of
 * registration, so what was built last (and uses what came before) stops first, and the store closes last.
 */
export interface Shutdown {
  add(name: string, teardown: () => Promise<unknown> | unknown): void
  /**
   * Runs every teardown once, last registered first, each after the one before it finished; a failure
   * does not stop the rest (a store left open would hold the process), and the first is thrown at the end.
   */
  run(): Promise<void>
}

export function createShutdown(): Shutdown {
  const teardowns: { name: string; teardown: () => Promise<unknown> | unknown }[] = []
  let running: Promise<void> | undefined
  const runAll = async () => {
    let failure: Error | undefined
    for (const { name, teardown } of teardowns.reverse()) {
      try {
        await teardown()
      } catch (err) {
        failure ??= new Error(`shutdown: ${name} failed`, { cause: err })
      }
    }
    if (failure !== undefined) throw failure
  }
  return {
    add(name, teardown) {
      if (running !== undefined) throw new Error(`shutdown: ${name} registered after the shutdown began`)
      teardowns.push({ name, teardown })
    },
    run() {
      running ??= runAll()
      return running
    },
  }
}
