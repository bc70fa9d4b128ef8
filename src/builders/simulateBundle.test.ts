import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import { COMMON_REVERTS, describeRevert, gasLimitFor } from './simulateBundle.js'

describe('describeRevert', () => {
  test('behavior: custom errors, Error(string) and Panic decode with their arguments', () => {
    const custom = encodeErrorResult({
      abi: COMMON_REVERTS,
      errorName: 'ERC4626ExceededMaxWithdraw',
      args: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 5n, 4n],
    })
    expect(describeRevert(custom, [])).toBe(
      'ERC4626ExceededMaxWithdraw(0x70997970C51812dc3A010C7d01b50e0d17dc79C8, 5, 4)',
    )
    const message = encodeErrorResult({
      abi: parseAbi(['error Error(string)']),
      errorName: 'Error',
      args: ['insufficient collateral'],
    })
    expect(describeRevert(message, [])).toBe('Error(insufficient collateral)')
    const protocol = parseAbi(['error InsufficientOutputAmount()'])
    expect(
      describeRevert(encodeErrorResult({ abi: protocol, errorName: 'InsufficientOutputAmount' }), protocol),
    ).toBe('InsufficientOutputAmount()')
  })

  test('error: empty and unknown revert data still say something useful', () => {
    expect(describeRevert('0x', [])).toMatch(/without a reason/)
    expect(describeRevert('0xdeadbeef00', [])).toBe('unknown error 0xdeadbeef')
  })
})

describe('gasLimitFor', () => {
  test('behavior: ×1.3 + 50k over what the simulation used', () => {
    expect(gasLimitFor(100_000n)).toBe(180_000n)
    expect(gasLimitFor(0n)).toBe(50_000n)
  })
})
