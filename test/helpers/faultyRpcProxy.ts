import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// A JSON-RPC proxy in front of the devnet's anvil that can answer a request, or a batch, as a faulty or
// hostile provider would: one error object for a whole batch, answers left out, reordered, duplicated or
// swapped. With no rule it forwards every request untouched.

export interface RpcCall {
  id: number
  method: string
  params?: unknown[]
}
export interface RpcAnswer {
  jsonrpc?: string
  id: number | null
  result?: unknown
  error?: { code: number; message: string }
}
/** What the proxy does with one HTTP request: answer it itself, or forward it and rewrite the answer. */
export type Rule = (body: RpcCall | RpcCall[]) =>
  | { answer: { status: number; body: unknown } }
  | { rewrite: (answer: RpcAnswer | RpcAnswer[]) => unknown; status?: number }
  | { delayMs: number }
  /** Forwarded twice, one after the other (a retrying proxy): the client gets the second answer. */
  | { twice: true }
  /**
   * Neither forwarded nor answered, ever: the caller waits until it goes away (a kill) or the proxy closes,
   * and the node never sees the request (a broadcast that never left the process that made it).
   */
  | { swallow: true }
  | null
export interface RpcProxy {
  url: string
  set(rule: Rule | null): void
  close(): Promise<void>
}

export async function faultyRpcProxy(upstream: string): Promise<RpcProxy> {
  let rule: Rule | null = null
  const server: Server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => {
      raw += chunk
    })
    req.on('end', () => {
      const act = rule?.(JSON.parse(raw) as RpcCall | RpcCall[]) ?? null
      if (act !== null && 'answer' in act) {
        res.writeHead(act.answer.status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(act.answer.body))
        return
      }
      if (act !== null && 'swallow' in act) return
      const delayMs = act !== null && 'delayMs' in act ? act.delayMs : 0
      const forward = () =>
        fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw })
      new Promise((r) => setTimeout(r, delayMs))
        .then(async () => {
          if (act !== null && 'twice' in act) await (await forward()).text()
          return forward()
        })
        .then(async (answer) => {
          let text = await answer.text()
          let status = answer.status
          if (act !== null && 'rewrite' in act) {
            text = JSON.stringify(act.rewrite(JSON.parse(text) as RpcAnswer | RpcAnswer[]))
            status = act.status ?? status
          }
          res.writeHead(status, { 'content-type': 'application/json' })
          res.end(text)
        })
        .catch((err: unknown) => res.writeHead(502).end(String(err)))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    set(r) {
      rule = r
    },
    close: () =>
      new Promise<void>((r) => {
        // A swallowed request's connection would keep the server open.
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
