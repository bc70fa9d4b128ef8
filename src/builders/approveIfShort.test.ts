import { decodeFunctionData, erc20Abi } from 'viem'
import { describe, expect, test } from 'vitest'
import { approveIfShort } from './approveIfShort.js'

const need = {
  token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  spender: '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb',
  needed: 1_000_000n,
  label: '1 USDC',
  spenderName: 'Morpho Blue',
} as const

describe('approveIfShort', () => {
  test('behavior: a short allowance gets one approve for exactly the need, to the spender that pulls', () => {
    const { steps, issue, grants } = approveIfShort({ ...need, allowance: 999_999n })
    expect(steps).toHaveLength(1)
    expect(steps[0]?.to).toBe(need.token)
    expect(steps[0]?.value).toBe(0n)
    const call = decodeFunctionData({ abi: erc20Abi, data: steps[0]?.data ?? '0x' })
    expect(call).toEqual({ functionName: 'approve', args: [need.spender, 1_000_000n] })
    expect(issue).toEqual({ token: need.token, spender: need.spender, actual: '999999', expected: '1000000' })
    expect(grants).toEqual([{ token: need.token, spender: need.spender, amount: 1_000_000n }])
  })

  test('behavior: an allowance that covers the need, exactly or more, adds nothing', () => {
    expect(approveIfShort({ ...need, allowance: 1_000_000n })).toEqual({ steps: [], issue: null, grants: [] })
    expect(approveIfShort({ ...need, allowance: 2n ** 256n - 1n })).toEqual({
      steps: [],
      issue: null,
      grants: [],
    })
  })
})
