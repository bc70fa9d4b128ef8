import { keccak256, recoverTypedDataAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import { USDC } from '../../chain/network.js'
import { AUTHORIZATION_TYPES, recoverAuthorizer, USDC_DOMAIN } from './recoverAuthorizer.js'

const types = AUTHORIZATION_TYPES
const domain = USDC_DOMAIN

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
