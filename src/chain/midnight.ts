import { type Address, concat, encodeAbiParameters, type Hex, keccak256, pad, parseAbi } from 'viem'

/** Morpho Midnight's CollateralParams (protocols.md §7a); lltv and liquidationCursor are WAD. */
export interface MidnightCollateralParams {
  token: Address
  lltv: bigint
  liquidationCursor: bigint
  oracle: Address
}

/** Morpho Midnight's Market struct: a market is identified by the CREATE2-style hash of these values. */
export interface MidnightMarket {
  chainId: bigint
  midnight: Address
  loanToken: Address
  collateralParams: readonly MidnightCollateralParams[]
  maturity: bigint
  rcfThreshold: bigint
  enterGate: Address
  liquidatorGate: Address
}

/** The Midnight views the service reads (selectors as in docs/abi/morpho-midnight.json). */
export const midnightReadAbi = parseAbi([
  'struct CollateralParams { address token; uint256 lltv; uint256 liquidationCursor; address oracle; }',
  'struct Market { uint256 chainId; address midnight; address loanToken; CollateralParams[] collateralParams; uint256 maturity; uint256 rcfThreshold; address enterGate; address liquidatorGate; }',
  'function toMarket(bytes32 id) view returns (Market)',
])

const marketParameter = {
  type: 'tuple',
  components: [
    { name: 'chainId', type: 'uint256' },
    { name: 'midnight', type: 'address' },
    { name: 'loanToken', type: 'address' },
    {
      name: 'collateralParams',
      type: 'tuple[]',
      components: [
        { name: 'token', type: 'address' },
        { name: 'lltv', type: 'uint256' },
        { name: 'liquidationCursor', type: 'uint256' },
        { name: 'oracle', type: 'address' },
      ],
    },
    { name: 'maturity', type: 'uint256' },
    { name: 'rcfThreshold', type: 'uint256' },
    { name: 'enterGate', type: 'address' },
    { name: 'liquidatorGate', type: 'address' },
  ],
} as const

/** Creation code prefix of the SSTORE2 blob Midnight writes abi.encode(market) into. */
const BLOB_INIT_PREFIX: Hex = '0x600b380380600b5f395ff3'

/**
 * Midnight market id (SDK `MarketUtils.toId`, protocols.md §7a): the CREATE2 address-style hash
 * `keccak256(0xff ‖ midnight ‖ bytes32(0) ‖ keccak256(0x600b380380600b5f395ff3 ‖ abi.encode(market)))`, over
 * the 32 bytes (not the address-truncated 20). Collaterals are hashed sorted by token address, the only
 * order Midnight accepts.
 */
export function midnightMarketId(market: MidnightMarket): Hex {
  const collateralParams = [...market.collateralParams].sort((a, b) =>
    a.token.toLowerCase() < b.token.toLowerCase()
      ? -1
      : a.token.toLowerCase() > b.token.toLowerCase()
        ? 1
        : 0,
  )
  const encoded = encodeAbiParameters([marketParameter], [{ ...market, collateralParams }])
  const initHash = keccak256(concat([BLOB_INIT_PREFIX, encoded]))
  return keccak256(concat(['0xff', market.midnight, pad('0x00', { size: 32 }), initHash]))
}
