import { createDecipheriv, pbkdf2Sync } from 'node:crypto'
import { scrypt } from '@noble/hashes/scrypt'
import { bytesToHex, type Hex, hexToBytes, keccak256 } from 'viem'
import { z } from 'zod'

const hex = z.string().regex(/^(0x)?[0-9a-fA-F]+$/)
const keystoreSchema = z.object({
  version: z.literal(3),
  crypto: z.object({
    cipher: z.literal('aes-128-ctr'),
    cipherparams: z.object({ iv: hex }),
    ciphertext: hex,
    kdf: z.enum(['scrypt', 'pbkdf2']),
    kdfparams: z.object({
      dklen: z.number().int().min(32),
      salt: hex,
      n: z.number().int().positive().optional(),
      r: z.number().int().positive().optional(),
      p: z.number().int().positive().optional(),
      c: z.number().int().positive().optional(),
      prf: z.literal('hmac-sha256').optional(),
    }),
    mac: hex,
  }),
})

const bytes = (value: string) => hexToBytes((value.startsWith('0x') ? value : `0x${value}`) as Hex)

/**
 * The private key in an Ethereum keystore file (Web3 Secret Storage v3: scrypt or PBKDF2-HMAC-SHA256, then
 * AES-128-CTR), checked by its MAC (keccak256 of the derived key's second half and the ciphertext): a wrong
 * password is refused, never a wrong key returned.
 */
export function decryptKeystore(json: string, password: string): Hex {
  const { crypto } = keystoreSchema.parse(JSON.parse(json))
  const k = crypto.kdfparams
  const salt = bytes(k.salt)
  const derived =
    crypto.kdf === 'scrypt'
      ? // OpenSSL (node:crypto) refuses N ≥ 2^(16r), which common keystores use (N = 2^18, r = 1).
        Buffer.from(scrypt(password, salt, { N: k.n ?? 262_144, r: k.r ?? 8, p: k.p ?? 1, dkLen: k.dklen }))
      : pbkdf2Sync(password, salt, k.c ?? 262_144, k.dklen, 'sha256')
  const ciphertext = bytes(crypto.ciphertext)
  const mac = keccak256(new Uint8Array([...derived.subarray(16, 32), ...ciphertext]))
  if (mac.slice(2).toLowerCase() !== crypto.mac.replace(/^0x/, '').toLowerCase()) {
    throw new Error('the keystore password is wrong (its MAC does not match)')
  }
  const decipher = createDecipheriv('aes-128-ctr', derived.subarray(0, 16), bytes(crypto.cipherparams.iv))
  return bytesToHex(new Uint8Array([...decipher.update(ciphertext), ...decipher.final()]))
}
