import { describe, expect, test } from 'vitest'
import { loadConfig } from '../../config.js'
import { getPricesRoute } from '../../routes/prices/getPrices.js'
import { challengeExtensions, settlementExtensions } from './challengeExtensions.js'

const PAY_TO = '0x000000000000000000000000000000000000dEaD'
const base = (codes?: string) =>
  loadConfig({
    PROFILE: 'base',
    PAY_TO,
    FACILITATOR_URL: 'https://facilitator.example',
    ...(codes === undefined ? {} : { BUILDER_CODES: codes }),
  })

describe('challenge extensions', () => {
  test('behavior: the challenge declares our app code, the other configured codes as service codes', () => {
    const ext = challengeExtensions(getPricesRoute, base('bc_app,bc_sdk'))
    expect(ext['builder-code']).toMatchObject({ info: { a: 'bc_app', s: ['bc_sdk'] } })
    expect(ext.bazaar).toBeDefined()
  })

  test('default: without BUILDER_CODES on the base profile nothing is attributed, discovery stays', () => {
    const config = base()
    expect(config.builderCodes).toEqual([])
    const ext = challengeExtensions(getPricesRoute, config)
    expect(Object.keys(ext)).toEqual(['bazaar', 'payment-identifier'])
    expect(ext['payment-identifier']).toMatchObject({ info: { required: false } })
    expect(settlementExtensions(ext, { 'builder-code': { info: { a: 'bc_client' } } }, [])).toEqual({
      bazaar: ext.bazaar,
    })
  })

  test('error: a malformed BUILDER_CODES stops the start naming the variable', () => {
    expect(() => base('BC-Upper')).toThrow(/BUILDER_CODES/)
    expect(() => base('a,b,c,d,e,f,g')).toThrow(/BUILDER_CODES/)
  })

  test('attack: the app code forwarded for settlement is ours whatever the client echoed; its well-formed service codes stay', () => {
    const declared = challengeExtensions(getPricesRoute, base('bc_app'))
    const forged = {
      bazaar: { info: { input: { type: 'http', method: 'GET', queryParams: { planted: 'listing' } } } },
      'builder-code': { info: { a: 'bc_thief', w: 'bc_thief', s: ['bc_client_sdk', 'NOT VALID', 7] } },
    }
    const forwarded = settlementExtensions(declared, forged, ['bc_app'])
    expect(forwarded).toEqual({
      bazaar: declared.bazaar,
      'builder-code': { info: { a: 'bc_app', s: ['bc_client_sdk'] } },
    })
    // A client that echoes nothing is attributed all the same.
    expect(settlementExtensions(declared, undefined, ['bc_app', 'bc_ours'])).toEqual({
      bazaar: declared.bazaar,
      'builder-code': { info: { a: 'bc_app', s: ['bc_ours'] } },
    })
    // A flood of client codes is capped (the facilitator would drop the excess anyway).
    const many = Array.from({ length: 40 }, (_, i) => `bc_${i}`)
    const capped = settlementExtensions(declared, { 'builder-code': { info: { s: many } } }, ['bc_app'])
    expect((capped['builder-code'] as { info: { s: string[] } }).info.s).toHaveLength(5)
  })
})
