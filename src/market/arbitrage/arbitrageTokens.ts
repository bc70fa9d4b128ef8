import type { Address } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../chain/addresses.js'
import type { PriceSource } from '../knownTokens.js'

/** What GET /v1/arbitrage accepts as `target`. */
export const arbitrageTarget = z
  .enum(['USDC', 'ETH', 'WETH', 'xETH', 'xBTC', 'xADA', 'xXRP'])
  .default('xBTC')
  .describe('Asset the routes start and end in: USDC, ETH, WETH, xETH, xBTC, xADA or xXRP; default xBTC')

export type ArbitrageTarget = z.output<typeof arbitrageTarget>

export interface ArbitrageToken {
  symbol: string
  /** What the swap bodies carry: the token, or NATIVE_SENTINEL for native ETH. */
  address: Address
  /** The ERC-20 the pools hold (WETH for native ETH). */
  erc20: Address
  decimals: number
  /** Its USD reference price, independent of the pools; null: none known. */
  price: PriceSource | null
}

const spot = (product: string): PriceSource => ({ kind: 'spot', product })
const USDC: ArbitrageToken = {
  symbol: 'USDC',
  address: BASE_ADDRESSES.USDC,
  erc20: BASE_ADDRESSES.USDC,
  decimals: 6,
  price: { kind: 'par', currency: 'USD' },
}
const WETH: ArbitrageToken = {
  symbol: 'WETH',
  address: BASE_ADDRESSES.WETH,
  erc20: BASE_ADDRESSES.WETH,
  decimals: 18,
  price: spot('ETH-USD'),
}
const CBBTC: ArbitrageToken = {
  symbol: 'cbBTC',
  address: BASE_ADDRESSES.cbBTC,
  erc20: BASE_ADDRESSES.cbBTC,
  decimals: 8,
  price: spot('BTC-USD'),
}

/**
 * Each target's token: USDC and WETH themselves, ETH native (the swap builder trades it as WETH in the
 * pools), xBTC as cbBTC, xETH as cbETH (priced at CBETH-USD when the exchange lists it). xADA and xXRP have
 * no token in the network's address book: null.
 */
export const ARBITRAGE_TOKENS: Record<ArbitrageTarget, ArbitrageToken | null> = {
  USDC,
  WETH,
  ETH: { ...WETH, symbol: 'ETH', address: NATIVE_SENTINEL },
  xBTC: CBBTC,
  xETH: {
    symbol: 'cbETH',
    address: BASE_ADDRESSES.cbETH,
    erc20: BASE_ADDRESSES.cbETH,
    decimals: 18,
    price: spot('CBETH-USD'),
  },
  xADA: null,
  xXRP: null,
}

/** The tokens a cycle may pass through (the target's own ERC-20 is skipped). */
export const ARBITRAGE_INTERMEDIATES: readonly ArbitrageToken[] = [USDC, WETH, CBBTC]
