import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { slippageBpsBody } from '../../builders/bodyFields.js'
import { address, atomicAmount } from '../../chain/fields.js'
import { InvalidInputError, MalformedBodyError } from '../../errors.js'
import { queryInt, queryNumber, symbolList } from '../../market/queryFields.js'
import { parseInput, singleQueryValues } from './parseInput.js'

const body = z.strictObject({ owner: address, assets: atomicAmount, slippageBps: slippageBpsBody(5000) })

function fail(fn: () => unknown): InvalidInputError {
  try {
    fn()
  } catch (err) {
    if (err instanceof InvalidInputError) return err
    throw err
  }
  throw new Error('expected an InvalidInputError')
}

describe('parseInput', () => {
  test('default: applies defaults and returns typed values', () => {
    const out = parseInput(body, { owner: `0x${'a'.repeat(40)}`, assets: '10' }, 'body')
    expect(out).toEqual({ owner: `0x${'a'.repeat(40)}`, assets: '10', slippageBps: 100 })
  })

  test('error: a missing field is named and called required', () => {
    const err = fail(() => parseInput(body, { assets: '1' }, 'body'))
    expect(err.field).toBe('owner')
    expect(err.message).toMatch(/required/)
  })

  test('error: an unknown property is named with the allowed list', () => {
    const err = fail(() => parseInput(body, { owner: `0x${'a'.repeat(40)}`, assets: '1', extra: 1 }, 'body'))
    expect(err.field).toBe('extra')
    expect(err.message).toMatch(/Allowed: owner, assets, slippageBps/)
  })

  test('error: an out-of-range number says the bound', () => {
    const err = fail(() =>
      parseInput(body, { owner: `0x${'a'.repeat(40)}`, assets: '1', slippageBps: 5001 }, 'body'),
    )
    expect(err.field).toBe('slippageBps')
    expect(err.message).toMatch(/at most 5000/)
  })

  test('error: symbol lists are capped', () => {
    const q = z.object({ symbols: symbolList(2) })
    expect(parseInput(q, { symbols: 'BTC,ETH' }, 'query').symbols).toEqual(['BTC', 'ETH'])
    expect(fail(() => parseInput(q, { symbols: 'BTC,ETH,SOL' }, 'query')).field).toBe('symbols')
  })

  test('error: a body that is not an object is malformed', () => {
    expect(() => parseInput(body, [1, 2], 'body')).toThrow(MalformedBodyError)
  })

  test('default: one value per query key passes through', () => {
    expect({ ...singleQueryValues({ symbols: ['BTC,ETH'], ref: [''] }) }).toEqual({
      symbols: 'BTC,ETH',
      ref: '',
    })
  })

  test('error: a query key given more than once is a 400 naming it', () => {
    const err = fail(() => singleQueryValues({ taker: ['0x1'], fromAmount: ['1000000', '!!junk!!'] }))
    expect(err.status).toBe(400)
    expect(err.code).toBe('invalid_input')
    expect(err.field).toBe('fromAmount')
    expect(err.message).toMatch(/^query field "fromAmount" was given more than once/)
    expect(err.details).toMatchObject({ location: 'query' })
  })

  test('error: a numeric query field that is empty, hex or not a plain decimal is a 400 naming it; decimals pass', () => {
    const query = z.object({
      budget: queryNumber(0).default(100),
      limit: queryInt(1, 12).optional(),
      symbols: z.string().optional(),
    })
    for (const raw of ['', ' ', '0x10', 'Infinity', 'NaN', '1,5', '5 ']) {
      const err = fail(() => parseInput(query, { budget: raw }, 'query'))
      expect(err.field, JSON.stringify(raw)).toBe('budget')
      expect(err.message).toMatch(/decimal number/)
    }
    expect(fail(() => parseInput(query, { limit: '' }, 'query')).field).toBe('limit')
    expect(parseInput(query, { budget: '0.5', limit: '6' }, 'query')).toMatchObject({ budget: 0.5, limit: 6 })
    expect(parseInput(query, { budget: '1e3', symbols: '' }, 'query')).toMatchObject({
      budget: 1000,
      symbols: '',
    })
    expect(parseInput(query, {}, 'query')).toMatchObject({ budget: 100 })
  })
})
