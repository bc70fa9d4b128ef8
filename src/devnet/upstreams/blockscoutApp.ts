import { Hono } from 'hono'
import { getAddress, isAddress } from 'viem'
import type { MarketSimulator } from '../simulator/marketSimulator.js'
import type { TokenBalanceSource } from './tokenBalanceSource.js'
import { limitRate, type RateLimit, requireKey } from './upstreamGuards.js'

/**
 * Block-explorer token balances for portfolios: Blockscout's PRO API for Base (api.blockscout.com/8453),
 * `GET /8453/api/v2/addresses/{hash}/token-balances`, a bare array of `TokenBalance` {token, token_id,
 * token_instance, value} in the contract of Blockscout's PRO OpenAPI v12 (vendored in
 * test/fixtures/upstreams/blockscout, held by test/upstreams/blockscout.contract): numbers as strings, a
 * float string never in exponent notation, rows sorted by fiat value (nulls last) then by value; an
 * address never seen answers 200 `[]`; a bad hash 422 with Blockscout's JSON:API error list.
 *
 * Gates: the API key (`Authorization: Bearer`, the `apikey` query parameter, or an instance's `x-api-key`)
 * and the free tier's 5 requests per second, past which a 429 {"message": "Too many requests. …"} with
 * `x-ratelimit-*` headers and no Retry-After (Blockscout's access_helper.ex). UNCERTAIN: the PRO API's
 * 401 body.
 */

export interface BlockscoutAppOptions {
  sim: MarketSimulator
  balances: TokenBalanceSource
  /** The key every request must carry; undefined: none asked. */
  apiKey?: string
  /** Default: the PRO free tier's 5 requests per second. */
  rateLimit?: RateLimit
}

/** Blockscout PRO's free tier: 5 requests per second. */
export const BLOCKSCOUT_RATE_LIMIT: RateLimit = { max: 5, windowMs: 1000 }
/** The devnet stands for Base: its chain id leads every PRO API path. */
const CHAIN = '8453'

/** A USD figure as Blockscout's FloatString (`^([1-9][0-9]*|0)(\.[0-9]+)?$`): never exponent notation. */
function floatString(value: number): string {
  const fixed = value.toFixed(18).replace(/0+$/, '').replace(/\.$/, '')
  return fixed === '' || fixed === '-0' ? '0' : fixed
}

export function createBlockscoutApp(options: BlockscoutAppOptions): Hono {
  const { sim, balances } = options
  const app = new Hono()
  app.notFound((c) => c.json({ message: 'Not found' }, 404))
  limitRate(app, options.rateLimit ?? BLOCKSCOUT_RATE_LIMIT, (c) => {
    const limit = options.rateLimit ?? BLOCKSCOUT_RATE_LIMIT
    c.header('x-ratelimit-limit', String(limit.max))
    c.header('x-ratelimit-remaining', '0')
    c.header('x-ratelimit-reset', String(limit.windowMs))
    return c.json({ message: 'Too many requests. Increase limits now at https://dev.blockscout.com' }, 429)
  })
  if (options.apiKey !== undefined) {
    const key = options.apiKey
    requireKey(
      app,
      key,
      (c) => {
        const bearer = c.req.header('authorization')?.replace(/^Bearer /, '')
        return [bearer, c.req.query('apikey'), c.req.header('x-api-key')].find((k) => k === key)
      },
      (c) => c.json({ message: 'Unauthorized' }, 401),
    )
  }

  const invalidHash = {
    errors: [
      {
        detail: 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{40})$/',
        source: { pointer: '/address_hash_param' },
        title: 'Invalid value',
      },
    ],
  }

  app.get(`/${CHAIN}/api/v2/addresses/:hash/token-balances`, async (c) => {
    const raw = c.req.param('hash')
    if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) return c.json(invalidHash, 422)
    const rows = await balances.tokenBalances(getAddress(raw))
    // Blockscout sorts by fiat value, highest first, rows without a rate last, then by value.
    const fiat = (r: (typeof rows)[number]) =>
      r.exchangeRateUsd === undefined || r.exchangeRateUsd === null
        ? null
        : (Number(r.value) / 10 ** r.token.decimals) * r.exchangeRateUsd
    const sorted = [...rows].sort((a, b) => {
      const fa = fiat(a)
      const fb = fiat(b)
      if (fa !== fb) return fb === null ? -1 : fa === null ? 1 : fb - fa
      return a.value === b.value ? 0 : a.value < b.value ? 1 : -1
    })
    return c.json(
      sorted.map((row) => ({
        token: {
          address_hash: row.token.address,
          circulating_market_cap: null,
          circulating_supply: null,
          decimals: String(row.token.decimals),
          exchange_rate:
            row.exchangeRateUsd === undefined || row.exchangeRateUsd === null
              ? null
              : floatString(row.exchangeRateUsd),
          holders_count: '1',
          icon_url: null,
          name: row.token.name,
          reputation: 'ok',
          symbol: row.token.symbol,
          total_supply: row.token.totalSupply === undefined ? null : row.token.totalSupply.toString(),
          type: 'ERC-20',
          volume_24h: null,
        },
        token_id: null,
        token_instance: null,
        value: row.value.toString(),
      })),
    )
  })

  app.get(`/${CHAIN}/api/v2/addresses/:hash`, async (c) => {
    const raw = c.req.param('hash')
    if (!isAddress(raw, { strict: false })) return c.json(invalidHash, 422)
    const address = getAddress(raw)
    const wei = await balances.nativeBalance(address)
    return c.json({
      hash: address,
      coin_balance: wei.toString(),
      // The explorer prices the native coin itself; ETH is in the simulator's universe.
      exchange_rate: String(sim.spot('ETH')),
    })
  })

  return app
}
