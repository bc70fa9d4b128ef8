import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Forwards JSON-RPC to anvil and counts the HTTP requests (a batch or a multicall is one) and the waves:
 * requests in flight together count as one wave, so waves are the sequential round trips a read waits
 * for (what an RPC's latency multiplies), requests the load it puts on the node.
 */
export async function countingProxy(
  target: string,
): Promise<{ url: string; count: () => number; waves: () => number; server: Server }> {
  let requests = 0
  let waves = 0
  let inFlight = 0
  const server = createServer(async (req, res) => {
    requests++
    if (inFlight++ === 0) waves++
    res.on('close', () => {
      inFlight--
    })
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const upstream = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    })
    res.writeHead(upstream.status, { 'content-type': 'application/json' })
    res.end(Buffer.from(await upstream.arrayBuffer()))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, count: () => requests, waves: () => waves, server }
}

/** The p-th percentile of an ascending list, rounded to 0.01. */
export function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return Math.round((sorted[Math.max(0, i)] ?? Number.NaN) * 100) / 100
}
