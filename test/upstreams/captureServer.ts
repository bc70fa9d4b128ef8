import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { Hono } from 'hono'

export interface Captured {
  url: URL
  headers: Headers
}

/**
 * A real HTTP server standing in for an upstream: it answers every GET with what `answer` returns for
 * that request's path (a JSON body, status 200 unless given) and keeps each request as it arrived, so a
 * test reads the adapter's path, query and headers off the wire.
 */
export async function startCaptureServer(
  answer: (url: URL) => {
    body: unknown
    status?: number
    headers?: Record<string, string>
    delayMs?: number
  },
): Promise<{ url: string; requests: Captured[]; stop(): Promise<void> }> {
  const requests: Captured[] = []
  const app = new Hono()
  app.get('*', async (c) => {
    const url = new URL(c.req.url)
    requests.push({ url, headers: new Headers(c.req.raw.headers) })
    const { body, status, headers, delayMs } = answer(url)
    if (delayMs !== undefined) await new Promise((r) => setTimeout(r, delayMs))
    for (const [k, v] of Object.entries(headers ?? {})) c.header(k, v)
    return c.json(body as object, (status ?? 200) as 200)
  })
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        if ('closeAllConnections' in server) server.closeAllConnections()
      }),
  }
}
