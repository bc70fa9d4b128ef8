import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { HttpRequestError } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createChainClient } from './createChainClient.js'

// A JSON-RPC endpoint that answers eth_getBalance alone or in batches (each call's result is its own
// address, so a mismatched pairing shows), counts the HTTP requests and the calls each carried, and can
// answer a batch the ways faulty RPCs do: reversed, one answer short, or one error object for the lot.
interface Call {
  id: number
  method: string
  params: [string, string]
}
let mode: 'ok' | 'reversed' | 'short' | 'refused' = 'ok'
let server: Server
let url: string
const posts: number[] = []

/** What the endpoint answers a batch with, by `mode`. */
function batchAnswer(answers: { id: number }[]): unknown {
  if (mode === 'refused')
    return { jsonrpc: '2.0', id: null, error: { code: -32005, message: 'rate limited' } }
  if (mode === 'reversed') return [...answers].reverse()
  return mode === 'short' ? answers.slice(1) : answers
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => {
      raw += chunk
    })
    req.on('end', () => {
      const body = JSON.parse(raw) as Call | Call[]
      const calls = Array.isArray(body) ? body : [body]
      posts.push(calls.length)
      const answers = calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: c.params[0] }))
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(Array.isArray(body) ? batchAnswer(answers) : answers[0]))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** `n` distinct values, each sent as an eth_getBalance "address" and echoed back as its result. */
const values = (n: number) => Array.from({ length: n }, (_, i) => `0x${(i + 1).toString(16)}`)

/** One eth_getBalance per value, sent in the same tick through one client. */
function balances(batchSize: number, n: number) {
  const client = createChainClient(url, batchSize)
  return values(n).map((v) =>
    client.request({ method: 'eth_getBalance', params: [v as `0x${string}`, 'latest'] }),
  )
}

async function postsFor(batchSize: number, concurrent: number): Promise<number[]> {
  mode = 'ok'
  posts.length = 0
  expect(await Promise.all(balances(batchSize, concurrent))).toEqual(values(concurrent))
  return [...posts]
}

describe('createChainClient', () => {
  test('behavior: requests sent in one tick share HTTP requests of at most batchSize calls', async () => {
    expect(await postsFor(20, 5)).toEqual([5])
    expect((await postsFor(20, 45)).sort((a, b) => b - a)).toEqual([20, 20, 5])
  })

  test('default: batchSize 0 sends every request on its own', async () => {
    expect(await postsFor(0, 3)).toEqual([1, 1, 1])
  })

  test('behavior: a batch answered out of order still pairs each answer with its own request', async () => {
    mode = 'reversed'
    expect(await Promise.all(balances(20, 6))).toEqual(values(6))
  })

  test('error: a batch answered one short, or with one error object for all, fails every request as a transport fault', async () => {
    for (const m of ['short', 'refused'] as const) {
      mode = m
      const settled = await Promise.allSettled(balances(20, 4))
      expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected'])
      for (const r of settled) {
        const reason = (r as PromiseRejectedResult).reason
        expect(reason).toBeInstanceOf(HttpRequestError)
        expect(String(reason.cause)).toMatch(/BatchAnswerError: the RPC answered a batch of 4 requests/)
      }
    }
  })
})
