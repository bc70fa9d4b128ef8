import { createPublicClient, createWalletClient, http, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { type Config, loadConfig, UPSTREAM_PORT_COUNT } from '../../src/config.js'
import { DEVNET_ADDRESSES } from '../../src/devnet/addresses.js'
import { freePortRange, onFreePort } from '../../src/devnet/anvil.js'
import { STOCKS } from '../../src/devnet/deploy/stocks.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { type DevnetWorld, startDevnetWorld } from '../../src/devnet/startDevnetWorld.js'
import { createLogger } from '../../src/logger.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { WORLD_DATE_ENV } from '../helpers/serviceWorld.js'
import { EXPLORER_KEY } from '../helpers/upstreamKeys.js'

let config: Config
// A frozen clock makes the simulator's reference prices exact for the comparisons below.
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0)
let world: DevnetWorld

beforeAll(async () => {
  // On ports taken in between (a neighbour's test run), again on fresh ones.
  world = await onFreePort(async (rpcPort) => {
    config = loadConfig({
      ...WORLD_DATE_ENV,
      DEVNET_BLOCK_TIME: '0',
      DEVNET_RPC_PORT: String(rpcPort),
      DEVNET_UPSTREAM_PORT: String(await freePortRange(UPSTREAM_PORT_COUNT)),
    })
    return startDevnetWorld({ config, logger: createLogger('silent'), clock: () => NOW, pushIntervalMs: 0 })
  })
}, 120_000)
afterAll(async () => {
  await world?.stop()
})

const feedAbi = parseAbi(['function latestAnswer() view returns (int256)'])
const slot0Abi = parseAbi([
  'function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)',
])

describe('devnet world', () => {
  test('behavior: onchain feeds equal the simulator and pools sit within the wobble band of it', async () => {
    const client = createPublicClient({ transport: http(world.rpcUrl) })
    const eth = world.sim.spot('ETH')
    const btc = world.sim.spot('BTC')
    const ethFeed = await client.readContract({
      address: DEVNET_ADDRESSES.ETH_USD_FEED,
      abi: feedAbi,
      functionName: 'latestAnswer',
    })
    const btcFeed = await client.readContract({
      address: DEVNET_ADDRESSES.BTC_USD_FEED,
      abi: feedAbi,
      functionName: 'latestAnswer',
    })
    expect(Number(ethFeed) / 1e8).toBeCloseTo(eth, 6)
    expect(Number(btcFeed) / 1e8).toBeCloseTo(btc, 6)
    // Stock feeds report the underlying's simulated price times the token's multiplier.
    const aapl = await client.readContract({
      address: STOCKS.AAPLc.feed,
      abi: feedAbi,
      functionName: 'latestAnswer',
    })
    const expected = world.sim.spot('AAPL') * (Number(STOCKS.AAPLc.multiplier) / 1e18)
    expect(Math.abs(Number(aapl) / 1e8 / expected - 1)).toBeLessThan(1e-6)
    // WETH (0x4200…) sorts before USDC (0x8335…): WETH is token0, so slot0 prices WETH in USDC.
    const [sqrtP] = await client.readContract({
      address: BASE_ADDRESSES.UniswapV3WethUsdc500Pool,
      abi: slot0Abi,
      functionName: 'slot0',
    })
    const poolEth = (Number(sqrtP) / 2 ** 96) ** 2 * 1e12
    expect(Math.abs(poolEth / eth - 1)).toBeLessThan(0.006)
    // A second round moves the pools along the wobble without drifting off the reference.
    await world.pushPrices()
    const [sqrtP2] = await client.readContract({
      address: BASE_ADDRESSES.UniswapV3WethUsdc500Pool,
      abi: slot0Abi,
      functionName: 'slot0',
    })
    expect(Math.abs(((Number(sqrtP2) / 2 ** 96) ** 2 * 1e12) / eth - 1)).toBeLessThan(0.006)
  })

  test('behavior: the upstream simulators answer on the configured URLs with chain-backed data', async () => {
    const ticker = (await (
      await fetch(`${config.upstreams.coinbaseExchange}/products/ETH-USD/ticker`)
    ).json()) as { price: string }
    expect(Number(ticker.price)).toBeCloseTo(world.sim.spot('ETH'), 0)
    // Account #2 has no positions, so its balances are exactly the demo funding.
    const holder = demoAccounts[2]!.address
    const balances = (await (
      await fetch(`${config.upstreams.explorer}/api/v2/addresses/${holder}/token-balances`, EXPLORER_KEY)
    ).json()) as {
      token: { symbol: string; exchange_rate: string | null }
      value: string
    }[]
    const usdc = balances.find((b) => b.token.symbol === 'USDC')
    expect(usdc?.value).toBe('1000000000000')
    expect(balances.find((b) => b.token.symbol === 'UTIL')?.token.exchange_rate).toBeNull()
    const vars = await fetch(`${config.upstreams.gtradeBackend}/trading-variables/all`)
    expect(vars.status).toBe(200)
    // The chain and the backend simulator agree on what every pairIndex means.
    const { pairs } = (await vars.json()) as { pairs: { from: string; to: string }[] }
    const client = createPublicClient({ transport: http(world.rpcUrl) })
    const onchain = parseAbi([
      'function pairsCount() view returns (uint256)',
      'function pairs(uint256) view returns ((string from, string to, (address feed1, address feed2, uint8 feedCalculation, uint256 maxDeviationP) feed, uint256 spreadP, uint256 groupIndex, uint256 feeIndex))',
    ])
    expect(
      await client.readContract({
        address: BASE_ADDRESSES.GtradeDiamond,
        abi: onchain,
        functionName: 'pairsCount',
      }),
    ).toBe(BigInt(pairs.length))
    for (const i of [0, 6, 25, 40]) {
      const pair = await client.readContract({
        address: BASE_ADDRESSES.GtradeDiamond,
        abi: onchain,
        functionName: 'pairs',
        args: [BigInt(i)],
      })
      expect(`${pair.from}/${pair.to}`).toBe(`${pairs[i]?.from}/${pairs[i]?.to}`)
    }
    // Open trades are read from the gTrade stand-in at the Base diamond address.
    const open = await fetch(`${config.upstreams.gtradeBackend}/open-trades/${holder}`)
    expect(open.status).toBe(200)
    expect(await open.json()).toEqual([])
  })
})

describe('demo account #1', () => {
  test('behavior: holds an open Morpho borrow and a MetaMorpho vault deposit after the build', async () => {
    const { loadDevnet } = await import('../../src/devnet/buildState.js')
    const { DEMO_POSITIONS } = await import('../../src/devnet/deploy/demoPositions.js')
    const client = createPublicClient({ transport: http(world.rpcUrl) })
    const manifest = (await onFreePort((port) => loadDevnet({ port })).then(async (d) => {
      await d.anvil.stop()
      return d.manifest
    })) as { morpho: { markets: { WETH_USDC: { id: `0x${string}` } }; metaMorphoUsdcVault: `0x${string}` } }
    const holder = demoAccounts[1]!.address
    const position = await client.readContract({
      address: BASE_ADDRESSES.MorphoBlue,
      abi: parseAbi(['function position(bytes32 id, address user) view returns (uint256, uint128, uint128)']),
      functionName: 'position',
      args: [manifest.morpho.markets.WETH_USDC.id, holder],
    })
    expect(position[2]).toBe(DEMO_POSITIONS.morphoCollateralWeth)
    expect(position[1]).toBeGreaterThan(0n)
    const shares = await client.readContract({
      address: manifest.morpho.metaMorphoUsdcVault,
      abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
      functionName: 'balanceOf',
      args: [holder],
    })
    expect(shares).toBeGreaterThan(0n)
  })
})

describe('tokenized stocks on the devnet', () => {
  const quoterAbi = parseAbi([
    'struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
    'function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
  ])
  const routerAbi = parseAbi([
    'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
    'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
  ])

  test('behavior: a buy in the AAPLc/USDC pool fills exactly the QuoterV2 quote', async () => {
    const buyer = demoAccounts[3]!
    const client = createPublicClient({ transport: http(world.rpcUrl) })
    const wallet = createWalletClient({
      transport: headroomHttp(world.rpcUrl),
      account: privateKeyToAccount(buyer.privateKey),
    })
    const amountIn = 1_000_000_000n // 1,000 USDC
    const quote = {
      tokenIn: BASE_ADDRESSES.USDC,
      tokenOut: STOCKS.AAPLc.token,
      amountIn,
      fee: 3000,
      sqrtPriceLimitX96: 0n,
    }
    const { result } = await client.simulateContract({
      address: BASE_ADDRESSES.QuoterV2,
      abi: quoterAbi,
      functionName: 'quoteExactInputSingle',
      args: [quote],
    })
    const expectedOut = result[0]
    expect(expectedOut).toBeGreaterThan(0n)
    const balanceOf = parseAbi(['function balanceOf(address) view returns (uint256)'])
    const before = await client.readContract({
      address: STOCKS.AAPLc.token,
      abi: balanceOf,
      functionName: 'balanceOf',
      args: [buyer.address],
    })
    const approve = await wallet.writeContract({
      chain: null,
      address: BASE_ADDRESSES.USDC,
      abi: parseAbi(['function approve(address, uint256) returns (bool)']),
      functionName: 'approve',
      args: [BASE_ADDRESSES.SwapRouter02, amountIn],
    })
    await pollReceipt(client, approve, RECEIPT)
    const swap = await wallet.writeContract({
      chain: null,
      address: BASE_ADDRESSES.SwapRouter02,
      abi: routerAbi,
      functionName: 'exactInputSingle',
      args: [{ ...quote, recipient: buyer.address, amountOutMinimum: expectedOut }],
    })
    expect((await pollReceipt(client, swap, RECEIPT)).status).toBe('success')
    const after = await client.readContract({
      address: STOCKS.AAPLc.token,
      abi: balanceOf,
      functionName: 'balanceOf',
      args: [buyer.address],
    })
    expect(after - before).toBe(expectedOut)
  })

  test('error: the registered but unminted ticker has no pool, so no quote', async () => {
    const client = createPublicClient({ transport: http(world.rpcUrl) })
    await expect(
      client.simulateContract({
        address: BASE_ADDRESSES.QuoterV2,
        abi: quoterAbi,
        functionName: 'quoteExactInputSingle',
        args: [
          {
            tokenIn: BASE_ADDRESSES.USDC,
            tokenOut: STOCKS.SPCXc.token,
            amountIn: 1_000_000n,
            fee: 3000,
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
    ).rejects.toThrow()
  })
})

describe('demo account #1 on the perp venue', () => {
  test('behavior: has an open trade, a resting limit order and a closed round-trip in its history', async () => {
    const holder = demoAccounts[1]!.address
    const open = (await (await fetch(`${config.upstreams.gtradeBackend}/open-trades/${holder}`)).json()) as {
      trade: { pairIndex: string; tradeType: string }
    }[]
    expect(open.map((t) => t.trade.tradeType).sort()).toEqual(['0', '1'])
    const history = (await (
      await fetch(
        `${config.upstreams.gtradeHistory}/api/personal-trading-history/${holder}?chainId=8453&limit=10`,
      )
    ).json()) as { data: { action: string }[] }
    expect(history.data.map((e) => e.action)).toEqual([
      'TradeOpenedMarket',
      'TradeClosedMarket',
      'TradeOpenedMarket',
    ])
  })
})
