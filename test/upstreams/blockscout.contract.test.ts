import { readFileSync } from 'node:fs'
import { type Address, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { createMarketSimulator } from '../../src/devnet/simulator/marketSimulator.js'
import { BLOCKSCOUT_RATE_LIMIT, createBlockscoutApp } from '../../src/devnet/upstreams/blockscoutApp.js'
import type { TokenBalanceSource } from '../../src/devnet/upstreams/tokenBalanceSource.js'
import { createExplorer } from '../../src/market/upstreams/explorer.js'
import { createFetchJson } from '../../src/market/upstreams/fetchJson.js'
import { startCaptureServer } from './captureServer.js'
import { loadContract, operationOf, requestProblems, responseProblems } from './openapiContract.js'

/**
 * Blockscout's PRO API token balances against its official OpenAPI (blockscout/docs
 * `openapi-specs/pro-api-v12.json`, vendored with provenance in test/fixtures/upstreams/blockscout):
 * the simulator's answers and gates, the adapter's request and reads.
 */
// TokenInstance.owner's `Address` is not in the excerpt (token_instance is null on this endpoint).
const spec = await loadContract('blockscout/openapi/pro-api-v12.token-balances.excerpt.json', {
  notVendored: ['Address'],
})
const BALANCES = operationOf(spec, 'get', '/{chain_id}/api/v2/addresses/{address_hash_param}/token-balances')
const KEY = 'contract-test-explorer-key'
const ROOMY = { max: 1000, windowMs: 1000 }
const HOLDER: Address = getAddress('0x52908400098527886e0f7030069857d2e4169ee7')
const sim = createMarketSimulator({ seed: 11, clock: { now: () => Date.UTC(2026, 10, 15) } })
const balances: TokenBalanceSource = {
  nativeBalance: async () => 10n ** 18n,
  tokenBalances: async (owner) =>
    owner === HOLDER
      ? [
          {
            token: {
              address: BASE_ADDRESSES.USDC,
              name: 'USD Coin',
              symbol: 'USDC',
              decimals: 6,
              totalSupply: 10n ** 15n,
            },
            value: 1_234_560_000n,
            exchangeRateUsd: 1,
          },
          // A price small enough for exponent notation in String(): the wire's FloatString has none.
          {
            token: { address: BASE_ADDRESSES.WETH, name: 'Wrapped Ether', symbol: 'WETH', decimals: 18 },
            value: 5n * 10n ** 17n,
            exchangeRateUsd: 1.5e-7,
          },
          {
            token: {
              address: getAddress(`0x${'ab'.repeat(20)}`),
              name: 'Unpriced',
              symbol: 'UNP',
              decimals: 18,
            },
            value: 7n,
            exchangeRateUsd: null,
          },
        ]
      : [],
}
const path = (owner: string) => `/8453/api/v2/addresses/${owner}/token-balances`

describe('Blockscout simulator answers as the PRO API', () => {
  const app = createBlockscoutApp({ sim, balances, apiKey: KEY, rateLimit: ROOMY })
  const get = (owner: string) => app.request(path(owner), { headers: { authorization: `Bearer ${KEY}` } })

  test('contract: balances, an address never seen ([]) and a bad hash (422) validate against the schemas', async () => {
    const rows = (await (await get(HOLDER)).json()) as {
      token: { symbol: string; exchange_rate: string | null }
    }[]
    expect(responseProblems(BALANCES, 200, rows)).toEqual([])
    // Sorted by fiat value, the unpriced last.
    expect(rows.map((r) => r.token.symbol)).toEqual(['USDC', 'WETH', 'UNP'])
    expect(rows[1]?.token.exchange_rate).toBe('0.00000015')
    const unseen = await get(`0x${'44'.repeat(20)}`)
    expect([unseen.status, await unseen.json()]).toEqual([200, []])
    const bad = await get('0xnothex')
    expect(bad.status).toBe(422)
    expect(responseProblems(BALANCES, 422, await bad.json())).toEqual([])
    // The check bites: the pre-8.0 `address` field, or a value sent as a number, is not the contract.
    const drifted = rows.map((r) => ({ ...r, token: { ...r.token, address: HOLDER } }))
    expect(responseProblems(BALANCES, 200, drifted)).not.toEqual([])
    expect(responseProblems(BALANCES, 200, [{ ...rows[0], value: 5 }])).not.toEqual([])
  })

  test('gate: the key is taken as a bearer token, the apikey parameter or x-api-key; none is 401; past 5 a second, 429', async () => {
    expect((await app.request(path(HOLDER))).status).toBe(401)
    expect((await app.request(`${path(HOLDER)}?apikey=${KEY}`)).status).toBe(200)
    expect((await app.request(path(HOLDER), { headers: { 'x-api-key': KEY } })).status).toBe(200)
    const limited = createBlockscoutApp({
      sim,
      balances,
      apiKey: KEY,
      rateLimit: { ...BLOCKSCOUT_RATE_LIMIT, now: () => 0 },
    })
    const statuses: number[] = []
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await limited.request(path(HOLDER), { headers: { authorization: `Bearer ${KEY}` } })).status,
      )
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })
})

describe('explorer adapter speaks the PRO API', () => {
  const official = JSON.parse(
    readFileSync(
      new URL('../fixtures/upstreams/blockscout/examples/get-address-token-balances.json', import.meta.url),
      'utf8',
    ),
  ) as unknown[]
  let server: Awaited<ReturnType<typeof startCaptureServer>>
  beforeAll(async () => {
    server = await startCaptureServer((url) =>
      url.pathname.includes(HOLDER)
        ? {
            body: [
              ...official,
              // Rows the contract allows and we cannot use: a token not indexed yet, a null type, an NFT.
              { token: null, token_id: null, token_instance: null, value: '1' },
              {
                token: { address_hash: BASE_ADDRESSES.WETH, type: null },
                token_id: null,
                token_instance: null,
                value: '2',
              },
              {
                token: { address_hash: BASE_ADDRESSES.WETH, type: 'ERC-721' },
                token_id: '1',
                token_instance: null,
                value: '1',
              },
            ],
          }
        : { body: { message: 'Not found' }, status: 404 },
    )
  })
  afterAll(() => server.stop())

  test('contract: the request is the PRO path with the key as a bearer token, never in the URL', async () => {
    const explorer = createExplorer(`${server.url}/8453`, createFetchJson(), { apiKey: KEY })
    await explorer.tokenBalances(HOLDER)
    const [r] = server.requests
    expect(r?.url.pathname).toBe(`/8453/api/v2/addresses/${HOLDER}/token-balances`)
    expect(requestProblems(BALANCES, r?.url as URL, r?.headers as Headers)).toEqual([])
    expect(r?.headers.get('authorization')).toBe(`Bearer ${KEY}`)
    expect(r?.url.search).not.toContain(KEY)
  })

  test('contract: the example reads row by row; rows it cannot use are left out; a 404 is a fault, not “no holdings”', async () => {
    const explorer = createExplorer(`${server.url}/8453`, createFetchJson(), { apiKey: KEY })
    const rows = await explorer.tokenBalances(HOLDER)
    const erc20 = (official as { token: { type: string; address_hash: string }; value: string }[]).filter(
      (r) => r.token.type === 'ERC-20',
    )
    expect(rows.map((r) => [r.token, r.value])).toEqual(
      erc20.map((r) => [getAddress(r.token.address_hash), BigInt(r.value)]),
    )
    await expect(explorer.tokenBalances(getAddress(`0x${'44'.repeat(20)}`))).rejects.toThrow(
      /route not found/,
    )
  })
})
