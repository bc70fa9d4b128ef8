import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createChainClient } from './createChainClient.js'

// A JSON-RPC endpoint that answers eth_chainId alone or in batches, and counts the HTTP requests and the
// calls each carried: what the batch setting changes on the wire.
interface Call {
  id: number
  method: string
}
let server: Server
let url: string
const posts: number[] = []

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
      const answers = calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: '0x2105' }))
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(Array.isArray(body) ? answers : answers[0]))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

async function postsFor(batchSize: number, concurrent: number): Promise<number[]> {
  posts.length = 0
  const client = createChainClient(url, batchSize)
  const ids = await Promise.all(
    Array.from({ length: concurrent }, () => client.request({ method: 'eth_chainId' })),
  )
  expect(ids).toEqual(Array(concurrent).fill('0x2105'))
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
})
