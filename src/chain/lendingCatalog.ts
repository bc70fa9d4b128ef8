import { type Address, getAddress, type Hex } from 'viem'
import { BASE_ADDRESSES } from './addresses.js'

/**
 * What /v1/earn/vaults and /v1/loan/markets list: configuration data of the network address book, chosen
 * per profile by config.ts (like the RPC URL), never by a devnet branch in the service. Everything else
 * (assets, names, decimals, market params, allocations, rates) is read from the chain.
 */
export interface LendingCatalog {
  /**
   * ERC-4626 vaults. `metamorpho`: a MetaMorpho vault over Morpho Blue (BASE_ADDRESSES.MorphoBlue), whose
   * APY comes from its allocation; `erc4626`: every other ERC-4626, whose APY is its share-price growth.
   */
  vaults: readonly CatalogVault[]
  /** Underlying assets of the Aave v3 reserves (pool BASE_ADDRESSES.AavePool) listed as pool-lender vaults. */
  aaveReserves: readonly Address[]
  /** Morpho Blue market ids listed as floating-rate loan markets. */
  morphoMarkets: readonly Hex[]
}

export type CatalogVaultKind = 'metamorpho' | 'erc4626'

export interface CatalogVault {
  address: Address
  kind: CatalogVaultKind
}

/**
 * Vaults that speak ERC-4626 for deposits but not for withdrawals: gTrade's gToken pays out only shares
 * requested with `makeWithdrawRequest(shares, owner)` and unlocked `withdrawEpochsTimelock()` epochs later
 * (its `maxWithdraw` is what the current epoch unlocks), so a plain `withdraw` is refused on Base. Deposits
 * work as in any ERC-4626; the withdraw builder refuses these with `withdraw_needs_request`, whatever the
 * profile lists. Every other catalog vault is a MetaMorpho vault, whose withdraw is plain ERC-4626.
 */
export const REQUEST_WITHDRAWAL_VAULTS: readonly Address[] = [BASE_ADDRESSES.GtradeUsdcVault]

/**
 * Base mainnet. Vault addresses: the curators' USDC and WETH MetaMorpho vaults (app.morpho.org, Base) and
 * gTrade's gUSDC (an ERC-4626 whose share price moves with traders' PnL; withdrawals by request and epoch,
 * see REQUEST_WITHDRAWAL_VAULTS). Market ids are
 * keccak256(abi.encode(MarketParams)) of Morpho's cbBTC/USDC and WETH/USDC 86% markets, recomputed from
 * their params (oracles 0x663B…39B9 and 0xFEa2…fE4, AdaptiveCurveIrm); the service re-derives every id
 * from the params the chain returns and drops a market that does not match.
 */
export const BASE_LENDING_CATALOG: LendingCatalog = {
  vaults: [
    { address: getAddress('0xc1256Ae5FF1cf2719D4937adb3bbCCab2E00A2Ca'), kind: 'metamorpho' }, // Moonwell Flagship USDC
    { address: getAddress('0xbeeF010f9cb27031ad51e3333f9aF9C6B1228183'), kind: 'metamorpho' }, // Steakhouse USDC
    { address: getAddress('0xeE8F4eC5672F09119b96Ab6fB59C27E1b7e44b61'), kind: 'metamorpho' }, // Gauntlet USDC Prime
    { address: getAddress('0x7BfA7C4f149E7415b73bdeDfe609237e29CBF34A'), kind: 'metamorpho' }, // Spark USDC
    { address: getAddress('0xa0E430870c4604CcfC7B38Ca7845B1FF653D0ff1'), kind: 'metamorpho' }, // Moonwell Flagship ETH
    { address: BASE_ADDRESSES.GtradeUsdcVault, kind: 'erc4626' }, // gTrade gUSDC
  ],
  aaveReserves: [BASE_ADDRESSES.USDC, BASE_ADDRESSES.WETH, BASE_ADDRESSES.cbBTC],
  morphoMarkets: [
    '0x9103c3b4e834476c9a62ea009ba2c884ee42e94e6e314a26f04d312434191836', // cbBTC/USDC 86%
    '0x8793cf302b8ffd655ab97bd1c695dbd967807e8367a65cb2f4edaf1380ba1bda', // WETH/USDC 86%
  ],
}

/**
 * Vaults that exist only on the devnet world, at fixed addresses the devnet etches them at (the 0xde7e…
 * prefix marks devnet inventions, as in src/devnet/addresses.ts, which takes them from here).
 */
export const DEVNET_VAULTS = {
  /** Real MetaMorpho v1.0 bytecode over USDC, allocating to the devnet's two USDC markets. */
  metaMorphoUsdc: getAddress('0xde7e000000000000000000000000000000000030'),
  /** A plain OpenZeppelin ERC-4626 over USDC (no strategy). */
  plainUsdc: getAddress('0xde7e000000000000000000000000000000000031'),
} as const satisfies Record<string, Address>

/**
 * The devnet world: Aave v3 and Morpho Blue sit at their Base addresses, so the Aave reserves are Base's.
 * Its Morpho markets use devnet oracles (0xde7e…20-22), so their ids are its own: WETH/USDC 86%,
 * cbBTC/USDC 86% and cbBTC/WETH 91.5% (a test checks them against the devnet's manifest).
 */
export const DEVNET_LENDING_CATALOG: LendingCatalog = {
  vaults: [
    { address: DEVNET_VAULTS.metaMorphoUsdc, kind: 'metamorpho' },
    { address: DEVNET_VAULTS.plainUsdc, kind: 'erc4626' },
  ],
  aaveReserves: BASE_LENDING_CATALOG.aaveReserves,
  morphoMarkets: [
    '0xd490e1596fe156525ba0564974c4069ea03907a81298ab87c889beddaab4e413', // WETH/USDC 86%
    '0x7832629c6c1f3e9f3c549186ecd6a06fd2718be451a9fc4878f139ab62b899b2', // cbBTC/USDC 86%
    '0xea4b0fdc8f9a01319c78651ad7e10b3282d9b9f6228969aa667f457aed3f5071', // cbBTC/WETH 91.5%
  ],
}
