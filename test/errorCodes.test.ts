import { describe, expect, test } from 'vitest'
import { BUILD_ERRORS, BUILDER_FAULTS } from '../src/builders/builderErrors.js'
import { UtilNotDeployedError } from '../src/builders/burn.js'
import { loadConfig } from '../src/config.js'
import { buildOpenApi } from '../src/discovery/openapi.js'
import { GENERIC_ERRORS } from '../src/errors.js'
import { UnknownInstrumentError } from '../src/market/candles/getCandles.js'
import { UnknownPairError } from '../src/market/crowd/getCrowd.js'
import { UnknownSymbolError } from '../src/market/prices/getPrices.js'
import { READ_ERRORS } from '../src/market/readErrors.js'
import { UnknownSignalSymbolError } from '../src/market/signals/getSignals.js'
import {
  StockNotMintedError,
  StockNotTradableError,
  UnknownStockError,
} from '../src/market/stocks/getStockPrice.js'
import { NoLiquidityError } from '../src/market/swap/getSwapPrice.js'
import { UnknownScanSymbolError } from '../src/market/ta/unknownScanSymbolError.js'
import { UnknownPerpSymbolError } from '../src/market/unknownPerpSymbolError.js'
import { UpstreamNotFound } from '../src/market/upstreams/fetchJson.js'
import { TOPUP_ERRORS } from '../src/payments/credit/topUpErrors.js'
import { PAYMENT_ERRORS, PAYMENT_FAULTS } from '../src/payments/paymentError.js'
import { PROP_ERRORS } from '../src/prop/propErrors.js'
import { ERROR_CODES, isErrorCode } from '../src/routes/shared/errorCodes.js'
import { routeErrorCodes } from '../src/routes/shared/routeErrorCodes.js'
import { routeTable } from '../src/routes/table.js'

/**
 * The route records' error lists stay honest: every code is registered, every code a description names
 * is listed, no builder or read code is listed nowhere, each class answers its code's registered status,
 * and the OpenAPI document publishes exactly each route's codes.
 */
const doc = buildOpenApi(routeTable, loadConfig({ DATA_DIR: 'memory://' })) as {
  paths: Record<string, Record<string, { responses: Record<string, ErrorResponse> }>>
}
type ErrorResponse = {
  description: string
  content?: {
    'application/json': { schema: { properties?: { error: { properties: { code: { enum: string[] } } } } } }
  }
}

describe('the error code registry', () => {
  test('default: the maps it merges share no code', () => {
    const maps = [
      GENERIC_ERRORS,
      PAYMENT_ERRORS,
      PAYMENT_FAULTS,
      TOPUP_ERRORS,
      PROP_ERRORS,
      BUILD_ERRORS,
      BUILDER_FAULTS,
      READ_ERRORS,
    ]
    const keys = maps.flatMap((m) => Object.keys(m))
    expect(new Set(keys).size).toBe(keys.length)
    expect(Object.keys(ERROR_CODES).sort()).toEqual([...keys].sort())
  })

  test.each([
    [new UnknownSymbolError(['NOPE']), 'unknown_symbol'],
    [new UnknownScanSymbolError(['NOPE']), 'unknown_symbol'],
    [new UnknownSignalSymbolError(['NOPE'], undefined, 'USD'), 'unknown_symbol'],
    [new UnknownPairError(['NOPE']), 'unknown_symbol'],
    [new UnknownPerpSymbolError(['NOPE'], 'symbols'), 'unknown_symbol'],
    [new UnknownPerpSymbolError(['NOPE'], 'sym'), 'unknown_instrument'],
    [new UnknownInstrumentError('sym', 'NOPE'), 'unknown_instrument'],
    [new UnknownStockError('NOPE'), 'unknown_stock'],
    [new StockNotMintedError('NVDAc'), 'stock_not_minted'],
    [new StockNotTradableError('NVDAc', 'paused'), 'stock_paused'],
    [new StockNotTradableError('NVDAc', 'not_registered'), 'stock_not_registered'],
    [new StockNotTradableError('NVDAc', 'no_pool'), 'stock_no_pool'],
    [
      new NoLiquidityError(
        '0x0000000000000000000000000000000000000001',
        '0x0000000000000000000000000000000000000002',
      ),
      'no_liquidity',
    ],
    [new UpstreamNotFound('demo', 'http://x'), 'upstream_not_found'],
    [new UtilNotDeployedError(), 'util_not_deployed'],
  ] as const)('behavior: %o answers %s with its registered status', (error, code) => {
    expect(error.code).toBe(code)
    expect(error.status).toBe(ERROR_CODES[code].status)
  })
})

describe.each(routeTable.map((route) => ({ id: route.id, route })))('$id error list', ({ route }) => {
  const codes = routeErrorCodes(route)

  test('default: every listed code is registered, once', () => {
    for (const code of route.errors) expect(isErrorCode(code), code).toBe(true)
    expect(new Set(route.errors).size, 'a code listed twice').toBe(route.errors.length)
  })

  test('behavior: every registered code its description names in backticks is in its codes', () => {
    const named = [...route.description.matchAll(/`([a-z0-9_]+)`/g)]
      .map((m) => m[1] ?? '')
      .filter(isErrorCode)
    for (const code of named)
      expect(codes, `${route.id} names \`${code}\` but does not list it`).toContain(code)
  })

  test('behavior: its OpenAPI responses hold exactly its codes, each under its status', () => {
    const responses = doc.paths[route.path]?.[route.method.toLowerCase()]?.responses ?? {}
    const published: string[] = []
    for (const [status, response] of Object.entries(responses)) {
      if (status === '200' || status === '402') continue
      const listed =
        response.content?.['application/json'].schema.properties?.error.properties.code.enum ?? []
      for (const code of listed) {
        expect(isErrorCode(code) && String(ERROR_CODES[code].status), code).toBe(status)
        expect(response.description, `${status} describes ${code}`).toContain(`\`${code}\``)
      }
      published.push(...listed)
    }
    const payment = Object.keys(PAYMENT_ERRORS).filter((code) =>
      responses['402']?.description.includes(`\`${code}\``),
    )
    expect([...published, ...payment].sort()).toEqual([...codes].sort())
  })
})

describe('no orphan codes', () => {
  const listed = new Set(routeTable.flatMap((route) => routeErrorCodes(route)))
  test.each([...Object.keys(BUILD_ERRORS), ...Object.keys(BUILDER_FAULTS), ...Object.keys(READ_ERRORS)])(
    'default: %s is answered by some route',
    (code) => {
      expect(listed.has(code as never)).toBe(true)
    },
  )
})
