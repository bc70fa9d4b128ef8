import { Hono } from 'hono'
import { getAddress, isAddress } from 'viem'
import type { MarketSimulator } from '../simulator/marketSimulator.js'
import type { TokenBalanceSource } from './tokenBalanceSource.js'

/**
 * Block-explorer token balances for portfolios. protocols.md names no explorer, so this is Blockscout's
 * REST API v2 (base.blockscout.com/api/v2): `GET /addresses/{hash}/token-balances` (a bare array of
 * {token, token_id, token_instance, value}) and `GET /addresses/{hash}` for the native balance.
 *
 * UNCERTAIN: newer Blockscout releases name the token's address `address_hash` (older ones `address`);
 * both are sent. Numeric token fields are strings, as Blockscout sends them. The 422 body for a bad
 * hash imitates Blockscout's JSON:API-style error list.
 */

export interface BlockscoutAppOptions {
  sim: MarketSimulator
  balances: TokenBalanceSource
}

export function createBlockscoutApp(options: BlockscoutAppOptions): Hono {
  const { sim, balances } = options
  const app = new Hono()
  app.notFound((c) => c.json({ message: 'Not found' }, 404))

  const invalidHash = {
    errors: [
      {
        detail: 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{40})$/',
        source: { pointer: '/address_hash_param' },
        title: 'Invalid value',
      },
    ],
  }

  app.get('/api/v2/addresses/:hash/token-balances', async (c) => {
    const raw = c.req.param('hash')
    if (!isAddress(raw, { strict: false })) return c.json(invalidHash, 422)
    const rows = await balances.tokenBalances(getAddress(raw))
    return c.json(
      rows.map((row) => ({
        token: {
          address: row.token.address,
          address_hash: row.token.address,
          circulating_market_cap: null,
          decimals: String(row.token.decimals),
          exchange_rate:
            row.exchangeRateUsd === undefined || row.exchangeRateUsd === null
              ? null
              : String(row.exchangeRateUsd),
          holders_count: '1',
          icon_url: null,
          name: row.token.name,
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

  app.get('/api/v2/addresses/:hash', async (c) => {
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
