import { Worker } from 'node:worker_threads'

/**
 * Kills this process `ms` from now, from a worker thread. The main thread's own exit timer cannot fire
 * while something synchronous blocks that thread (issue 23: a logger retrying a write to a closed pipe,
 * parked in Atomics.wait at exit); a worker's timer runs on its own thread. Unref'd: a process that
 * exits in time is not held by it.
 */
export function startExitWatchdog(ms: number): void {
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads')
     setTimeout(() => process.kill(process.pid, 'SIGKILL'), workerData)`,
    { eval: true, workerData: ms },
  )
  worker.unref()
}
