import { parseGwei } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import { nativeSigningAccount } from './nativeSigningAccount.js'

test('behavior: a transaction signed natively is byte for byte the one viem signs (EIP-1559 and legacy, with data)', async () => {
  for (let i = 0; i < 20; i++) {
    const key = generatePrivateKey()
    const tx = {
      chainId: 8453,
      to: privateKeyToAccount(generatePrivateKey()).address,
      data: `0x${'a9059cbb'.repeat(i + 1)}` as const,
      value: BigInt(i),
      gas: 90_000n + BigInt(i),
      nonce: i,
    }
    const eip1559 = {
      ...tx,
      type: 'eip1559' as const,
      maxFeePerGas: parseGwei('0.02'),
      maxPriorityFeePerGas: 1_000n,
    }
    const legacy = { ...tx, type: 'legacy' as const, gasPrice: parseGwei('0.01') }
    for (const t of [eip1559, legacy]) {
      expect(await nativeSigningAccount(key).signTransaction(t)).toBe(
        await privateKeyToAccount(key).signTransaction(t),
      )
    }
  }
})
