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

/** Morpho Midnight's Offer struct (protocols.md §7a): a maker's signed (or ratified) quote a taker fills with `take`. */
export interface MidnightOffer {
  market: MidnightMarket
  /** The maker buys units (a bid: lender-maker) or sells them (an ask: borrower-maker). */
  buy: boolean
  maker: Address
  start: bigint
  expiry: bigint
  tick: bigint
  group: Hex
  callback: Address
  callbackData: Hex
  receiverIfMakerIsSeller: Address
  ratifier: Address
  reduceOnly: boolean
  maxUnits: bigint
  maxAssets: bigint
  continuousFeeCap: bigint
}

/** The Midnight views the service reads (selectors as in docs/abi/morpho-midnight.json). */
export const midnightReadAbi = parseAbi([
  'struct CollateralParams { address token; uint256 lltv; uint256 liquidationCursor; address oracle; }',
  'struct Market { uint256 chainId; address midnight; address loanToken; CollateralParams[] collateralParams; uint256 maturity; uint256 rcfThreshold; address enterGate; address liquidatorGate; }',
  'function toMarket(bytes32 id) view returns (Market)',
])

/**
 * What the fixed-rate builders encode and read on Midnight (signatures and selectors as in
 * abi/morpho-midnight.json: take 0x6a14c9ef, supplyCollateral 0x32292d96, withdrawCollateral 0xa121e2a9,
 * repay 0x6b210f9e, withdraw 0xa6db1750), with the custom errors a simulation revert is decoded against.
 */
export const midnightAbi = parseAbi([
  'struct CollateralParams { address token; uint256 lltv; uint256 liquidationCursor; address oracle; }',
  'struct Market { uint256 chainId; address midnight; address loanToken; CollateralParams[] collateralParams; uint256 maturity; uint256 rcfThreshold; address enterGate; address liquidatorGate; }',
  'struct Offer { Market market; bool buy; address maker; uint256 start; uint256 expiry; uint256 tick; bytes32 group; address callback; bytes callbackData; address receiverIfMakerIsSeller; address ratifier; bool reduceOnly; uint128 maxUnits; uint128 maxAssets; uint256 continuousFeeCap; }',
  'function take(Offer offer, bytes ratifierData, uint256 units, address taker, address receiverIfTakerIsSeller, address takerCallback, bytes takerCallbackData) returns (uint256 buyerAssets, uint256 sellerAssets)',
  'function multicall(bytes[] calls)',
  'function supplyCollateral(Market market, uint256 collateralIndex, uint256 assets, address onBehalf)',
  'function withdrawCollateral(Market market, uint256 collateralIndex, uint256 assets, address onBehalf, address receiver)',
  'function repay(Market market, uint256 units, address onBehalf, address callback, bytes data)',
  'function withdraw(Market market, uint256 units, address onBehalf, address receiver)',
  'function position(bytes32 id, address user) view returns (uint128 credit, uint128 pendingFee, uint128 lastLossFactor, uint128 lastAccrual, uint128 debt, uint128 collateralBitmap)',
  'function collateral(bytes32 id, address user, uint256 index) view returns (uint128)',
  'function withdrawable(bytes32 id) view returns (uint128)',
  'function settlementFee(bytes32 id, uint256 timeToMaturity) view returns (uint256)',
  'function isHealthy(Market market, bytes32 id, address borrower) view returns (bool)',
  'function updatePositionView(Market market, bytes32 id, address user) view returns (uint128 newCredit, uint128 newPendingFee, uint128 accruedFee)',
  'error AlreadyConsumed()',
  'error BuyerGatedFromIncreasingCredit()',
  'error CannotIncreaseDebtPostMaturity()',
  'error ConsumedAssets()',
  'error ConsumedUnits()',
  'error InvalidOfferCaps()',
  'error MakerCreditOrDebtIncreased()',
  'error OfferExpired()',
  'error OfferNotStarted()',
  'error RatifierFailed()',
  'error RatifierUnauthorized()',
  'error SelfTake()',
  'error SellerGatedFromIncreasingDebt()',
  'error SellerIsLiquidatable()',
  'error TakerUnauthorized()',
  'error TickNotAccessible()',
  'error TooManyActivatedCollaterals()',
  'error Unauthorized()',
  'error UnhealthyBorrower()',
  'error UnusedReceiverMustBeZero()',
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
