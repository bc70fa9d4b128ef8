import { keccak256, recoverTypedDataAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import { CHAIN_ID, USDC, USDC_EIP712 } from '../chain/network.js'
import { recoverAuthorizer } from './recoverAuthorizer.js'

const types = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const
const domain = { ...USDC_EIP712, chainId: CHAIN_ID, verifyingContract: USDC } as const

test('recovers the same signer as viem for many keys, and nobody for an altered message', async () => {
  for (let i = 0; i < 20; i++) {
    const account = privateKeyToAccount(generatePrivateKey())
    const message = {
      from: account.address,
      to: USDC,
      value: BigInt(1000 + i),
      validAfter: 0n,
      validBefore: 2_000_000_000n,
      nonce: keccak256(toHex(i)),
    }
    const signature = await account.signTypedData({
      domain,
      types,
      primaryType: 'TransferWithAuthorization',
      message,
    })
    const viemSays = await recoverTypedDataAddress({
      domain,
      types,
      primaryType: 'TransferWithAuthorization',
      message,
      signature,
    })
    expect(recoverAuthorizer(message, signature)).toBe(account.address)
    expect(viemSays).toBe(account.address)
    expect(recoverAuthorizer({ ...message, value: message.value + 1n }, signature)).not.toBe(account.address)
  }
})

test('malformed signatures recover nobody', () => {
  const message = {
    from: USDC,
    to: USDC,
    value: 1n,
    validAfter: 0n,
    validBefore: 1n,
    nonce: keccak256('0x00'),
  }
  expect(recoverAuthorizer(message, '0x00')).toBeUndefined()
  expect(recoverAuthorizer(message, `0x${'11'.repeat(64)}05`)).toBeUndefined()
  // s above n/2 (malleable form) is refused, as the token refuses it.
  expect(recoverAuthorizer(message, `0x${'11'.repeat(32)}${'ff'.repeat(32)}1b`)).toBeUndefined()
})
