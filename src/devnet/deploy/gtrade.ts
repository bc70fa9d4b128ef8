import { type Address, erc20Abi, parseAbi } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import type { DeployContext } from '../deployContext.js'
import { GTRADE_GROUPS, UNIVERSE } from '../simulator/universe.js'
import type { DevnetModule } from './registry.js'
import { ensureDeployerBalance } from './tokens.js'

/** gTrade v10 on Base (protocols.md §1). The diamond stand-in is etched at the real diamond address. */
export const GTRADE_ADDRESSES = {
  diamond: BASE_ADDRESSES.GtradeDiamond,
  /** gUSDC vault: only reported by getGToken(1); no code is deployed there. */
  gUsdc: BASE_ADDRESSES.GtradeUsdcVault,
} as const satisfies Record<string, Address>

/** USDC is collateral index 1 on Base (SDK COLLATERAL_TO_CHAIN_COLLATERAL_INDEX[8453]). */
export const GTRADE_USDC_COLLATERAL_INDEX = 1

export interface GtradePairConfig {
  from: string
  to: string
  /** Pair spread, percent x1e10 (400000000 = 0.04%); fills pay half of it. */
  spreadP: bigint
  /** Initial oracle price, 1e10. */
  price: bigint
  /** Index into the deployed groups; default 0 (crypto). */
  groupIndex?: number
}

/** A leverage group in human units (the deploy scales by 1e3). */
export interface GtradeGroupConfig {
  name: string
  minLeverage: number
  maxLeverage: number
}

/** The first pairs of gTrade's real pair list, in their real order (pairIndex = position). */
export const DEFAULT_GTRADE_PAIRS: readonly GtradePairConfig[] = [
  { from: 'BTC', to: 'USD', spreadP: 400_000_000n, price: 100_000n * 10n ** 10n },
  { from: 'ETH', to: 'USD', spreadP: 400_000_000n, price: 3_500n * 10n ** 10n },
  { from: 'LINK', to: 'USD', spreadP: 400_000_000n, price: 20n * 10n ** 10n },
  { from: 'DOGE', to: 'USD', spreadP: 400_000_000n, price: 35n * 10n ** 8n },
]

export interface DeployGtradeDeps {
  usdc: Address
  /** Accounts allowed to fill/trigger orders and set prices, besides the deployer. */
  keepers?: readonly Address[]
  /** USDC (6 dp) the deployer pre-funds the vault with to pay trader profits; default 1,000,000 USDC. */
  vaultFunding?: bigint
  pairs?: readonly GtradePairConfig[]
  /** Leverage groups in index order; default one crypto group, 1.1x..150x. */
  groups?: readonly GtradeGroupConfig[]
}

export interface GtradeDeployment {
  diamond: Address
  viewsFacet: Address
  executorFacet: Address
  gUsdc: Address
}

const CRYPTO_GROUP = {
  name: 'crypto',
  job: `0x${'0'.repeat(64)}`,
  minLeverage: 1_100n, // 1.1x (x1e3)
  maxLeverage: 150_000n, // 150x
} as const

/** Percent x1e10 values; the stand-in uses a fixed 90% liquidation threshold, so start = end = 90%. */
const CRYPTO_LIQUIDATION_PARAMS = {
  maxLiqSpreadP: 500_000_000n,
  startLiqThresholdP: 900_000_000_000n,
  endLiqThresholdP: 900_000_000_000n,
  startLeverage: 10_000,
  endLeverage: 150_000,
} as const

const CRYPTO_FEES = {
  totalPositionSizeFeeP: 600_000_000n, // 0.06% of position size, on open and on close
  totalLiqCollateralFeeP: 100_000_000_000n, // 10%
  oraclePositionSizeFeeP: 4_000_000n,
  minPositionSizeUsd: 100_000, // $100 (x1e3)
  __placeholder: 0n,
} as const

/** Admin, keeper and stand-in-only selectors of the diamond (the real ones come from the v10 ABI). */
export const gtradeStandInAbi = parseAbi([
  'struct Feed { address feed1; address feed2; uint8 feedCalculation; uint256 maxDeviationP; }',
  'struct Pair { string from; string to; Feed feed; uint256 spreadP; uint256 groupIndex; uint256 feeIndex; }',
  'struct Group { string name; bytes32 job; uint256 minLeverage; uint256 maxLeverage; }',
  'struct GroupLiquidationParams { uint40 maxLiqSpreadP; uint40 startLiqThresholdP; uint40 endLiqThresholdP; uint24 startLeverage; uint24 endLeverage; }',
  'struct FeeGroup { uint40 totalPositionSizeFeeP; uint40 totalLiqCollateralFeeP; uint40 oraclePositionSizeFeeP; uint32 minPositionSizeUsd; uint104 __placeholder; }',
  'struct Trade { address user; uint32 index; uint16 pairIndex; uint24 leverage; bool long; bool isOpen; uint8 collateralIndex; uint8 tradeType; uint120 collateralAmount; uint64 openPrice; uint64 tp; uint64 sl; bool isCounterTrade; uint160 positionSizeToken; uint24 __placeholder; }',
  'struct PendingOrder { Trade trade; address user; uint32 index; bool isOpen; uint8 orderType; uint32 createdBlock; uint16 maxSlippageP; }',
  'function addGroup(Group g, GroupLiquidationParams liq)',
  'function addFee(FeeGroup f)',
  'function addPair(Pair p)',
  'function setKeeper(address keeper, bool allowed)',
  'function isKeeper(address) view returns (bool)',
  'function setPrice(uint256 pairIndex, uint64 price)',
  'function prices(uint256 pairIndex) view returns (uint64)',
  'function fundVault(uint256 amount)',
  'function vaultBalance() view returns (uint256)',
  'function setMarketOrdersTimeoutBlocks(uint16 blocks)',
  'function executeMarketOrder(address user, uint32 orderIndex)',
  'function executeTrigger(address user, uint32 index, uint8 orderType)',
  'function triggerableOrderType(address user, uint32 index) view returns (uint8)',
  'function getTraders(uint32 offset, uint32 limit) view returns (address[])',
  'function getTrades(address trader) view returns (Trade[])',
  'function getPendingOrders(address user) view returns (PendingOrder[])',
  'function pairsCount() view returns (uint256)',
  'error NotImplemented(bytes4 selector)',
  'error TriggerNotHit()',
  'error PendingOrderNotOpen()',
  'error NotAuthorized()',
])

/**
 * Etch the gTrade v10 diamond stand-in at its Base address (views and keeper facets at scratch addresses,
 * reached by delegatecall like real diamond facets), list the first real pairs with a crypto group and fee
 * tier, set initial prices, register keepers and pre-fund the vault that pays profits.
 */
export async function deployGtrade(ctx: DeployContext, deps: DeployGtradeDeps): Promise<GtradeDeployment> {
  const viewsFacet = await ctx.deploy('GTradeViewsFacetStandIn')
  const executorFacet = await ctx.deploy('GTradeExecutorFacetStandIn')
  const diamond = await ctx.etch('GTradeDiamondStandIn', GTRADE_ADDRESSES.diamond, [
    ctx.deployer,
    deps.usdc,
    GTRADE_ADDRESSES.gUsdc,
    viewsFacet,
    executorFacet,
  ])
  const abi = gtradeStandInAbi
  const groups = deps.groups ?? [
    { name: CRYPTO_GROUP.name, minLeverage: 1.1, maxLeverage: Number(CRYPTO_GROUP.maxLeverage) / 1e3 },
  ]
  for (const group of groups) {
    const maxLeverage = BigInt(Math.round(group.maxLeverage * 1e3))
    await ctx.write({
      address: diamond,
      abi,
      functionName: 'addGroup',
      args: [
        {
          name: group.name,
          job: CRYPTO_GROUP.job,
          minLeverage: BigInt(Math.round(group.minLeverage * 1e3)),
          maxLeverage,
        },
        { ...CRYPTO_LIQUIDATION_PARAMS, endLeverage: Number(maxLeverage) },
      ],
    })
  }
  await ctx.write({ address: diamond, abi, functionName: 'addFee', args: [CRYPTO_FEES] })
  const pairs = deps.pairs ?? DEFAULT_GTRADE_PAIRS
  for (const [pairIndex, pair] of pairs.entries()) {
    await ctx.write({
      address: diamond,
      abi,
      functionName: 'addPair',
      args: [
        {
          from: pair.from,
          to: pair.to,
          feed: {
            feed1: '0x0000000000000000000000000000000000000000',
            feed2: '0x0000000000000000000000000000000000000000',
            feedCalculation: 0,
            maxDeviationP: 0n,
          },
          spreadP: pair.spreadP,
          groupIndex: BigInt(pair.groupIndex ?? 0),
          feeIndex: 0n,
        },
      ],
    })
    await ctx.write({
      address: diamond,
      abi,
      functionName: 'setPrice',
      args: [BigInt(pairIndex), pair.price],
    })
  }
  for (const keeper of deps.keepers ?? []) {
    await ctx.write({ address: diamond, abi, functionName: 'setKeeper', args: [keeper, true] })
  }
  const funding = deps.vaultFunding ?? 1_000_000n * 10n ** 6n
  if (funding > 0n) {
    await ensureDeployerBalance(ctx, deps.usdc, funding)
    await ctx.write({ address: deps.usdc, abi: erc20Abi, functionName: 'approve', args: [diamond, funding] })
    await ctx.write({ address: diamond, abi, functionName: 'fundVault', args: [funding] })
  }
  return { diamond, viewsFacet, executorFacet, gUsdc: GTRADE_ADDRESSES.gUsdc }
}

/**
 * buildDevnetState plug-in: every pair of the market simulator's universe, in its pairIndex order and
 * groups, so the chain and the gTrade backend simulator agree on what each index means. BTC and ETH start
 * at the build's reference prices, the rest at their simulator base prices; the keeper moves them all to
 * the simulator's perp mark once the world runs. The deployer is the keeper.
 */
export const devnetModule: DevnetModule = {
  name: 'gtrade',
  async deploy(ctx, core) {
    const e10 = (usd: number): bigint => BigInt(Math.round(usd * 1e10))
    const start: Record<string, number> = { BTC: core.prices.btcUsd, ETH: core.prices.ethUsd }
    const pairs = [...UNIVERSE]
      .sort((a, b) => a.pairIndex - b.pairIndex)
      .map((i) => ({
        from: i.from,
        to: i.to,
        spreadP: BigInt(Math.round(i.spreadPct * 1e10)),
        price: e10(start[i.symbol] ?? i.basePrice),
        groupIndex: i.groupIndex,
      }))
    const groups = GTRADE_GROUPS.map((g) => ({
      name: g.name,
      minLeverage: g.minLeverage,
      maxLeverage: g.maxLeverage,
    }))
    const d = await deployGtrade(ctx, { usdc: core.tokens.USDC, pairs, groups })
    return {
      diamond: d.diamond,
      viewsFacet: d.viewsFacet,
      executorFacet: d.executorFacet,
      gUsdc: d.gUsdc,
      keeper: ctx.deployer,
      collateralIndex: GTRADE_USDC_COLLATERAL_INDEX,
      pairs: pairs.map((p, pairIndex) => ({ pairIndex, from: p.from, to: p.to, price: p.price.toString() })),
    }
  },
}
