import { createClient, http, parseAbi, rpcSchema } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { STOCK_TICKERS } from '../chain/tokenizedStocks.js'
import { fromWad } from '../chain/units.js'
import type { Config } from '../config.js'
import type { Logger } from '../logger.js'
import { DEVNET_ADDRESSES } from './addresses.js'
import { loadDevnet } from './buildState.js'
import { chainMidnightBooks, midnightMarketIds } from './chainMidnightBooks.js'
import { chainSwapLiquidity } from './chainSwapLiquidity.js'
import { chainTokenBalances, type ListedToken } from './chainTokenBalances.js'
import { createDeployContext } from './createDeployContext.js'
import { STOCKS } from './deploy/stocks.js'
import type { DeployContext } from './deployContext.js'
import { gtradeChainSource } from './gtradeChainSource.js'
import { startKeeper } from './keeper.js'
import { createPricePusher, type NudgedAerodromePool } from './pricePusher.js'
import { createMarketSimulator, type MarketSimulator } from './simulator/marketSimulator.js'
import { startUpstreams, type UpstreamName } from './upstreams/startUpstreams.js'

export interface DevnetWorld {
  rpcUrl: string
  /** The simulator that owns every reference price in this world. */
  sim: MarketSimulator
  /** One round of writing simulator prices onchain (the background pusher does this periodically). */
  pushPrices(): Promise<{ feeds: number; swaps: number }>
  /** One keeper round now: fill pending market orders, trigger what crossed. */
  keeperTick(): Promise<unknown>
  /** Every gTrade pair's stored price set to the simulator's mark now (the keeper otherwise prices pairs with activity). */
  priceEveryPair(): Promise<unknown>
  /**
   * Runs `fn` while no other sender of the deployer account (the keeper, the price pusher) sends: a
   * caller that signs with the deployer key itself (a test moving a feed) gets its nonce without a race.
   */
  asDeployer<T>(fn: () => Promise<T>): Promise<T>
  /**
   * Puts the chain back as it was when the world came up (evm_revert to a snapshot taken then), mining as it
   * did then (automine, or on the interval): the tests share one world per worker and reset it between files.
   */
  reset(): Promise<void>
  /**
   * Mines a block every `seconds` from now on (0: a block per transaction, automine), until the next
   * `setBlockTime` or `reset` (which goes back to the world's own DEVNET_BLOCK_TIME): a test file that
   * measures settlement timing runs at Base's 200 ms on the shared world.
   */
  setBlockTime(seconds: number): Promise<void>
  /** The seconds between blocks now (0: automine). */
  blockTime(): number
  /** Whether the chain came from the state cache (fast path) or was built on this start. */
  warm: boolean
  stop(): Promise<void>
}

export interface StartDevnetWorldOptions {
  config: Config
  logger: Logger
  clock: () => number
  /** How often simulator prices are written onchain; 0 disables the background pusher. */
  pushIntervalMs?: number
  /** How often the gTrade keeper looks for orders to fill. */
  keeperIntervalMs?: number
  /**
   * A world whose every figure repeats, on any machine (the route examples, scripts/routeExamples.ts): the
   * state built apart in `cacheDir` from a genesis at `genesisTimestamp` (one second per block, see
   * buildDevnetState), and the chain's clock set to `chainTime` (unix seconds, after the state's last block)
   * and stepped one second per block from there instead of following the wall clock. Give the world a frozen
   * `clock` too. Payments signed against the wall clock do not settle on such a chain.
   */
  pinned?: { cacheDir: string; genesisTimestamp: number; chainTime: number }
}

/**
 * The default profile's world: anvil (chainId 8453) with Base's contracts from the state cache, the
 * market simulator, the upstream simulators on the ports the config's URLs name, and a pusher that
 * writes simulator prices into the onchain feeds and keeps pools near them. The service itself only
 * sees config.rpcUrl and config.upstreams.
 */
export async function startDevnetWorld(options: StartDevnetWorldOptions): Promise<DevnetWorld> {
  const { config, logger } = options
  const { pinned } = options
  const devnet = await loadDevnet({
    port: config.devnet.rpcPort,
    ...(pinned ? { cacheDir: pinned.cacheDir, genesisTimestamp: pinned.genesisTimestamp } : {}),
    progress: (message) => logger.info({ msg: message }),
  })
  const stops: (() => Promise<void>)[] = [() => devnet.anvil.stop()]
  try {
    const ctx = createDeployContext({ rpcUrl: devnet.anvil.url })
    if (pinned) {
      // Before the first block this world mines (the price push). anvil refuses a next-block timestamp
      // below the wall clock's after a state load; evm_setTime moves its clock itself.
      const rpc = createClient({
        transport: http(devnet.anvil.url),
        rpcSchema: rpcSchema<[{ Method: 'evm_setTime'; Parameters: [number]; ReturnType: unknown }]>(),
      })
      await rpc.request({ method: 'evm_setTime', params: [pinned.chainTime] })
      await ctx.testClient.setBlockTimestampInterval({ interval: 1 })
    }
    const sim = createMarketSimulator({
      seed: config.devnet.seed,
      clock: { now: options.clock },
      shiftDays: marketShiftDays(config.devnet.marketDate, options.clock()),
    })
    const eth = () => sim.spot('ETH')
    const btc = () => sim.spot('BTC')
    const usd = () => 1

    const tokens: ListedToken[] = [
      { address: BASE_ADDRESSES.USDC, name: 'USD Coin', symbol: 'USDC', decimals: 6, usd },
      { address: BASE_ADDRESSES.WETH, name: 'Wrapped Ether', symbol: 'WETH', decimals: 18, usd: eth },
      { address: BASE_ADDRESSES.cbBTC, name: 'Coinbase Wrapped BTC', symbol: 'cbBTC', decimals: 8, usd: btc },
      // UTIL has no reference price in the simulator: the explorer reports null, never a made-up number.
      {
        address: DEVNET_ADDRESSES.UTIL,
        name: 'Utility Token',
        symbol: 'UTIL',
        decimals: 18,
        usd: () => null,
      },
    ]

    // Tokenized stocks: feeds report underlying × multiplier; minted tickers have a USDC pool (0.3%).
    const stockModule = devnet.manifest.modules.stocks as
      | {
          stocks: Record<
            string,
            { token: `0x${string}`; feed: `0x${string}`; minted: boolean; pool: string | null }
          >
        }
      | undefined
    const stocks = STOCK_TICKERS.flatMap((ticker) => {
      const deployed = stockModule?.stocks[ticker]
      if (!deployed) return []
      const multiplier = fromWad(STOCKS[ticker].multiplier)
      const usdPerToken = () => sim.spot(ticker.slice(0, -1)) * multiplier
      return [{ ticker, ...deployed, usd: usdPerToken }]
    })
    for (const s of stocks) {
      tokens.push({
        address: s.token,
        name: STOCKS[s.ticker].name,
        symbol: s.ticker,
        decimals: 8,
        usd: s.usd,
      })
    }

    // UTIL's pool is held at the price the devnet was built at: its only reference (the simulator has none).
    const utilUsd = () => devnet.manifest.prices.utilUsd
    const aerodromePools = await aerodromePoolsOf(ctx, devnet.manifest.modules.aerodrome, tokens)
    const pusher = createPricePusher({
      ctx,
      feeds: [
        { address: DEVNET_ADDRESSES.ETH_USD_FEED, usd: eth },
        { address: DEVNET_ADDRESSES.BTC_USD_FEED, usd: btc },
        ...stocks.map((s) => ({ address: s.feed, usd: s.usd })),
      ],
      pools: [
        ...stocks.flatMap((s) =>
          s.pool === null ? [] : [pool(s.pool, 3000, s.token, 8, s.usd, BASE_ADDRESSES.USDC, 6, usd)],
        ),
        pool(
          BASE_ADDRESSES.UniswapV3WethUsdc500Pool,
          500,
          BASE_ADDRESSES.WETH,
          18,
          eth,
          BASE_ADDRESSES.USDC,
          6,
          usd,
        ),
        pool(
          devnet.manifest.addresses.UniswapV3CbBtcUsdc500Pool as `0x${string}`,
          500,
          BASE_ADDRESSES.cbBTC,
          8,
          btc,
          BASE_ADDRESSES.USDC,
          6,
          usd,
        ),
        pool(
          devnet.manifest.addresses.UniswapV3UtilUsdc3000Pool as `0x${string}`,
          3000,
          DEVNET_ADDRESSES.UTIL,
          18,
          utilUsd,
          BASE_ADDRESSES.USDC,
          6,
          usd,
        ),
      ],
      aerodromePools,
    })
    // Align the chain with the simulator before anyone reads it.
    await pusher.push()
    if ((options.pushIntervalMs ?? 5000) > 0) pusher.start(options.pushIntervalMs ?? 5000)
    stops.unshift(() => pusher.stop())

    // The gTrade keeper fills market orders and triggers LIMIT/STOP/TP/SL/liquidations at the
    // simulator's perp mark; the deployer is the stand-in's keeper.
    const keeper = startKeeper({
      publicClient: ctx.publicClient,
      walletClient: ctx.walletClient,
      exclusive: ctx.exclusive,
      gtrade: BASE_ADDRESSES.GtradeDiamond,
      prices: (pairIndex) => BigInt(Math.round(sim.perp.mark(pairIndex) * 1e10)),
      intervalMs: options.keeperIntervalMs ?? 1000,
      onError: (err) => logger.warn({ msg: 'keeper tick failed', err }),
    })
    stops.unshift(() => keeper.stop())
    // Every pair at the simulator's mark before the start snapshot, not the build's price until its first trade.
    await keeper.priceEveryPair()

    const upstreams = await startUpstreams({
      sim,
      gtradeTrades: gtradeChainSource(ctx.publicClient, BASE_ADDRESSES.GtradeDiamond),
      tokenBalances: chainTokenBalances(ctx.publicClient, tokens),
      midnightBooks: chainMidnightBooks(ctx.publicClient, { knownIds: midnightMarketIds(devnet.manifest) }),
      swapLiquidity: chainSwapLiquidity(ctx.publicClient),
      ports: upstreamPorts(config),
      currentBlock: async () => Number(await ctx.publicClient.getBlockNumber()),
      ...(config.upstreams.pythApiKey === undefined ? {} : { pythApiKey: config.upstreams.pythApiKey }),
      ...(config.upstreams.explorerApiKey === undefined
        ? {}
        : { explorerApiKey: config.upstreams.explorerApiKey }),
      ...(config.upstreams.zeroExApiKey === undefined ? {} : { zeroExApiKey: config.upstreams.zeroExApiKey }),
      rateLimits: config.devnet.upstreamLimits,
    })
    stops.unshift(() => upstreams.stop())
    // The world as it came up, for reset().
    const snapshotNow = () =>
      ctx.testClient.request({ method: 'evm_snapshot' } as never) as Promise<`0x${string}`>
    // Blocks every DEVNET_BLOCK_TIME seconds (Base's 200 ms by default) once the world is set up: the setup's
    // hundred-odd transactions automine (at 200 ms blocks they would add half a minute to every start), then
    // a block is mined on the interval whether or not anything was sent, as Base's sequencer does. A timer of
    // ours, not anvil's --block-time: anvil takes a fractional interval only at launch, and a launch at 200 ms
    // would hold the setup too. Blocks within one second share its timestamp, as on Base.
    const worldBlockMs = config.devnet.blockTimeSeconds * 1000
    let miner: NodeJS.Timeout | undefined
    let currentBlockMs = 0
    const mineEvery = async (blockMs: number) => {
      clearInterval(miner)
      currentBlockMs = Math.max(0, blockMs)
      miner = undefined
      await ctx.testClient.setAutomine(blockMs <= 0)
      if (blockMs <= 0) return
      miner = setInterval(() => {
        ctx.testClient
          .mine({ blocks: 1 })
          .catch((err: unknown) => logger.warn({ msg: 'mining a block failed', err }))
      }, blockMs)
      miner.unref()
    }
    // Stopped last before anvil: the pusher and keeper, stopping, wait for their transactions' blocks.
    stops.splice(stops.length - 1, 0, async () => clearInterval(miner))
    if (worldBlockMs > 0) await mineEvery(worldBlockMs)
    let snapshot = await snapshotNow()
    // anvil's revert does not restore the base fee the next block would have: it is set back by hand.
    const { baseFeePerGas } = await ctx.publicClient.getBlock({ blockTag: 'pending' })
    logger.info({
      msg: 'devnet world up',
      rpc: devnet.anvil.url,
      warm: devnet.warm,
      ms: devnet.startMs,
      upstreams: upstreams.urls,
    })
    return {
      rpcUrl: devnet.anvil.url,
      sim,
      pushPrices: () => pusher.push(),
      keeperTick: () => keeper.tick(),
      priceEveryPair: () => keeper.priceEveryPair(),
      asDeployer: (fn) => ctx.exclusive(fn),
      // Inside the deployer's queue, so no keeper or pusher transaction straddles the revert.
      reset: () =>
        ctx.exclusive(async () => {
          // No interval block lands between the revert and the new snapshot.
          clearInterval(miner)
          miner = undefined
          await ctx.testClient.revert({ id: snapshot })
          // One empty block at the start's base fee: anvil keeps its fee state across a revert, and its
          // calls at `latest` price BASEFEE from it, so the head and the calls agree again.
          if (baseFeePerGas !== null) await ctx.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas })
          await ctx.testClient.mine({ blocks: 1 })
          snapshot = await snapshotNow()
          await mineEvery(worldBlockMs)
        }),
      // Not in the deployer's queue: a keeper transaction waiting there for a block (automine paused by a
      // test) would wait for this very call.
      setBlockTime: (seconds) => mineEvery(seconds * 1000),
      blockTime: () => currentBlockMs / 1000,
      warm: devnet.warm,
      stop: () => stopAll(stops),
    }
  } catch (err) {
    await stopAll(stops)
    throw err
  }
}

/** Whole days from the clock's UTC date to `marketDate` (the date whose market the world plays). */
export function marketShiftDays(marketDate: string | null, nowMs: number): number {
  if (marketDate === null) return 0
  const DAY_MS = 86_400_000
  return Math.round((Date.parse(`${marketDate}T00:00:00Z`) - Math.floor(nowMs / DAY_MS) * DAY_MS) / DAY_MS)
}

async function stopAll(stops: (() => Promise<void>)[]): Promise<void> {
  for (const stop of stops) await stop().catch(() => undefined)
}

function pool(
  address: string,
  fee: number,
  tokenA: `0x${string}`,
  decimalsA: number,
  usdA: () => number,
  tokenB: `0x${string}`,
  decimalsB: number,
  usdB: () => number,
) {
  const a = { address: tokenA, decimals: decimalsA, usd: usdA }
  const b = { address: tokenB, decimals: decimalsB, usd: usdB }
  const aFirst = tokenA.toLowerCase() < tokenB.toLowerCase()
  return { pool: address as `0x${string}`, fee, token0: aFirst ? a : b, token1: aFirst ? b : a }
}

const aerodromePoolTokensAbi = parseAbi(['function tokens() view returns (address, address)'])

/**
 * The Aerodrome pools the devnet seeded (the aerodrome module's manifest entry), each with the reference
 * prices of its two tokens; a pool with a token that has no reference price is left alone.
 */
async function aerodromePoolsOf(
  ctx: DeployContext,
  aerodrome: { [key: string]: unknown } | undefined,
  tokens: readonly ListedToken[],
): Promise<NudgedAerodromePool[]> {
  const deployed = aerodrome as { pools?: `0x${string}`[]; volatileFeeBps?: number } | undefined
  const out: NudgedAerodromePool[] = []
  for (const address of deployed?.pools ?? []) {
    const [t0, t1] = await ctx.read<readonly [`0x${string}`, `0x${string}`]>({
      address,
      abi: aerodromePoolTokensAbi,
      functionName: 'tokens',
    })
    const side = (token: `0x${string}`) => {
      const listed = tokens.find((t) => t.address.toLowerCase() === token.toLowerCase())
      const usd = listed?.usd
      if (listed === undefined || usd === undefined || usd() === null) return null
      return { address: listed.address, decimals: listed.decimals, usd: () => usd() as number }
    }
    const token0 = side(t0)
    const token1 = side(t1)
    if (token0 === null || token1 === null) continue
    out.push({ pool: address, feeBps: deployed?.volatileFeeBps ?? 30, token0, token1 })
  }
  return out
}

/** The simulators listen where the config's upstream URLs point, so one set of URLs serves both sides. */
function upstreamPorts(config: Config): Partial<Record<UpstreamName, number>> {
  const port = (url: string) => Number(new URL(url).port)
  return {
    coinbaseExchange: port(config.upstreams.coinbaseExchange),
    pythHermes: port(config.upstreams.pythHermes),
    pythBenchmarks: port(config.upstreams.pythBenchmarks),
    gtradeBackend: port(config.upstreams.gtradeBackend),
    blockscout: port(config.upstreams.explorer),
    morphoApi: port(config.upstreams.morphoApi),
    zeroEx: port(config.upstreams.zeroEx),
  }
}
