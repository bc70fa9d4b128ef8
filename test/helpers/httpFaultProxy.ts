import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

// An HTTP proxy in front of an upstream (a market API simulator, or the devnet's JSON-RPC) that fails the
// ways a real one does, per the mode armed: it answers late, answers a 5xx, answers a body that is not
// JSON, resets the connection, never answers, or sends its headers and then stalls in the body. Healed,
// it forwards every request untouched. It counts the requests that reached it, so a test can tell a
// circuit breaker's fast refusal (nothing sent) from a call that went out.

export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'status'; status: number }
  | { kind: 'garbage' }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'stall' }

export interface HttpFaultProxy {
  url: string
  /** Every request from now on meets `fault`; with `when`, only those whose path and body it matches. */
  arm(fault: Fault, when?: (path: string, body: string) => boolean): void
  /** Back to forwarding. */
  heal(): void
  /** Requests that reached the proxy since it started. */
  readonly requests: number
  /** Of them, those that met the armed fault. */
  readonly faulted: number
  close(): Promise<void>
}

function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

/** Hop-by-hop headers and those fetch sets itself: the rest (an API key, a version pin) go through. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
])

function forwardedHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' }
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name))
      headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

export async function httpFaultProxy(upstream: string): Promise<HttpFaultProxy> {
  let fault: Fault | null = null
  let matches: ((path: string, body: string) => boolean) | undefined
  let requests = 0
  let faulted = 0
  const server = createServer(async (req, res) => {
    requests += 1
    const body = await bodyOf(req)
    const now = fault !== null && (matches?.(req.url ?? '/', body.toString('utf8')) ?? true) ? fault : null
    if (now !== null) faulted += 1
    if (now?.kind === 'reset') {
      req.socket.destroy()
      return
    }
    if (now?.kind === 'hang') return
    if (now?.kind === 'status') {
      res.writeHead(now.status, { 'content-type': 'text/html' })
      res.end(`<html><body>${now.status}</body></html>`)
      return
    }
    if (now?.kind === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(Buffer.from([0x7b, 0x22, 0xff, 0x00, 0x3c, 0x68, 0x74, 0x6d, 0x6c, 0x3e, 0x89, 0x50]))
      return
    }
    if (now?.kind === 'stall') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' })
      res.write('{"price":')
      return
    }
    if (now?.kind === 'latency') await new Promise((r) => setTimeout(r, now.ms))
    try {
      const answer = await fetch(`${upstream}${req.url ?? '/'}`, {
        method: req.method,
        headers: forwardedHeaders(req),
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      })
      const content = Buffer.from(await answer.arrayBuffer())
      res.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      })
      res.end(content)
    } catch (err) {
      if (!res.headersSent) res.writeHead(502)
      res.end(String(err))
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    arm(f, when) {
      fault = f
      matches = when
    },
    heal() {
      fault = null
      matches = undefined
    },
    get requests() {
      return requests
    },
    get faulted() {
      return faulted
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
