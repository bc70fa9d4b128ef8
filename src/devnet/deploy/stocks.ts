import { type Address, getAddress, parseAbi } from 'viem'
import type { DeployContext } from '../deployContext.js'
import type { DevnetModule } from './registry.js'
import { seedPool } from './uniswap.js'

/** Coinbase tokenized stocks on Base (protocols.md §7b): B20 token and Chainlink total-return feed addresses. */
export const STOCK_TICKERS = [
  'AAPLc',
  'AMZNc',
  'COINc',
  'CRCLc',
  'GOOGLc',
  'INTCc',
  'METAc',
  'MSFTc',
  'MSTRc',
  'NVDAc',
  'SNDKc',
  'SPCXc',
  'TSLAc',
] as const

export type StockTicker = (typeof STOCK_TICKERS)[number]

export interface StockInfo {
  name: string
  token: Address
  feed: Address
  /** Devnet underlying USD price (the feed reports price x multiplier). */
  underlyingUsd: number
  /** Devnet multiplier (1e18 = no accrued dividends/splits). */
  multiplier: bigint
}

const WAD = 10n ** 18n

export const STOCKS: Record<StockTicker, StockInfo> = {
  AAPLc: {
    name: 'Apple',
    token: '0xb200000000000000000000C2e324d24d7eEcd1fb',
    feed: '0x787f13dEa48Db0897CbCDD985de77809D837F988',
    underlyingUsd: 230,
    multiplier: 1_004_200_000_000_000_000n,
  },
  AMZNc: {
    name: 'Amazon',
    token: '0xb200000000000000000000d9192b6B456483C2E8',
    feed: '0x06A8E4b3aBB3B7543d8396FB2B763d22820cB295',
    underlyingUsd: 220,
    multiplier: WAD,
  },
  COINc: {
    name: 'Coinbase',
    token: '0xb200000000000000000000c85a31389D71F3ecfb',
    feed: '0x408e44f504A7371a345F03a73dDC96A4b48e8aa7',
    underlyingUsd: 300,
    multiplier: WAD,
  },
  CRCLc: {
    name: 'Circle',
    token: '0xB20000000000000000000019f6E7C675b73C2e4D',
    feed: '0x0231cF2635D1E17bB5c2462cc7504Ba1fBd61f33',
    underlyingUsd: 110,
    multiplier: WAD,
  },
  GOOGLc: {
    name: 'Alphabet',
    token: '0xb2000000000000000000002D0BA3164cc74f58B7',
    feed: '0x5bF49E0ffA937CE2FfF033c739aD7C634c4D34F2',
    underlyingUsd: 180,
    multiplier: 1_002_100_000_000_000_000n,
  },
  INTCc: {
    name: 'Intel',
    token: '0xB2000000000000000000004AFF16039bA04bdFBc',
    feed: '0xAB657C39bac0D5886250D70849e2E3E008F2EECB',
    underlyingUsd: 22,
    multiplier: WAD,
  },
  METAc: {
    name: 'Meta Platforms',
    token: '0xb2000000000000000000008bC8786B856E61707C',
    feed: '0x6526aE6797A76123638b863AeE4dD27Ba4E4b27D',
    underlyingUsd: 600,
    multiplier: 1_000_900_000_000_000_000n,
  },
  MSFTc: {
    name: 'Microsoft',
    token: '0xB200000000000000000000Ab99cFa739E253872B',
    feed: '0xeB10A6c9aa7E537aEd766C08c35Dae35B321b18c',
    underlyingUsd: 420,
    multiplier: 1_003_100_000_000_000_000n,
  },
  MSTRc: {
    name: 'Strategy',
    token: '0xb2000000000000000000004884b426556b92883d',
    feed: '0xB3cE282CD188b35DA0E38D8Bc7d58e33173D202a',
    underlyingUsd: 350,
    multiplier: WAD,
  },
  NVDAc: {
    name: 'NVIDIA',
    token: '0xb20000000000000000000078ee7ce2fE4908108C',
    feed: '0x04689a41629776563E6822F76f2e57D148d28513',
    underlyingUsd: 140,
    multiplier: 1_000_100_000_000_000_000n,
  },
  SNDKc: {
    name: 'Sandisk',
    token: '0xb200000000000000000000397293Cb8cda9a10c5',
    feed: '0x388b0dC46C0Fb05A74BeE0994fa5b02c6Fcca2eA',
    underlyingUsd: 60,
    multiplier: WAD,
  },
  SPCXc: {
    name: 'SpaceX',
    token: '0xb2000000000000000000007b9fcbd005511aCBd5',
    feed: '0x6A634B235903C4ad6376892180d6fF8612e3Fa68',
    underlyingUsd: 200,
    multiplier: WAD,
  },
  TSLAc: {
    name: 'Tesla',
    token: '0xb2000000000000000000001e800a7f5189430cD0',
    feed: '0xFaf869185383a24F8cb00e27BdA6b63B9905DCb4',
    underlyingUsd: 350,
    multiplier: WAD,
  },
}

/** Onchain (oracle) registry: getOracleParams(address) → (uint256 multiplier, bool paused). */
export const STOCK_REGISTRY_ADDRESS: Address = '0x3f3E8cf41cdd3b1D118c16471aB0113DfDDd5CaD'

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
