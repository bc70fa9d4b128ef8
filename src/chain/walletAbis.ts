import { parseAbi, parseAbiItem } from 'viem'

/**
 * What the wallet reads (positions, loan analysis) read beyond the catalog reads of lendingAbis.ts:
 * Aave v3's account view, ERC-4626 share balances, Morpho Blue oracles, and the deposit/withdraw events
 * vault earnings are counted from (signatures from abi/aave-v3-IPool.json and EIP-4626).
 */
export const aaveAccountAbi = parseAbi([
  'function getUserAccountData(address user) view returns (uint256 totalCollateralBase, uint256 totalDebtBase, uint256 availableBorrowsBase, uint256 currentLiquidationThreshold, uint256 ltv, uint256 healthFactor)',
])

export const shareBalanceAbi = parseAbi([
  'function balanceOf(address owner) view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
])

/** Morpho Blue's IOracle: loan-token atomic units per collateral atomic unit, scaled 1e36. */
export const morphoOracleAbi = parseAbi(['function price() view returns (uint256)'])

/** EIP-4626: `owner` is the second indexed topic of Deposit and the third of Withdraw. */
export const vaultDepositEvent = parseAbiItem(
  'event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)',
)
export const vaultWithdrawEvent = parseAbiItem(
  'event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)',
)
/** Aave v3 Pool: the supplier is `onBehalfOf` (second indexed topic), the withdrawer `user` (also second). */
export const aaveSupplyEvent = parseAbiItem(
  'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
)
export const aaveWithdrawEvent = parseAbiItem(
  'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
)
/** Aave aToken: emitted on transfers between holders only (not on mint or burn). */
export const aTokenBalanceTransferEvent = parseAbiItem(
  'event BalanceTransfer(address indexed from, address indexed to, uint256 value, uint256 index)',
)
