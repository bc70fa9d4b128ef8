import { Attribution } from 'ox/erc8021'
import { describe, expect, test } from 'vitest'
import { appendSuffix, builderCodeSuffix } from './builderCode.js'

describe('builderCodeSuffix', () => {
  test('behavior: schema 0 bytes as protocols.md §6 gives them (codes ‖ length ‖ 0x00 ‖ marker)', () => {
    expect(builderCodeSuffix(['baseapp'])).toBe('0x62617365617070070080218021802180218021802180218021')
    expect(builderCodeSuffix(['baseapp', 'morpho'])).toBe(
      '0x626173656170702c6d6f7270686f0e0080218021802180218021802180218021',
    )
  })

  test('behavior: appended calldata decodes back to the codes', () => {
    const data = appendSuffix('0xa9059cbb00', builderCodeSuffix(['bc_agentdesk_devnet', 'bc_x']))
    expect(data.startsWith('0xa9059cbb00')).toBe(true)
    expect(Attribution.fromData(data)).toMatchObject({ codes: ['bc_agentdesk_devnet', 'bc_x'] })
  })

  test('default: no codes configured, no suffix and calldata unchanged', () => {
    expect(builderCodeSuffix([])).toBeNull()
    expect(appendSuffix('0x1234', null)).toBe('0x1234')
  })
})
