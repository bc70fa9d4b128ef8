import {
  type Address,
  encodeAbiParameters,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
  toHex,
} from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import type { MidnightCollateralParams, MidnightMarket, MidnightOffer } from '../../chain/midnight.js'
import { ORACLE_PRICE_SCALE, SECONDS_PER_YEAR, WAD } from '../../chain/units.js'
import type { DeployContext } from '../deployContext.js'
import { demoAccounts } from '../devnetAccounts.js'
import { MIDNIGHT_DEMO_MATURITIES, seedMidnightDemo } from './midnightDemo.js'
import type { DevnetModule } from './registry.js'
import { ensureDeployerBalance } from './tokens.js'

/** Morpho Midnight on Base (protocols.md §7a, morpho-ts 2.8.0). */
export const MIDNIGHT_ADDRESSES = {
  midnight: BASE_ADDRESSES.MorphoMidnight,
  setterRatifier: BASE_ADDRESSES.MidnightSetterRatifier,
  /** Devnet-only on-chain offer book standing in for the Morpho book API (no Base counterpart). */
  offerBook: getAddress('0xde7e00000000000000000000000000000000b00c'),
} as const satisfies Record<string, Address>

const ZERO: Address = '0x0000000000000000000000000000000000000000'

/**
 * The highest continuous fee (WAD per second on credit) the devnet's makers accept: 1% a year. Midnight refuses a
 * take when the market's fee is above the offer's cap, so a cap of 0 would make the offer untakeable as soon as
 * the market charges any fee (Base's markets may).
 */
export const DEVNET_CONTINUOUS_FEE_CAP = 10n ** 16n / BigInt(SECONDS_PER_YEAR)

/**
 * The offer fields Midnight checks by side on take: a buy offer's maker never sells, so its
 * `receiverIfMakerIsSeller` must be zero (UnusedReceiverMustBeZero); a sell offer names where its proceeds go.
 */
export function makerOfferTerms(maker: Address, buy: boolean) {
  return { receiverIfMakerIsSeller: buy ? ZERO : maker, continuousFeeCap: DEVNET_CONTINUOUS_FEE_CAP }
}

const collateralParamsComponents = [
  { name: 'token', type: 'address' },
  { name: 'lltv', type: 'uint256' },
  { name: 'liquidationCursor', type: 'uint256' },
  { name: 'oracle', type: 'address' },
] as const

export const midnightMarketAbiParameter = {
  name: 'market',
  type: 'tuple',
  components: [
    { name: 'chainId', type: 'uint256' },
    { name: 'midnight', type: 'address' },
    { name: 'loanToken', type: 'address' },
    { name: 'collateralParams', type: 'tuple[]', components: collateralParamsComponents },
    { name: 'maturity', type: 'uint256' },
    { name: 'rcfThreshold', type: 'uint256' },
    { name: 'enterGate', type: 'address' },
    { name: 'liquidatorGate', type: 'address' },
  ],
} as const

// The market types are the service's own (src/chain/midnight.ts): the devnet builds what the service reads.
export type { MidnightCollateralParams, MidnightMarket, MidnightOffer } from '../../chain/midnight.js'

/** Stand-in-only helpers of the Midnight contracts (the real selectors come from abi/morpho-midnight.json). */
export const midnightStandInAbi = parseAbi([
  'struct CollateralParams { address token; uint256 lltv; uint256 liquidationCursor; address oracle; }',
  'struct Market { uint256 chainId; address midnight; address loanToken; CollateralParams[] collateralParams; uint256 maturity; uint256 rcfThreshold; address enterGate; address liquidatorGate; }',
  'struct Offer { Market market; bool buy; address maker; uint256 start; uint256 expiry; uint256 tick; bytes32 group; address callback; bytes callbackData; address receiverIfMakerIsSeller; address ratifier; bool reduceOnly; uint128 maxUnits; uint128 maxAssets; uint256 continuousFeeCap; }',
  'function touchMarket(Market market) returns (bytes32)',
  'function toId(Market market) view returns (bytes32)',
  'function tickToPrice(uint256 tick) pure returns (uint256)',
  'function setIsAuthorized(address authorized, bool newIsAuthorized, address onBehalf)',
  'function supplyCollateral(Market market, uint256 collateralIndex, uint256 assets, address onBehalf)',
  'function take(Offer offer, bytes ratifierData, uint256 units, address taker, address receiverIfTakerIsSeller, address takerCallback, bytes takerCallbackData) returns (uint256 buyerAssets, uint256 sellerAssets)',
  'function setIsRootRatified(address maker, bytes32 root, bool newIsRootRatified)',
  'function hashOffer(Offer offer) pure returns (bytes32)',
  'function post(Offer offer, bytes ratifierData) returns (uint256 offerId)',
  'function cancel(bytes32 marketId, uint256 offerId)',
  'function liveOffers(bytes32 marketId) view returns (uint256[] offerIds, Offer[] offers, bytes[] ratifierData, uint256[] remaining)',
  'function setPrice(uint256 newPrice)',
  'error NotImplemented(bytes4 selector)',
  'error CallbacksNotSupported()',
])

export interface MidnightCollateralInput {
  token: Address
  /** LLTV, WAD (0.86e18 = 86%). */
  lltv: bigint
  /** Morpho-style IOracle (price scaled 1e36). When omitted, a settable oracle is deployed at `price`. */
  oracle?: Address
  /** Initial price for a deployed oracle: loan assets per collateral asset x1e36 (decimals included). */
  price?: bigint
}

export interface DeployMidnightDeps {
  usdc: Address
  collaterals: readonly MidnightCollateralInput[]
  /** Unix maturities of the USDC markets; default: 30 and 90 days out, at 00:00 UTC. */
  maturities?: readonly bigint[]
  /** Post deployer-made offers on both sides of every market (default true). */
  seedOffers?: boolean
  /** Units per seeded offer (USDC 6 dp); default 50,000 USDC. */
  seedUnits?: bigint
}

export interface MidnightDeployment {
  midnight: Address
  setterRatifier: Address
  offerBook: Address
  oracles: Address[]
  markets: { id: Hex; market: MidnightMarket }[]
}

/** Lowest accessible tick (spacing 4) whose price is >= `price` (WAD), by binary search over tickToPrice. */
export async function priceToTick(
  ctx: DeployContext,
  midnight: Address,
  price: bigint,
  spacing = 4n,
): Promise<bigint> {
  let low = 0n
  let high = 6744n
  while (low < high) {
    const mid = (low + high) / 2n
    const p = await ctx.read<bigint>({
      address: midnight,
      abi: midnightStandInAbi,
      functionName: 'tickToPrice',
      args: [mid],
    })
    if (p < price) low = mid + 1n
    else high = mid
  }
  return ((low + spacing - 1n) / spacing) * spacing
}

/** Unit price (WAD) for a simple annual rate over `ttm` seconds: P = 1 / (1 + apr · ttm / year). */
export function priceForApr(aprWad: bigint, ttmSeconds: bigint): bigint {
  return (WAD * WAD) / (WAD + (aprWad * ttmSeconds) / BigInt(SECONDS_PER_YEAR))
}

/** ratifierData for a single-offer tree (root = leaf, empty proof) of the SetterRatifier stand-in. */
export function singleLeafRatifierData(root: Hex): Hex {
  return encodeAbiParameters([{ type: 'bytes32' }, { type: 'bytes32[]' }], [root, []])
}

/** Ratify and post an offer made by the deployer (the deployer must have authorized the ratifier). */
export async function postDeployerOffer(ctx: DeployContext, offer: MidnightOffer): Promise<void> {
  const root = await ctx.read<Hex>({
    address: MIDNIGHT_ADDRESSES.setterRatifier,
    abi: midnightStandInAbi,
    functionName: 'hashOffer',
    args: [offer],
  })
  await ctx.write({
    address: MIDNIGHT_ADDRESSES.setterRatifier,
    abi: midnightStandInAbi,
    functionName: 'setIsRootRatified',
    args: [offer.maker, root, true],
  })
  await ctx.write({
    address: MIDNIGHT_ADDRESSES.offerBook,
    abi: midnightStandInAbi,
    functionName: 'post',
    args: [offer, singleLeafRatifierData(root)],
  })
}

function defaultMaturities(now: bigint): bigint[] {
  const day = 86_400n
  return [30n, 90n].map((days) => ((now + days * day) / day) * day)
}

/**
 * Etch Midnight, its SetterRatifier and the devnet offer book at their addresses, open USDC markets for the
 * given collaterals, and (by default) seed a bid (deployer lends at ~7% APR) and an ask (deployer borrows
 * against collateral at ~5% APR) in every market, so the book has a spread and does not cross.
 */
export async function deployMidnight(
  ctx: DeployContext,
  deps: DeployMidnightDeps,
): Promise<MidnightDeployment> {
  const midnight = await ctx.etch('MidnightStandIn', MIDNIGHT_ADDRESSES.midnight, [ctx.deployer])
  const setterRatifier = await ctx.etch('MidnightSetterRatifierStandIn', MIDNIGHT_ADDRESSES.setterRatifier, [
    midnight,
  ])
  const offerBook = await ctx.etch('MidnightOfferBookStandIn', MIDNIGHT_ADDRESSES.offerBook, [midnight])
  const abi = midnightStandInAbi

  const oracles: Address[] = []
  const params: MidnightCollateralParams[] = []
  for (const c of deps.collaterals) {
    let oracle = c.oracle
    if (oracle === undefined) {
      if (c.price === undefined) throw new Error(`collateral ${c.token} needs an oracle or a price`)
      oracle = await ctx.deploy('MidnightOracleStandIn', [ctx.deployer, c.price])
    }
    oracles.push(oracle)
    params.push({ token: getAddress(c.token), lltv: c.lltv, liquidationCursor: 3n * 10n ** 17n, oracle })
  }
  params.sort((a, b) => (a.token.toLowerCase() < b.token.toLowerCase() ? -1 : 1))

  const block = await ctx.publicClient.getBlock()
  const maturities = deps.maturities ?? defaultMaturities(block.timestamp)
  const markets: { id: Hex; market: MidnightMarket }[] = []
  for (const maturity of maturities) {
    const market: MidnightMarket = {
      chainId: BigInt(await ctx.publicClient.getChainId()),
      midnight,
      loanToken: deps.usdc,
      collateralParams: params,
      maturity,
      rcfThreshold: 0n,
      enterGate: ZERO,
      liquidatorGate: ZERO,
    }
    await ctx.write({ address: midnight, abi, functionName: 'touchMarket', args: [market] })
    const id = await ctx.read<Hex>({ address: midnight, abi, functionName: 'toId', args: [market] })
    markets.push({ id, market })
  }

  if (deps.seedOffers ?? true) {
    const units = deps.seedUnits ?? 50_000n * 10n ** 6n
    await ctx.write({
      address: midnight,
      abi,
      functionName: 'setIsAuthorized',
      args: [setterRatifier, true, ctx.deployer],
    })
    // Bids: the deployer pays USDC when a borrower takes them.
    await ensureDeployerBalance(ctx, deps.usdc, units * BigInt(markets.length))
    await ctx.write({
      address: deps.usdc,
      abi: erc20Abi,
      functionName: 'approve',
      args: [midnight, maxUint256],
    })
    for (const [i, { market }] of markets.entries()) {
      const ttm = market.maturity - block.timestamp
      const base = {
        market,
        maker: ctx.deployer,
        start: 0n,
        expiry: market.maturity,
        callback: ZERO,
        callbackData: '0x' as Hex,
        ratifier: setterRatifier,
        reduceOnly: false,
        maxUnits: units,
        maxAssets: 0n,
      }
      const bidTick = await priceToTick(ctx, midnight, priceForApr(7n * 10n ** 16n, ttm))
      await postDeployerOffer(ctx, {
        ...base,
        ...makerOfferTerms(ctx.deployer, true),
        buy: true,
        tick: bidTick,
        group: keccak256(toHex(`seed-bid-${i}`)),
      })
      // Asks: the deployer borrows, so it first posts enough of the first collateral.
      if (params.length > 0) {
        const first = params[0]!
        const oraclePrice = await ctx.read<bigint>({
          address: first.oracle,
          abi: parseAbi(['function price() view returns (uint256)']),
          functionName: 'price',
        })
        const needed = (units * 2n * ORACLE_PRICE_SCALE * WAD) / (oraclePrice * first.lltv) + 1n
        await ensureDeployerBalance(ctx, first.token, needed)
        await ctx.write({
          address: first.token,
          abi: erc20Abi,
          functionName: 'approve',
          args: [midnight, needed],
        })
        await ctx.write({
          address: midnight,
          abi,
          functionName: 'supplyCollateral',
          args: [market, 0n, needed, ctx.deployer],
        })
        const askTick = await priceToTick(ctx, midnight, priceForApr(5n * 10n ** 16n, ttm))
        await postDeployerOffer(ctx, {
          ...base,
          ...makerOfferTerms(ctx.deployer, false),
          buy: false,
          tick: askTick,
          group: keccak256(toHex(`seed-ask-${i}`)),
        })
      }
    }
  }
  return { midnight, setterRatifier, offerBook, oracles, markets }
}

/** buildDevnetState plug-in: USDC markets against WETH and cbBTC (Morpho Blue's devnet oracles), seeded book. */
export const devnetModule: DevnetModule = {
  name: 'midnight',
  async deploy(ctx, core) {
    const lltv = 860_000_000_000_000_000n
    const now = (await ctx.publicClient.getBlock()).timestamp
    const d = await deployMidnight(ctx, {
      maturities: [...defaultMaturities(now), MIDNIGHT_DEMO_MATURITIES.lend, MIDNIGHT_DEMO_MATURITIES.borrow],
      usdc: core.tokens.USDC,
      collaterals: [
        { token: core.tokens.WETH, lltv, oracle: core.morpho.oracles.WETH_USDC },
        { token: core.tokens.cbBTC, lltv, oracle: core.morpho.oracles.cbBTC_USDC },
      ],
    })
    await seedMidnightDemo(ctx, demoAccounts[1]!, {
      midnight: d.midnight,
      markets: d.markets,
      async offerOf(id, buy) {
        const [, offers, ratifierData] = await ctx.read<
          readonly [bigint[], MidnightOffer[], Hex[], bigint[]]
        >({
          address: d.offerBook,
          abi: midnightStandInAbi,
          functionName: 'liveOffers',
          args: [id],
        })
        const i = offers.findIndex(
          (o) => o.buy === buy && o.maker.toLowerCase() === ctx.deployer.toLowerCase(),
        )
        return { offer: offers[i] as MidnightOffer, ratifierData: ratifierData[i] as Hex }
      },
    })
    return {
      midnight: d.midnight,
      setterRatifier: d.setterRatifier,
      offerBook: d.offerBook,
      markets: d.markets.map(({ id, market }) => ({
        id,
        loanToken: market.loanToken,
        maturity: market.maturity.toString(),
        collaterals: market.collateralParams.map((c) => ({
          token: c.token,
          lltv: c.lltv.toString(),
          oracle: c.oracle,
        })),
      })),
    }
  },
}
