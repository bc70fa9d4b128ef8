import { createRequire } from 'node:module'
import { type Hex, hexToBytes, keccak256, type LocalAccount, serializeTransaction, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** libsecp256k1 through the `secp256k1` package's prebuilt binding (as src/payments/exact/recoverAuthorizer.ts). */
const secp256k1 = createRequire(import.meta.url)('secp256k1') as {
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number }
}

/**
 * viem's local account for `privateKey`, with transactions signed by libsecp256k1 (~0.15 ms, against
 * ~0.6 ms in viem's pure-JS noble): the relayer signs one transaction per settlement, on the service's
 * thread. The bytes are the same (deterministic RFC 6979 nonces, low s; a test compares them); messages
 * and typed data are signed by viem as before.
 */
export function nativeSigningAccount(privateKey: Hex): LocalAccount {
  const account = privateKeyToAccount(privateKey)
  const key = hexToBytes(privateKey)
  return {
    ...account,
    async signTransaction(transaction, options) {
      const serializer = options?.serializer ?? serializeTransaction
      const digest = hexToBytes(keccak256(await serializer(transaction)))
      const { signature, recid } = secp256k1.ecdsaSign(digest, key)
      return (await serializer(transaction, {
        r: toHex(signature.subarray(0, 32)),
        s: toHex(signature.subarray(32, 64)),
        v: BigInt(27 + recid),
        yParity: recid,
      })) as Awaited<ReturnType<LocalAccount['signTransaction']>>
    },
  }
}
