import type { PaymentPayload } from '@x402/core/types'
import { type Hex, keccak256, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { AUTHORIZATION_TYPES, USDC_DOMAIN } from '../../src/payments/exact/recoverAuthorizer.js'

const payTo = demoAccounts[9]?.address as `0x${string}`

/** Signs an EIP-3009 authorization by hand, for payloads the official client would never produce. */
export async function authorize(
  privateKey: Hex,
  accepted: PaymentPayload['accepted'],
  fields: { to?: `0x${string}`; value?: bigint; validAfter?: bigint; validBefore?: bigint; nonce?: Hex } = {},
) {
  const account = privateKeyToAccount(privateKey)
  const now = BigInt(Math.floor(Date.now() / 1000))
  const message = {
    from: account.address,
    to: fields.to ?? payTo,
    value: fields.value ?? BigInt(accepted.amount),
    validAfter: fields.validAfter ?? now - 600n,
    validBefore: fields.validBefore ?? now + 120n,
    nonce: fields.nonce ?? keccak256(toHex(`${Math.random()}-${Date.now()}`)),
  }
  const signature = await account.signTypedData({
    domain: USDC_DOMAIN,
    types: AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message,
  })
  const payload: PaymentPayload = {
    x402Version: 2,
    accepted,
    payload: {
      authorization: {
        from: message.from,
        to: message.to,
        value: message.value.toString(),
        validAfter: message.validAfter.toString(),
        validBefore: message.validBefore.toString(),
        nonce: message.nonce,
      },
      signature,
    },
  }
  return { payload, message, signature }
}

/**
 * An authorization naming a contract wallet as `from`, with whatever signature bytes the wallet's
 * ERC-1271 check is meant to judge (a hostile wallet accepts any).
 */
export function authorizeAs(
  from: `0x${string}`,
  accepted: PaymentPayload['accepted'],
  signature: Hex,
  fields: { validBefore?: bigint; nonce?: Hex } = {},
): PaymentPayload {
  const now = BigInt(Math.floor(Date.now() / 1000))
  return {
    x402Version: 2,
    accepted,
    payload: {
      authorization: {
        from,
        to: payTo,
        value: accepted.amount,
        validAfter: (now - 600n).toString(),
        validBefore: (fields.validBefore ?? now + 120n).toString(),
        nonce: fields.nonce ?? keccak256(toHex(`${Math.random()}-${Date.now()}`)),
      },
      signature,
    },
  }
}
