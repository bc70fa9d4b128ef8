import type { Hex } from 'viem'
import { ANVIL_ROLES, type AnvilAccount, anvilAccount } from '../chain/anvilAccounts.js'

export type DevnetAccount = AnvilAccount

/** Number of demo accounts funded with ETH and tokens in the devnet state. */
export const DEMO_ACCOUNT_COUNT = 10

/** Anvil demo accounts #0..#9 (addresses and private keys from the standard mnemonic). */
export const demoAccounts: readonly DevnetAccount[] = Array.from({ length: DEMO_ACCOUNT_COUNT }, (_, i) =>
  anvilAccount(i),
)

/** The devnet deployer/admin (mnemonic index 10). */
export const devnetDeployer: DevnetAccount = anvilAccount(ANVIL_ROLES.deployer)
export const DEVNET_DEPLOYER_PRIVATE_KEY: Hex = devnetDeployer.privateKey

/**
 * The devnet's x402 payment relayer (mnemonic index 11): it submits transferWithAuthorization for the
 * built-in facilitator. It holds ETH for gas and nothing else, and is never a payer or a payee.
 */
export const devnetRelayer: DevnetAccount = anvilAccount(ANVIL_ROLES.relayer)
export const RELAYER_FUNDING_ETH = 1000n * 10n ** 18n

/** The devnet's prop desk (mnemonic index 14): its own capital, its own key, never the relayer's. */
export const devnetPropDesk: DevnetAccount = anvilAccount(ANVIL_ROLES.propDesk)
export const PROP_DESK_FUNDING = { ETH: 100n * 10n ** 18n, USDC: 100_000n * 10n ** 6n } as const
