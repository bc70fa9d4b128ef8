import { describe, expect, test } from 'vitest'
import {
  KEYSTORE_KEY as KEY,
  KEYSTORE_PASSWORD,
  PBKDF2_KEYSTORE as PBKDF2,
  SCRYPT_KEYSTORE as SCRYPT,
} from '../../test/fixtures/keystoreVectors.js'
import { decryptKeystore } from './decryptKeystore.js'

// The Web3 Secret Storage definition's test vectors (password "testpassword").

describe('decryptKeystore', () => {
  test('the PBKDF2 and scrypt test vectors give their key', () => {
    expect(decryptKeystore(PBKDF2, KEYSTORE_PASSWORD)).toBe(KEY)
    expect(decryptKeystore(SCRYPT, KEYSTORE_PASSWORD)).toBe(KEY)
  })

  test('a wrong password is refused by the MAC, never a wrong key', () => {
    expect(() => decryptKeystore(PBKDF2, 'wrong')).toThrow(/password is wrong/)
  })
})
