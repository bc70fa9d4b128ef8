import { mkdirSync, writeFileSync } from 'node:fs'
import { createWalletClient, type Hex, http, type Log, parseAbi, parseEventLogs } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import type { BuilderEnvelope } from '../src/builders/txStep.js'
import { BASE_ADDRESSES } from '../src/chain/addresses.js'
import { DEVNET_LENDING_CATALOG, DEVNET_VAULTS } from '../src/chain/lendingCatalog.js'
import { loadConfig, UPSTREAM_PORT_COUNT } from '../src/config.js'
import { freePort, freePortRange } from '../src/devnet/anvil.js'
import { demoAccounts } from '../src/devnet/devnetAccounts.js'
import type { DevnetWorld } from '../src/devnet/startDevnetWorld.js'
import { withGasHeadroom } from '../src/devnet/withGasHeadroom.js'
import { createLogger } from '../src/logger.js'
import { routeTable } from '../src/routes/table.js'
import { startStack } from '../src/stack.js'
import { countingProxy, percentile } from './countingProxy.js'

/**
 * `npm run bench` (builders): per builder, the server-side latency of a build (validation, the plan's
 * reads, the bundle simulation, the envelope) and the JSON-RPC round trips it makes, counted by a proxy
 * in front of anvil. Each builder runs in-process through its route (`route.run`, the code a paid request
 * reaches after the gate) for demo account #1, which holds the seeded Morpho borrow and MetaMorpho
 * deposit; builders that need a position first (Aave withdraw) get it by broadcasting their own
 * counterpart's steps once. A warm graph (immutable data cached, as in a running service) is measured.
 * Results: bench/results/builders.json.
 */
const SAMPLES = Number(process.env.BENCH_BUILDER_SAMPLES ?? 40)
const owner = demoAccounts[1]!
const me = owner.address
const USDC = BASE_ADDRESSES.USDC
const [WETH_USDC_MARKET] = DEVNET_LENDING_CATALOG.morphoMarkets as [Hex]

type Body = Record<string, unknown>

interface Case {
  id: string
  /** A row label when one builder is measured on several paths. */
  label?: string
  /** The body, or a function of the setup's receipts' logs (a position id minted there). */
  body: Body | ((setupLogs: Log[]) => Body)
  /** A builder whose steps are broadcast once before measuring (to open the position another case needs). */
  setup?: { id: string; body: Body }
}

/** The Uniswap position NFT the setup's mint transferred to #1. */
function mintedTokenId(logs: Log[]): string {
  const [minted] = parseEventLogs({ abi: nftTransferAbi, logs, eventName: 'Transfer' }).filter(
    (l) => l.address.toLowerCase() === BASE_ADDRESSES.NonfungiblePositionManager.toLowerCase(),
  )
  if (minted === undefined) throw new Error('the setup minted no position')
  return minted.args.tokenId.toString()
}
const nftTransferAbi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
])

const WETH = BASE_ADDRESSES.WETH
const market = { marketId: WETH_USDC_MARKET, owner: me }
const FIXED_LEND = '0x4183be0a905e735a704a587d73cff76e5af8b9ff3ca236bf61ded22b679cafec'
const FIXED_BORROW = '0xf2e40d3e419a0b8ae1cb50e59951890fc1bfe23bbdb69c1af778b5c957c7fc16'
const uniPair = { tokenA: WETH, tokenB: USDC, amountA: '100000000000000000', amountB: '300000000', owner: me }

const CASES: Case[] = [
  {
    id: 'buildSwap',
    body: { fromToken: USDC, toToken: WETH, fromAmount: '100000000', taker: me, slippageBps: 50 },
  },
  { id: 'buildEarnDeposit', body: { vault: DEVNET_VAULTS.metaMorphoUsdc, assets: '1000000', owner: me } },
  { id: 'buildEarnWithdraw', body: { vault: DEVNET_VAULTS.metaMorphoUsdc, assets: '1000000', owner: me } },
  { id: 'buildAaveSupply', body: { asset: USDC, amount: '1000000', owner: me } },
  {
    id: 'buildAaveWithdraw',
    body: { asset: USDC, amount: '1000000', owner: me },
    setup: { id: 'buildAaveSupply', body: { asset: USDC, amount: '10000000', owner: me } },
  },
  { id: 'buildLoanSupplyCollateral', body: { ...market, assets: '1000000000000000' } },
  { id: 'buildLoanBorrow', body: { ...market, assets: '1000000' } },
  { id: 'buildLoanRepay', body: { ...market, assets: '1000000' } },
  { id: 'buildLoanWithdrawCollateral', body: { ...market, assets: '1000000000000000' } },
  { id: 'buildStockOrder', body: { sym: 'AAPLc', side: 'buy', amount: '10', taker: me, slippageBps: 100 } },
  { id: 'buildBurn', body: { amount: '1000000000000000000', owner: me } },
  // #1's gTrade state (demo trades): index 1 is the open ETH long, index 2 the resting ETH LIMIT order.
  {
    id: 'buildRiskOpen',
    body: {
      pairIndex: 0,
      long: true,
      leverage: 10,
      collateralUsdc: 100,
      markPrice: 95000,
      owner: me,
      tp: 104500,
      sl: 90250,
    },
  },
  { id: 'buildRiskClose', body: { index: 1, expectedPrice: 3500, owner: me } },
  { id: 'buildRiskModify', label: 'tp and sl', body: { index: 1, owner: me, tp: 5000, sl: 3000 } },
  { id: 'buildRiskModify', label: 'leverage down', body: { index: 1, owner: me, leverage: 1.5 } },
  { id: 'buildRiskCancel', body: { index: 2, owner: me } },
  { id: 'buildUniAdd', body: { ...uniPair, fee: 500 } },
  {
    id: 'buildUniRemove',
    body: (logs) => ({ tokenId: mintedTokenId(logs), liquidity: '1000000', owner: me }),
    setup: { id: 'buildUniAdd', body: { ...uniPair, fee: 500 } },
  },
  {
    id: 'buildUniCollect',
    body: (logs) => ({ tokenId: mintedTokenId(logs), owner: me }),
    setup: { id: 'buildUniAdd', body: { ...uniPair, fee: 500 } },
  },
  { id: 'buildAeroAdd', body: { ...uniPair, slippageBps: 50 } },
  {
    id: 'buildAeroRemove',
    body: { tokenA: WETH, tokenB: USDC, liquidity: '1000000000', owner: me },
    setup: { id: 'buildAeroAdd', body: { ...uniPair, slippageBps: 50 } },
  },
  // #1's Midnight positions (midnightDemo.ts): credit in the lend market, collateral and debt in the borrow one.
  { id: 'buildFixedLend', body: { marketId: FIXED_LEND, assets: '100000000', owner: me, slippageBps: 50 } },
  {
    id: 'buildFixedBorrow',
    body: { marketId: FIXED_BORROW, assets: '100000000', owner: me, slippageBps: 50 },
  },
  { id: 'buildFixedRepay', body: { marketId: FIXED_BORROW, units: '100000000', owner: me } },
  { id: 'buildFixedWithdraw', body: { marketId: FIXED_LEND, units: '100000000', owner: me } },
  {
    id: 'buildFixedSupplyCollateral',
    body: { marketId: FIXED_BORROW, collateralToken: WETH, assets: '100000000000000000', owner: me },
  },
  {
    id: 'buildFixedWithdrawCollateral',
    body: { marketId: FIXED_BORROW, collateralToken: WETH, assets: '100000000000000000', owner: me },
  },
]

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
  const stack = await startStack({
    config: worldConfig,
    servicesConfig: loadConfig({ ...env, RPC_URL: proxy.url }),
    world: { clock: Date.now, pushIntervalMs: 0 },
  })
  const world = stack.world as DevnetWorld
  const { services } = stack
  const logger = createLogger('silent')
  const wallet = createWalletClient({
    account: privateKeyToAccount(owner.privateKey),
    chain: base,
    transport: withGasHeadroom(http(world.rpcUrl)),
  })
  const build = async (id: string, body: Record<string, unknown>) => {
    const route = routeTable.find((r) => r.id === id)
    if (route === undefined) throw new Error(`no route ${id}`)
    return (await route.run(
      { params: {}, query: {}, body },
      { deps: services.deps, routes: routeTable, requestId: 'bench', logger },
    )) as BuilderEnvelope<unknown>
  }

  const rows: Record<string, unknown>[] = []
  for (const c of CASES) {
    const latency: number[] = []
    const rpc: number[] = []
    let failure: string | undefined
    try {
      const setupLogs: Log[] = []
      if (c.setup !== undefined) {
        const built = await build(c.setup.id, c.setup.body)
        for (const step of built.steps) {
          const hash = await wallet.sendTransaction({
            to: step.to,
            data: step.data,
            value: BigInt(step.value),
          })
          setupLogs.push(...(await services.deps.chain.waitForTransactionReceipt({ hash })).logs)
        }
      }
      const body = typeof c.body === 'function' ? c.body(setupLogs) : c.body
      for (let i = 0; i < 3; i++) await build(c.id, body) // warm: JIT, immutable caches
      for (let i = 0; i < SAMPLES; i++) {
        const before = proxy.count()
        const started = performance.now()
        await build(c.id, body)
        latency.push(performance.now() - started)
        rpc.push(proxy.count() - before)
      }
    } catch (err) {
      failure = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
    }
    latency.sort((a, b) => a - b)
    const route = routeTable.find((r) => r.id === c.id)
    const row =
      failure === undefined
        ? {
            builder: `${route?.method} ${route?.path}${c.label === undefined ? '' : ` (${c.label})`}`,
            ms: { p50: percentile(latency, 50), p99: percentile(latency, 99) },
            rpcRoundTrips: { min: Math.min(...rpc), max: Math.max(...rpc) },
          }
        : {
            builder: `${route?.method} ${route?.path}${c.label === undefined ? '' : ` (${c.label})`}`,
            failure,
          }
    rows.push(row)
    console.log(JSON.stringify(row))
  }
  mkdirSync('bench/results', { recursive: true })
  writeFileSync(
    'bench/results/builders.json',
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, samples: SAMPLES, rows }, null, 2)}\n`,
  )
  proxy.server.close()
  await stack.stop()
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
