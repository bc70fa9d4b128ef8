import type { Address } from 'viem'

/**
 * Base mainnet's address book: the one definition of every protocol contract and token the service, its
 * builders and the devnet use (sources: protocols.md). The devnet places its contracts at these same
 * addresses, so calldata built for Base works unchanged on it.
 */
export const BASE_ADDRESSES = {
  /** Native USDC (EIP-3009, EIP-712 domain "USD Coin" / "2"): the x402 settlement asset. */
  USDC: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  WETH: '0x4200000000000000000000000000000000000006',
  cbBTC: '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf',
  Multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
  UniswapV3Factory: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
  NonfungiblePositionManager: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
  SwapRouter02: '0x2626664c2603336E57B271c5C0b26F421741e481',
  QuoterV2: '0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a',
  TickLens: '0x0CdeE061c75D43c82520eD998C23ac2991c9ac6d',
  /** Uniswap v2 factory on Base: passed to SwapRouter02's constructor only; no v2 code is deployed. */
  UniswapV2Factory: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6',
  /** Pool address follows from the factory address and the real init-code hash (0xe34f…8b54). */
  UniswapV3WethUsdc500Pool: '0xd0b53D9277642d899DF5C87A3966A349A798F224',
  MorphoBlue: '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb',
  AdaptiveCurveIrm: '0x46415998764C29aB2a25CbeA6254146D50D22687',
  AavePoolAddressesProvider: '0xe20fCBdBfFC4Dd138cE8b2E6FBb6CB49777ad64D',
  /** Created by the provider (CREATE at nonce 1), which lands on the real Base proxy address. */
  AavePool: '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5',
  /** Created by the provider at nonce 2. */
  AavePoolConfigurator: '0x5731a04B1E775f0fdd454Bf70f3335886e9A96be',
  AaveOracle: '0x2Cc0Fc26eD4563A5ce5e8bdcfe1A2878676Ae156',
  AaveProtocolDataProvider: '0x0F43731EB8d45A581f4a36DD74F5f358bc90C73A',
  /**
   * Aave token proxies, CREATEd by the PoolConfigurator. Listing reserves in Base's order (WETH, cbETH,
   * USDbC, wstETH, USDC) reproduces the real addresses; aBasUSDC, its debt token and aBasWETH match
   * protocols.md §3, and variableDebtBasWETH comes out of the same derivation.
   */
  aBasWETH: '0xD4a0e0b9149BCee3C920d2E00b5dE09138fd8bb7',
  variableDebtBasWETH: '0x24e6e0795b3c7c71D965fCc4f371803d1c1DcA1E',
  aBasUSDC: '0x4e65fE4DbA92790696d040ac24Aa414708F5c0AB',
  variableDebtBasUSDC: '0x59dca05b6c26dbd64b5381374aAaC5CD05644C28',
  /** ERC-20s listed on Aave (inert placeholders on the devnet, listed only so the proxies above land right). */
  cbETH: '0x2Ae3F1Ec7F1F5012CFEab0185bfc7aa3cf0DEc22',
  USDbC: '0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA',
  wstETH: '0xc1CBa3fCea344f92D9239c08C0568f6F2F0ee452',
  /** gTrade v10's GNSMultiCollatDiamond (protocols.md §1): every perp call and read goes here. */
  GtradeDiamond: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
  /** gTrade's gUSDC vault, as getGToken(1) reports it (no code on the devnet). */
  GtradeUsdcVault: '0xad20523A7dC37bAbc1CC74897E4977232b3D02e5',
  /** Aerodrome (protocols.md §4–5, aerodrome-finance/contracts README). */
  AerodromeRouter: '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43',
  AerodromePoolFactory: '0x420DD381b31aEf6683db6B902084cB0FFECe40Da',
  /** Reported by the router's voter() (no code on the devnet). */
  AerodromeVoter: '0x16613524e02ad97eDfeF371bC883F2F5d6C480A5',
  /** Reported by factoryRegistry() only (UNCERTAIN Base address; no code on the devnet). */
  AerodromeFactoryRegistry: '0x5C3F18F06CC09CA1910767A34a20F771039E37C0',
  /** Morpho Midnight, the fixed-rate lender (protocols.md §7a, morpho-ts 2.8.0), and its SetterRatifier. */
  MorphoMidnight: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
  MidnightSetterRatifier: '0x800B5F12A61B8198a5a6EfD794Cac6699B294d63',
  /**
   * 0x AllowanceHolder (Cancun chains; 0x-settler's constructor pins this address): the spender takers
   * approve for 0x Swap API v2 allowance-holder quotes (`issues.allowance.spender`); never approve a Settler.
   */
  ZeroExAllowanceHolder: '0x0000000000001fF3684f28c67538d4D072C22734',
  /** Tokenized stocks' onchain oracle registry: getOracleParams(token) → (uint256 multiplier, bool paused). */
  StockOracleRegistry: '0x3f3E8cf41cdd3b1D118c16471aB0113DfDDd5CaD',
} as const satisfies Record<string, Address>

/**
 * 0x Settler's deployer/registry (0xProject/0x-settler README: the same address on every chain, and "do not
 * hardcode any address other than" it): `ownerOf(2)` is the live taker-submitted Settler, the only contract
 * an AllowanceHolder quote may execute through. Deliberately outside BASE_ADDRESSES: it is read, never a
 * step's target.
 */
export const ZEROX_SETTLER_REGISTRY: Address = '0x00000000000004533Fe15556B1E086BB1A72cEae'

/**
 * x402's `batch-settlement` contracts (@x402/evm 2.27.0 BATCH_SETTLEMENT_ADDRESS and
 * ERC3009_DEPOSIT_COLLECTOR_ADDRESS; CREATE2, the same on every chain): the channel contract agents deposit
 * into and the collector their EIP-3009 `receiveWithAuthorization` names as payee. The devnet etches
 * stand-ins at these addresses (src/devnet/deploy/batchSettlement.ts). Deliberately outside BASE_ADDRESSES:
 * payment plumbing the facilitator talks to, not a contract a builder may send a caller to.
 */
export const X402_BATCH_SETTLEMENT = {
  settlement: '0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003',
  erc3009DepositCollector: '0x4020806089470a89826cB9fB1f4059150b550004',
} as const satisfies Record<string, Address>

/** Burning (UTIL or anything else) means sending it here. */
export const DEAD_ADDRESS: Address = '0x000000000000000000000000000000000000dEaD'

/** Sentinel that token fields accept for native ETH. */
export const NATIVE_SENTINEL: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

/** Whether `token` is the native-ETH sentinel (any case). */
export const isNative = (token: Address): boolean => token.toLowerCase() === NATIVE_SENTINEL.toLowerCase()

/** The ERC-20 a pool trades for `token`: WETH for native ETH. */
export const erc20Of = (token: Address): Address => (isNative(token) ? BASE_ADDRESSES.WETH : token)

/** agentdesk's utility token on the devnet (fixed supply, burn = transfer to 0x…dEaD); on Base, UTIL_TOKEN. */
export const DEVNET_UTIL_TOKEN: Address = '0xDE7e000000000000000000000000000000000001'
