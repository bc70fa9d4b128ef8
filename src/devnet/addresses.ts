import { type Address, getAddress } from 'viem'
import { DEVNET_UTIL_TOKEN } from '../chain/addresses.js'
import { DEVNET_VAULTS } from '../chain/lendingCatalog.js'

// Contracts at their real Base addresses are in the chain's address book (src/chain/addresses.ts).

/**
 * Devnet-only contracts, etched at fixed addresses so the address book does not depend on deploy order.
 * The 0xde7e… prefix marks them as devnet inventions; none of these exist on Base.
 */
export const DEVNET_ADDRESSES = {
  /** agentdesk's utility token (fixed supply, burn = transfer to 0x…dEaD). */
  UTIL: DEVNET_UTIL_TOKEN,
  /** Chainlink-style feeds (8 decimals) the market simulator moves; read by AaveOracle and Morpho oracles. */
  ETH_USD_FEED: getAddress('0xde7e000000000000000000000000000000000010'),
  BTC_USD_FEED: getAddress('0xde7e000000000000000000000000000000000011'),
  USDC_USD_FEED: getAddress('0xde7e000000000000000000000000000000000012'),
  /** Morpho Blue oracles (IOracle, price scaled 1e36 with decimals). */
  MORPHO_ORACLE_WETH_USDC: getAddress('0xde7e000000000000000000000000000000000020'),
  MORPHO_ORACLE_CBBTC_USDC: getAddress('0xde7e000000000000000000000000000000000021'),
  MORPHO_ORACLE_CBBTC_WETH: getAddress('0xde7e000000000000000000000000000000000022'),
  /** A plain OpenZeppelin ERC-4626 vault over USDC (no strategy); the service lists it from its catalog. */
  PLAIN_USDC_VAULT: DEVNET_VAULTS.plainUsdc,
  /**
   * The 0x Settler stand-in that AllowanceHolder quotes execute through (0x publishes no fixed Settler
   * address; quotes name it in `transaction.data`).
   */
  ZEROX_SETTLER: getAddress('0xde7e000000000000000000000000000000000040'),
} as const satisfies Record<string, Address>
