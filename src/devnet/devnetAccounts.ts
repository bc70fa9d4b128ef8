import type { Address, Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { bytesToHex } from 'viem/utils'

/** Anvil's default mnemonic: accounts #0..#9 are the well-known demo accounts. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'

/** Number of demo accounts funded with ETH and tokens in the devnet state. */
export const DEMO_ACCOUNT_COUNT = 10

/**
 * Index of the devnet deployer/admin on the same mnemonic. It sits just past anvil's ten demo accounts so
 * the deployer's roles and nonces never mix with the accounts tests and agents use.
 */
export const DEVNET_DEPLOYER_INDEX = 10

export interface DevnetAccount {
  index: number
  address: Address
  privateKey: Hex
}

function derive(index: number): DevnetAccount {
  const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index })
  const key = account.getHdKey().privateKey
  if (key === null) throw new Error(`could not derive private key for index ${index}`)
  return { index, address: account.address, privateKey: bytesToHex(key) }
}

/** Anvil demo accounts #0..#9 (addresses and private keys from the standard mnemonic). */
export const demoAccounts: readonly DevnetAccount[] = Array.from({ length: DEMO_ACCOUNT_COUNT }, (_, i) =>
  derive(i),
)

export const devnetDeployer: DevnetAccount = derive(DEVNET_DEPLOYER_INDEX)
export const DEVNET_DEPLOYER_PRIVATE_KEY: Hex = devnetDeployer.privateKey

/**
 * The devnet's x402 payment relayer (mnemonic index 11): it submits transferWithAuthorization for the
 * built-in facilitator. It holds ETH for gas and nothing else, and is never a payer or a payee.
 */
export const DEVNET_RELAYER_INDEX = 11
export const devnetRelayer: DevnetAccount = derive(DEVNET_RELAYER_INDEX)
export const RELAYER_FUNDING_ETH = 1000n * 10n ** 18n
