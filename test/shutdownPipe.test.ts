import { describe, expect, test } from 'vitest'
import { UPSTREAM_PORT_COUNT } from '../src/config.js'
import { freePortRange } from '../src/devnet/anvil.js'
import { spawnService } from './helpers/spawnService.js'

const GRACE_MS = 3_000
async function ports(): Promise<Record<string, string>> {
  const first = await freePortRange(2 + UPSTREAM_PORT_COUNT)
  return {
    PORT: String(first),
    DEVNET_RPC_PORT: String(first + 1),
    DEVNET_UPSTREAM_PORT: String(first + 2),
    DATA_DIR: 'memory://',
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Issue 23: a service started with piped stdio (as a supervisor or a log shipper runs it) whose reader
 * goes away while it logs, then gets SIGTERM with its process group, must still exit within its grace
 * period. Before the fix, the logger's synchronous flush at exit retried EPIPE forever, parked in
 * Atomics.wait, with no timer able to fire.
 */
describe('shutdown with a dead stdout reader', () => {
  test('behavior: the reader closes while the service logs, SIGTERM to the group: the process is gone within the grace period, every time', async () => {
    for (let round = 1; round <= 4; round++) {
      const svc = await spawnService(ports, 90_000, true)
      const pid = svc.child.pid as number
      const url = `http://127.0.0.1:${svc.port}`
      // The reader stops reading (a supervisor busy elsewhere) while every request logs a line: the
      // socket's buffer fills and the logger's writes back up.
      svc.child.stdout?.pause()
      let stop = false
      const load = Array.from({ length: 8 }, async () => {
        while (!stop)
          await fetch(`${url}/health`).then(
            (r) => r.body?.cancel(),
            () => undefined,
          )
      })
      await new Promise((r) => setTimeout(r, 1_500))
      // SIGTERM to the group; the logger flushes at exit into the full socket. Then the reader goes
      // away (the supervisor exits at once): every write now fails with EPIPE.
      process.kill(-pid, 'SIGTERM')
      await new Promise((r) => setTimeout(r, 300))
      svc.child.stdout?.destroy()
      svc.child.stderr?.destroy()
      const deadline = Date.now() + GRACE_MS + 3_000
      while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
      stop = true
      await Promise.all(load)
      const gone = !alive(pid)
      if (!gone) process.kill(-pid, 'SIGKILL')
      expect(gone, `round ${round}: the service outlived SIGTERM by more than its grace period`).toBe(true)
    }
  }, 240_000)
})
