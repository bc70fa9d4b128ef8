import type { ErrorStatus } from '../errors.js'

/**
 * Every way a read refuses a well-formed request, by its stable code: the status it answers and what it
 * means. None is charged. The classes that throw them sit beside their reads (getPrices.ts, getCandles.ts,
 * getStockPrice.ts, …); test/errorCodes.test.ts checks each class answers its code's status.
 */
export const READ_ERRORS = {
  unknown_symbol: {
    status: 400,
    meaning: 'None of the symbols is listed where the read looks; `details.unknown` lists them.',
  },
  unknown_instrument: {
    status: 404,
    meaning: 'No market, product or price history for the named instrument.',
  },
  unknown_stock: {
    status: 404,
    meaning: 'The ticker is not a registered tokenized stock (GET /v1/stocks lists them).',
  },
  stock_not_minted: {
    status: 409,
    meaning: 'The stock is registered but not minted yet, so it has no pool.',
  },
  stock_not_registered: { status: 409, meaning: 'The stock is not known to the onchain oracle registry.' },
  stock_paused: {
    status: 409,
    meaning: 'The stock is paused by its issuer: transfers, and so swaps, revert.',
  },
  stock_no_pool: { status: 409, meaning: 'No USDC pool of the stock has the liquidity to fill this amount.' },
  no_liquidity: { status: 409, meaning: 'No venue quotes the pair at this amount.' },
  upstream_not_found: {
    status: 404,
    meaning: 'An upstream has no record of what was asked for; `details.upstream` names it.',
  },
} as const satisfies Record<string, { status: ErrorStatus; meaning: string }>

export type ReadErrorCode = keyof typeof READ_ERRORS

/** Why a registered stock cannot be quoted or traded now (the stock quote's reads, for the read and the builder). */
export const STOCK_STATE_ERRORS = [
  'stock_not_minted',
  'stock_not_registered',
  'stock_paused',
  'stock_no_pool',
] as const satisfies readonly ReadErrorCode[]
