import { pbkdf2Sync } from 'node:crypto'
import type { Address, Hex } from 'viem'
import { HDKey, hdKeyToAccount } from 'viem/accounts'
import { bytesToHex } from 'viem/utils'

/**
 * Anvil's public test mnemonic. Every key derived from it is published; they are for the local devnet
 * only and must never hold real funds. The devnet profile's defaults (payee, relayer) and the devnet
 * world's accounts all come from here.
 */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'

/** Roles on the mnemonic: #0..#9 are anvil's demo accounts; the service's own accounts sit past them. */
export const ANVIL_ROLES = {
  /** Anvil's demo account #9 receives devnet payments, so it is never a demo payer. */
  payee: 9,
  /** The devnet deployer/admin, just past the demo accounts so its roles and nonces never mix with theirs. */
  deployer: 10,
  /** The built-in facilitator's relayer: submits transferWithAuthorization and pays its gas. */
  relayer: 11,
  /** The prop desk: trades its own capital for members (#12 and #13 are the devnet's Midnight makers). */
  propDesk: 14,
} as const

export interface AnvilAccount {
  index: number
  address: Address
  privateKey: Hex
}

let master: HDKey | undefined
const derived = new Map<number, AnvilAccount>()

/** Account `index` of the mnemonic (BIP-44 m/44'/60'/0'/0/index), derived once and remembered. */
export function anvilAccount(index: number): AnvilAccount {
  const known = derived.get(index)
  if (known !== undefined) return known
  // BIP-39 seed (PBKDF2-HMAC-SHA512, 2048 rounds) with Node's native PBKDF2: ten times faster than JS.
  master ??= HDKey.fromMasterSeed(
    pbkdf2Sync(ANVIL_MNEMONIC.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512'),
  )
  const account = hdKeyToAccount(master, { addressIndex: index })
  const key = account.getHdKey().privateKey
  if (key === null) throw new Error(`could not derive the private key of anvil account ${index}`)
  const result = { index, address: account.address, privateKey: bytesToHex(key) }
  derived.set(index, result)
  return result
}
