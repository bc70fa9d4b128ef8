import { type Address, getAddress, parseAbi } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import {
  STOCK_TICKERS,
  type StockTicker,
  TOKENIZED_STOCKS,
  type TokenizedStock,
} from '../../chain/tokenizedStocks.js'
import { WAD } from '../../chain/units.js'
import type { DeployContext } from '../deployContext.js'
import type { DevnetModule } from './registry.js'
import { seedPool } from './uniswap.js'

export interface StockInfo extends TokenizedStock {
  /** Devnet underlying USD price (the feed reports price x multiplier). */
  underlyingUsd: number
  /** Devnet multiplier (1e18 = no accrued dividends/splits). */
  multiplier: bigint
}

/** The devnet's starting prices and multipliers for each stock of the Base address book. */
const DEVNET_STOCK_PRICES: Record<StockTicker, Pick<StockInfo, 'underlyingUsd' | 'multiplier'>> = {
  AAPLc: { underlyingUsd: 230, multiplier: 1_004_200_000_000_000_000n },
  AMZNc: { underlyingUsd: 220, multiplier: WAD },
  COINc: { underlyingUsd: 300, multiplier: WAD },
  CRCLc: { underlyingUsd: 110, multiplier: WAD },
  GOOGLc: { underlyingUsd: 180, multiplier: 1_002_100_000_000_000_000n },
  INTCc: { underlyingUsd: 22, multiplier: WAD },
  METAc: { underlyingUsd: 600, multiplier: 1_000_900_000_000_000_000n },
  MSFTc: { underlyingUsd: 420, multiplier: 1_003_100_000_000_000_000n },
  MSTRc: { underlyingUsd: 350, multiplier: WAD },
  NVDAc: { underlyingUsd: 140, multiplier: 1_000_100_000_000_000_000n },
  SNDKc: { underlyingUsd: 60, multiplier: WAD },
  SPCXc: { underlyingUsd: 200, multiplier: WAD },
  TSLAc: { underlyingUsd: 350, multiplier: WAD },
}

/** Each stock's Base addresses with the devnet's prices. */
export const STOCKS = Object.fromEntries(
  STOCK_TICKERS.map((ticker) => [ticker, { ...TOKENIZED_STOCKS[ticker], ...DEVNET_STOCK_PRICES[ticker] }]),
) as Record<StockTicker, StockInfo>

/** Onchain (oracle) registry: getOracleParams(address) → (uint256 multiplier, bool paused). */
export const STOCK_REGISTRY_ADDRESS: Address = BASE_ADDRESSES.StockOracleRegistry

export const stockStandInAbi = parseAbi([
  'function multiplier() view returns (uint256)',
  'function uiMultiplier() view returns (uint256)',
  'function WAD_PRECISION() view returns (uint256)',
  'function scaledBalanceOf(address account) view returns (uint256)',
  'function toScaledBalance(uint256 rawBalance) view returns (uint256)',
  'function toRawBalance(uint256 scaledBalance) view returns (uint256)',
  'function setMultiplier(uint256 newMultiplier)',
  'function setPaused(bool paused)',
  'function paused() view returns (bool)',
  'function mint(address to, uint256 amount)',
  'function getOracleParams(address token) view returns (uint256 multiplier, bool paused)',
  'function register(address token, address feed, string symbol)',
  'function setAnswer(int256 answer)',
  'function setAnswerAt(int256 answer, uint256 updatedAt)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
  'event MultiplierUpdated(uint256 oldMultiplier, uint256 newMultiplier)',
])

export interface DeployStocksDeps {
  usdc: Address
  /**
   * Seed a stock/USDC Uniswap v3 pool (fee 0.3%) per minted ticker; needs Uniswap deployed. Default true.
   * When false, minted tickers get 1,000 shares minted to the deployer instead.
   */
  seedPools?: boolean
  /** Tickers registered (token, feed, registry) but never minted and without a pool. Default ['SPCXc']. */
  unminted?: readonly StockTicker[]
  /** USD per side of each seeded pool; default 250,000. */
  liquidityUsdPerSide?: number
}

export interface StockDeployment {
  ticker: StockTicker
  token: Address
  feed: Address
  minted: boolean
  /** Uniswap v3 stock/USDC 0.3% pool, when seeded. */
  pool?: Address
}

export interface StocksDeployment {
  registry: Address
  stocks: Record<StockTicker, StockDeployment>
}

/** Feed answer (8 dp) = underlying price x multiplier. */
export function stockFeedAnswer(info: StockInfo): bigint {
  return (BigInt(Math.round(info.underlyingUsd * 1e8)) * info.multiplier) / WAD
}

/**
 * Etch the 13 tokenized stocks, their Chainlink feeds and the oracle registry at their Base addresses, and
 * seed stock/USDC Uniswap v3 pools at the feed price for every ticker except the `unminted` ones.
 */
export async function deployStocks(ctx: DeployContext, deps: DeployStocksDeps): Promise<StocksDeployment> {
  const registry = await ctx.etch('StockOracleRegistryStandIn', STOCK_REGISTRY_ADDRESS, [ctx.deployer])
  const unminted = new Set<StockTicker>(deps.unminted ?? ['SPCXc'])
  const stocks = {} as Record<StockTicker, StockDeployment>
  for (const ticker of STOCK_TICKERS) {
    const info = STOCKS[ticker]
    const token = await ctx.etch('TokenizedStockStandIn', getAddress(info.token), [
      `${info.name} (Coinbase Tokenized Stock)`,
      ticker,
      ctx.deployer,
      info.multiplier,
    ])
    const feed = await ctx.etch('StockPriceFeedStandIn', getAddress(info.feed), [
      `${ticker} / USD`,
      stockFeedAnswer(info),
      ctx.deployer,
    ])
    await ctx.write({
      address: registry,
      abi: stockStandInAbi,
      functionName: 'register',
      args: [token, feed, ticker],
    })
    const entry: StockDeployment = { ticker, token, feed, minted: !unminted.has(ticker) }
    if (entry.minted && (deps.seedPools ?? true)) {
      const seeded = await seedPool(ctx, {
        tokenA: token,
        tokenB: deps.usdc,
        fee: 3000,
        priceAUsd: Number(stockFeedAnswer(info)) / 1e8,
        priceBUsd: 1,
        liquidityUsdPerSide: deps.liquidityUsdPerSide ?? 250_000,
      })
      entry.pool = seeded.pool
    } else if (entry.minted) {
      await ctx.write({
        address: token,
        abi: stockStandInAbi,
        functionName: 'mint',
        args: [ctx.deployer, 1_000n * 10n ** 8n],
      })
    }
    stocks[ticker] = entry
  }
  return { registry, stocks }
}

/** buildDevnetState plug-in: all 13 tickers, USDC pools for all but SPCXc. */
export const devnetModule: DevnetModule = {
  name: 'stocks',
  async deploy(ctx, core) {
    const d = await deployStocks(ctx, { usdc: core.tokens.USDC })
    return {
      registry: d.registry,
      stocks: Object.fromEntries(
        STOCK_TICKERS.map((ticker) => {
          const s = d.stocks[ticker]
          return [ticker, { token: s.token, feed: s.feed, minted: s.minted, pool: s.pool ?? null }]
        }),
      ),
    }
  },
}
