import { mkdirSync, writeFileSync } from 'node:fs'
import { computeSignal } from '../src/analytics/computeSignal.js'
import { ideaFromBars } from '../src/analytics/ideaFromBars.js'
import { rankIdeas } from '../src/analytics/rankIdeas.js'
import { loadConfig, UPSTREAM_PORT_COUNT } from '../src/config.js'
import { freePort, freePortRange } from '../src/devnet/anvil.js'
import type { DevnetWorld } from '../src/devnet/startDevnetWorld.js'
import { createLogger } from '../src/logger.js'
import { getCandleBars } from '../src/market/candles/getCandles.js'
import { DEFAULT_IDEA_BASIS, IDEA_MAJORS, readIdeas } from '../src/market/ideas/readIdeas.js'
import { SIGNAL_DAYS } from '../src/market/signals/getSignals.js'
import { createReadiness } from '../src/readiness.js'
import type { Route } from '../src/routes/route.js'
import { routeTable } from '../src/routes/table.js'
import { createServices, type Services } from '../src/services.js'
import { startStack } from '../src/stack.js'
import { countingProxy, percentile } from './countingProxy.js'

/**
 * `npm run bench` (reads): the server-side time of each market read, cached and cold, and the chain
 * round trips a cold read makes. Each read runs in-process through its route (`route.run`: validation
 * and handler, the same code a paid request reaches after the gate) with the route's own example input,
 * against the devnet world. Cold = a fresh service graph (every cache empty) per sample; cached = the
 * same graph again right after. JSON-RPC round trips are counted by a proxy in front of anvil (a batch
 * or a multicall is one). Results: bench/results/reads.json.
 */
/**
 * Wallet reads also get a third figure, "new block": the same service graph after one more block is mined,
 * so the answer cache (keyed by the head block) is cold but the catalog and metadata caches are warm — the
 * steady state of an agent polling its own wallet once per block.
 */
const WALLET_READS = [
  'getPortfolio',
  'getPositions',
  'getPendingOrders',
  'getHistory',
  'getStats',
  'getLoanAnalysis',
]
const READS = [
  'getCrowd',
  'getSignals',
  'getSwapPrice',
  'getVaults',
  'getLoanMarkets',
  'getFixedBooks',
  'getRiskPairs',
  'getStocks',
  'getStockPrice',
  // Already built reads, for comparison.
  'getPrices',
  'getCandles',
  // Wallet reads (issue 14), each for demo account #1 (the route examples).
  ...WALLET_READS,
  // Alpha reads (issue 15).
  'getIdeas',
  'getAssetIdea',
  'getIdeasCompare',
  'getIdeasSummary',
  'getArbitrage',
  'getAlpha',
]
/** Reads measured on another input than their route's example: the 20-symbol ideas and the full bundle. */
const MAJORS_20 = IDEA_MAJORS.join(',')
const DEMO_TAKER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const INPUTS: Record<string, Record<string, string>> = {
  getIdeas: { symbols: MAJORS_20, limit: '6' },
  getAlpha: { symbols: MAJORS_20, limit: '6', taker: DEMO_TAKER, target: 'USDC' },
}
const COLD_SAMPLES = Number(process.env.BENCH_COLD_SAMPLES ?? 5)
const CACHED_SAMPLES = Number(process.env.BENCH_CACHED_SAMPLES ?? 200)
const NEW_BLOCK_SAMPLES = Number(process.env.BENCH_NEW_BLOCK_SAMPLES ?? 10)

/** One more block on the devnet (straight to anvil, not through the counting proxy). */
async function mine(rpcUrl: string): Promise<void> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
  })
  if (!res.ok) throw new Error(`evm_mine failed: ${res.status}`)
}

async function main(): Promise<void> {
  const env = {
    DEVNET_BLOCK_TIME: '0',
    // Our code is measured here, not the upstreams' documented limits (test/upstreams/ holds those).
    DEVNET_UPSTREAM_LIMITS: 'off',
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    DEVNET_RPC_PORT: String(await freePort()),
    DEVNET_UPSTREAM_PORT: String(await freePortRange(UPSTREAM_PORT_COUNT)),
  }
  const worldConfig = loadConfig(env)
  // The services reach the world's chain through a proxy counting their round trips.
  const proxy = await countingProxy(worldConfig.rpcUrl)
  const config = loadConfig({ ...env, RPC_URL: proxy.url })
  const stack = await startStack({
    config: worldConfig,
    servicesConfig: config,
    world: { clock: Date.now, pushIntervalMs: 0 },
  })
  const world = stack.world as DevnetWorld
  const logger = createLogger('silent')
  const fresh = () => createServices(config, logger, createReadiness())
  const run = async (services: Services, route: Route) => {
    const example = route.example
    const started = performance.now()
    await route.run(
      {
        params: (example?.params ?? {}) as Record<string, string>,
        query: INPUTS[route.id] ?? example?.query ?? {},
        body: example?.body,
      },
      { deps: services.deps, routes: routeTable, requestId: 'bench', logger },
    )
    return performance.now() - started
  }

  const rows: Record<string, unknown>[] = []
  const only = process.env.BENCH_READS?.split(',')
  for (const id of READS.filter((r) => only === undefined || only.includes(r))) {
    const route = routeTable.find((r) => r.id === id)
    if (route === undefined) throw new Error(`no route ${id}`)
    const cold: number[] = []
    const rpc: number[] = []
    const cached: number[] = []
    const newBlock: number[] = []
    const newBlockRpc: number[] = []
    const coldWaves: number[] = []
    const newBlockWaves: number[] = []
    let failure: string | undefined
    try {
      for (let i = 0; i < COLD_SAMPLES; i++) {
        const services = await fresh()
        // Warm the process (module code, JIT) on the first sample's graph, outside the measurement.
        if (i === 0) {
          const warmup = await fresh()
          await run(warmup, route)
          await warmup.close()
        }
        const before = proxy.count()
        const wavesBefore = proxy.waves()
        cold.push(await run(services, route))
        rpc.push(proxy.count() - before)
        coldWaves.push(proxy.waves() - wavesBefore)
        for (let j = 0; j < CACHED_SAMPLES / COLD_SAMPLES; j++) cached.push(await run(services, route))
        if (WALLET_READS.includes(id)) {
          for (let j = 0; j < NEW_BLOCK_SAMPLES; j++) {
            await mine(world.rpcUrl)
            const at = proxy.count()
            const wavesAt = proxy.waves()
            newBlock.push(await run(services, route))
            newBlockRpc.push(proxy.count() - at)
            newBlockWaves.push(proxy.waves() - wavesAt)
          }
        }
        await services.close()
      }
    } catch (err) {
      failure = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
    }
    cold.sort((a, b) => a - b)
    cached.sort((a, b) => a - b)
    newBlock.sort((a, b) => a - b)
    const row =
      failure === undefined
        ? {
            read: `${route.method} ${route.path}`,
            coldMs: { p50: percentile(cold, 50), p99: percentile(cold, 99) },
            cachedMs: { p50: percentile(cached, 50), p99: percentile(cached, 99) },
            rpcRoundTripsCold: { min: Math.min(...rpc), max: Math.max(...rpc) },
            rpcWavesCold: { min: Math.min(...coldWaves), max: Math.max(...coldWaves) },
            ...(newBlock.length === 0
              ? {}
              : {
                  newBlockMs: { p50: percentile(newBlock, 50), p99: percentile(newBlock, 99) },
                  rpcRoundTripsNewBlock: { min: Math.min(...newBlockRpc), max: Math.max(...newBlockRpc) },
                  rpcWavesNewBlock: { min: Math.min(...newBlockWaves), max: Math.max(...newBlockWaves) },
                }),
          }
        : { read: `${route.method} ${route.path}`, failure }
    rows.push(row)
    console.log(JSON.stringify(row))
  }
  // Signals' compute alone: ten symbols' bars read once (cached candles), then computeSignal over all ten.
  const { services } = stack
  const symbols = ['BTC', 'ETH', 'SOL', 'XRP', 'ADA', 'DOGE', 'LINK', 'AVAX', 'DOT', 'LTC']
  const bars = await Promise.all(
    symbols.map(async (sym) => {
      const read = await getCandleBars(
        services.deps.market,
        { sym, quote: 'USD', days: SIGNAL_DAYS },
        Date.now(),
      )
      return read.bars
    }),
  )
  const compute: number[] = []
  for (let i = 0; i < 220; i++) {
    const started = performance.now()
    for (const series of bars) computeSignal(series)
    if (i >= 20) compute.push(performance.now() - started)
  }
  compute.sort((a, b) => a - b)
  const signalsCompute = {
    read: 'computeSignal × 10 symbols (cached candles)',
    bars: bars.map((b) => b.length),
    computeMs: { p50: percentile(compute, 50), p99: percentile(compute, 99) },
  }
  rows.push(signalsCompute)
  console.log(JSON.stringify(signalsCompute))

  // The ideas' compute alone: the 20 majors' daily bars and oracle prices read once, then ideaFromBars
  // for each and rankIdeas over the ideas (what GET /v1/ideas adds to its cached reads).
  const ideaServices = await fresh()
  const read = await readIdeas(ideaServices.deps.market, IDEA_MAJORS, DEFAULT_IDEA_BASIS, Date.now())
  await ideaServices.close()
  const markets = read.reads.map((r) => {
    const idea = 'status' in r ? undefined : r
    return { symbol: r.symbol, bars: read.bars.get(r.symbol) ?? [], idea }
  })
  const ideaCompute: number[] = []
  for (let i = 0; i < 220; i++) {
    const started = performance.now()
    const ideas = markets.flatMap(({ symbol, bars, idea }) => {
      const market = {
        symbol,
        pairIndex: idea?.pairIndex ?? 0,
        category: idea?.category ?? 'crypto',
        maxLeverage: idea?.maxLeverage ?? 100,
        mark: idea?.entry ?? (bars.at(-1)?.close as number),
      }
      const r = ideaFromBars(bars, market, DEFAULT_IDEA_BASIS)
      return 'status' in r ? [] : [r]
    })
    rankIdeas(ideas, { limit: 6, worthwhileness: 'strict', ranking: 'edge-rate' })
    if (i >= 20) ideaCompute.push(performance.now() - started)
  }
  ideaCompute.sort((a, b) => a - b)
  const ideasCompute = {
    read: 'ideaFromBars × 20 symbols + rankIdeas (cached bars)',
    bars: markets.map((m) => m.bars.length),
    computeMs: { p50: percentile(ideaCompute, 50), p99: percentile(ideaCompute, 99) },
  }
  rows.push(ideasCompute)
  console.log(JSON.stringify(ideasCompute))

  mkdirSync('bench/results', { recursive: true })
  writeFileSync(
    'bench/results/reads.json',
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, coldSamples: COLD_SAMPLES, cachedSamples: CACHED_SAMPLES, rows }, null, 2)}\n`,
  )
  proxy.server.close()
  await stack.stop()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
