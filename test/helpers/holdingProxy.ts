import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

// An HTTP proxy in front of an upstream simulator that holds a chosen request until the test lets it go:
// a route's handler waits on its upstream for as long as the test needs (to act while the call is in
// flight). Every other request passes through at once.

export interface Hold {
  /** Resolves when the held request has arrived. */
  arrived: Promise<void>
  release(): void
}

export interface HoldingProxy {
  url: string
  /** Holds the next request whose path (with its query) `matches`. */
  hold(matches: (path: string) => boolean): Hold
  close(): Promise<void>
}

export async function holdingProxy(upstream: string): Promise<HoldingProxy> {
  const holds: Array<{ matches: (path: string) => boolean; arrive: () => void; released: Promise<void> }> = []
  const server = createServer((req, res) => {
    const path = req.url ?? '/'
    const at = holds.findIndex((h) => h.matches(path))
    const held = at < 0 ? undefined : holds.splice(at, 1)[0]
    held?.arrive()
    void (held?.released ?? Promise.resolve())
      .then(() =>
        fetch(`${upstream}${path}`, { method: req.method, headers: { accept: 'application/json' } }),
      )
      .then(async (answer) => {
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
        })
        res.end(Buffer.from(await answer.arrayBuffer()))
      })
      .catch((err: unknown) => res.writeHead(502).end(String(err)))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    hold(matches) {
      let arrive: () => void = () => {}
      let release: () => void = () => {}
      const arrived = new Promise<void>((r) => {
        arrive = r
      })
      const released = new Promise<void>((r) => {
        release = r
      })
      holds.push({ matches, arrive, released })
      return { arrived, release }
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
