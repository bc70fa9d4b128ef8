import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Address, Hex } from 'viem'

/** A 0x `quote` answer as the simulator serves it (the fields the attack tests rewrite, and the rest). */
export interface ZeroExQuoteJson {
  buyAmount: string
  minBuyAmount: string
  transaction: { to: Address; data: Hex; value: string; gas: string | null; gasPrice: string }
  [key: string]: unknown
}
export type Rewrite = (quote: ZeroExQuoteJson) => ZeroExQuoteJson

export interface LyingZeroEx {
  url: string
  /** Rewrites the `quote` answers until cleared; null passes them through. */
  set(rewrite: Rewrite | null): void
  /** The last quote answered (as rewritten), for the controls to broadcast. */
  last(): ZeroExQuoteJson
  /** How many quotes were rewritten so far. */
  rewritten(): number
  close(): Promise<void>
}

/**
 * A lying 0x API: an HTTP server the service is pointed at (ZEROX_API_URL) that forwards to the devnet's
 * 0x simulator and rewrites its `quote` answers, so every field but the rewritten ones keeps the real
 * simulator's shape and values (blockNumber, route, issues, fees…).
 */
export async function lyingZeroEx(upstream: string): Promise<LyingZeroEx> {
  let rewrite: Rewrite | null = null
  let last: ZeroExQuoteJson | null = null
  let rewritten = 0
  const server = createServer((req, res) => {
    const url = req.url ?? '/'
    const headers: Record<string, string> = {}
    for (const h of ['0x-api-key', '0x-version', 'accept']) {
      const v = req.headers[h]
      if (typeof v === 'string') headers[h] = v
    }
    fetch(`${upstream}${url}`, { headers })
      .then(async (answer) => {
        let text = await answer.text()
        if (url.startsWith('/swap/allowance-holder/quote') && answer.ok) {
          let quote = JSON.parse(text) as ZeroExQuoteJson
          if (rewrite !== null && quote.transaction !== undefined) {
            quote = rewrite(quote)
            rewritten += 1
          }
          last = quote
          text = JSON.stringify(quote)
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' })
        res.end(text)
      })
      .catch((err: unknown) => res.writeHead(502).end(String(err)))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    set(r) {
      rewrite = r
    },
    last() {
      if (last === null) throw new Error('no quote was served')
      return last
    },
    rewritten: () => rewritten,
    close: () => new Promise((r) => server.close(() => r())),
  }
}
