import { type Address, getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { createMarketSimulator } from '../simulator/marketSimulator.js'
import { createBlockscoutApp } from './blockscoutApp.js'
import type { TokenBalanceSource } from './tokenBalanceSource.js'

const NOW = Date.UTC(2026, 10, 15, 12, 34, 56, 789)
const sim = createMarketSimulator({ seed: 11, clock: { now: () => NOW } })
const HOLDER: Address = getAddress('0x2222222222222222222222222222222222222222')

const balances: TokenBalanceSource = {
  nativeBalance: async (a) => (a === HOLDER ? 1_500_000_000_000_000_000n : 0n),
  tokenBalances: async (a) =>
    a === HOLDER
      ? [
          {
            token: {
              address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
              name: 'USD Coin',
              symbol: 'USDC',
              decimals: 6,
              totalSupply: 10n ** 15n,
            },
            value: 1_234_560_000n,
            exchangeRateUsd: 1,
          },
          {
            token: {
              address: '0x3333333333333333333333333333333333333333',
              name: 'Spam',
              symbol: 'SPAM',
              decimals: 18,
            },
            value: 10n ** 24n,
          },
        ]
      : [],
}

// Shapes only: the documented rate limit is held in test/upstreams/*.contract.test.ts.
const ROOMY = { max: 1000, windowMs: 1000 }
const app = createBlockscoutApp({ sim, balances, rateLimit: ROOMY })

describe('blockscout v2 simulator', () => {
  test('token-balances: array of {token, token_id, token_instance, value} with string numbers', async () => {
    const res = await app.request(`/8453/api/v2/addresses/${HOLDER.toLowerCase()}/token-balances`)
    expect(res.status).toBe(200)
    const rows = (await res.json()) as {
      token: Record<string, unknown>
      token_id: null
      token_instance: null
      value: string
    }[]
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatchObject({
      token_id: null,
      token_instance: null,
      value: '1234560000',
      token: {
        address_hash: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        decimals: '6',
        symbol: 'USDC',
        type: 'ERC-20',
        exchange_rate: '1',
        total_supply: '1000000000000000',
      },
    })
    // No price known → null, never a fabricated 0.
    expect(rows[1]?.token.exchange_rate).toBeNull()
  })

  test('address: native coin balance in wei as a string', async () => {
    const res = await app.request(`/8453/api/v2/addresses/${HOLDER}`)
    const body = (await res.json()) as { hash: string; coin_balance: string; exchange_rate: string }
    expect(body.hash).toBe(HOLDER)
    expect(body.coin_balance).toBe('1500000000000000000')
    expect(Number(body.exchange_rate)).toBeCloseTo(sim.spot('ETH'), 6)
  })

  test('invalid hash → 422', async () => {
    const res = await app.request('/8453/api/v2/addresses/0xnothex/token-balances')
    expect(res.status).toBe(422)
    expect(((await res.json()) as { errors: unknown[] }).errors).toHaveLength(1)
  })
})
