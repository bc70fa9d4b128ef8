import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { circuitBreakers } from '../../circuitBreaker.js'
import { createFetchJson } from './fetchJson.js'

// A real HTTP server answering every request with the status its path names (/403, /401).
let url: string
const server = createServer((req, res) => {
  res.writeHead(Number(req.url?.slice(1)), { 'content-type': 'application/json' })
  res.end('{"message":"no"}')
})
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  server.close()
})

describe('fetchJson: which 4xx pause an upstream', () => {
  test('attack: a 403 a caller can provoke (0x refusing a sanctioned taker) never opens the circuit; the statuses an adapter names as its key refused (Hermes: 401, 403) do', async () => {
    const breakerOf = circuitBreakers({ failures: 3, coolDownMs: 60_000 })
    const fetchJson = createFetchJson({ breakerOf })
    for (let i = 0; i < 6; i++) {
      await expect(fetchJson('0x', `${url}/403`, {}, [401])).rejects.toMatchObject({ status: 502 })
    }
    expect(breakerOf.notClosed()).toEqual({})
    for (let i = 0; i < 3; i++) {
      await expect(fetchJson('Pyth Hermes', `${url}/403`, {}, [401, 403])).rejects.toMatchObject({
        status: 502,
      })
    }
    expect(breakerOf.notClosed()).toEqual({ 'Pyth Hermes': 'open' })
    // A 401 from an upstream that names none (no key of ours at stake) is a refusal too.
    for (let i = 0; i < 6; i++) await expect(fetchJson('gTrade', `${url}/401`)).rejects.toThrow()
    expect(Object.keys(breakerOf.notClosed())).toEqual(['Pyth Hermes'])
  })
})
