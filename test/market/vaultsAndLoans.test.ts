import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { wrapFetchWithPayment } from '@x402/fetch'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  custom,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
  parseAbi,
  parseUnits,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { DEVNET_LENDING_CATALOG, DEVNET_VAULTS } from '../../src/chain/lendingCatalog.js'
import { type MorphoMarketParams, morphoAbi, morphoMarketId } from '../../src/chain/morpho.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { readWarmManifest } from '../../src/devnet/buildState.js'
import { demoAccounts, devnetDeployer } from '../../src/devnet/devnetAccounts.js'
import { getVaults, type Vaults } from '../../src/market/earn/getVaults.js'
import { createLendingChain, type LendingChainOptions } from '../../src/market/lendingChain.js'
import { getLoanMarkets, type LoanMarkets } from '../../src/market/loan/getLoanMarkets.js'
import { getVaultsRoute } from '../../src/routes/earn/getVaults.js'
import { getLoanMarketsRoute } from '../../src/routes/loan/getLoanMarkets.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { type Instance, payer, useWorld } from '../helpers/serviceWorld.js'

// Every value the two reads return is checked against the chain itself, read here with viem at the block
// the answer names. APYs are recomputed here from the raw onchain rates with this file's own arithmetic;
// the service rounds them to 10 significant digits, hence the 1e-9 relative tolerance.
const TOLERANCE = 1e-9
const YEAR = 31_536_000

const vaultAbi = parseAbi([
  'function asset() view returns (address)',
  'function totalAssets() view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function fee() view returns (uint96)',
  'function withdrawQueueLength() view returns (uint256)',
  'function withdrawQueue(uint256) view returns (bytes32)',
  'function setFeeRecipient(address)',
  'function setFee(uint256)',
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'struct MarketAllocation { MarketParams marketParams; uint256 assets; }',
  'function reallocate(MarketAllocation[] allocations)',
])
const morphoAdminAbi = parseAbi([
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'function setFeeRecipient(address)',
  'function setFee(MarketParams marketParams, uint256 newFee)',
])
const irmAbi = parseAbi([
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'struct Market { uint128 totalSupplyAssets; uint128 totalSupplyShares; uint128 totalBorrowAssets; uint128 totalBorrowShares; uint128 lastUpdate; uint128 fee; }',
  'function borrowRateView(MarketParams marketParams, Market market) view returns (uint256)',
])
const aavePoolAbi = parseAbi([
  'function getReserveData(address asset) view returns ((uint256 configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress, address interestRateStrategyAddress, uint128 accruedToTreasury, uint128 unbacked, uint128 isolationModeTotalDebt))',
])
const aaveOracleAbi = parseAbi(['function getAssetPrice(address asset) view returns (uint256)'])

// The answers as the service types them, after the route's own output schema accepted them.
type VaultsAnswer = Vaults
type LoanMarketsAnswer = LoanMarkets

const sw = useWorld()
let svc: Instance
let chain: PublicClient
const [WETH_USDC, CBBTC_USDC] = DEVNET_LENDING_CATALOG.morphoMarkets as [Hex, Hex, Hex]

async function paramsOf(id: Hex, blockNumber?: bigint): Promise<MorphoMarketParams> {
  const [loanToken, collateralToken, oracle, irm, lltv] = await chain.readContract({
    address: BASE_ADDRESSES.MorphoBlue,
    abi: morphoAbi,
    functionName: 'idToMarketParams',
    args: [id],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  })
  return { loanToken, collateralToken, oracle, irm, lltv }
}

beforeAll(async () => {
  chain = sw.chain
  // Give the devnet's fee-free world fees and a two-market allocation, so every term of the APY formulas
  // (market fee, vault fee, the assets weighting) is exercised.
  const admin = createWalletClient({
    account: privateKeyToAccount(devnetDeployer.privateKey),
    chain: base,
    transport: headroomHttp(sw.world.rpcUrl),
  })
  // The world's keeper sends from the deployer too: take turns with it, or the nonces race.
  const mined = (send: () => Promise<Hex>) =>
    sw.world.asDeployer(async () => {
      const receipt = await pollReceipt(chain, await send(), RECEIPT)
      expect(receipt.status).toBe('success')
    })
  const me = admin.account.address
  const wethUsdc = await paramsOf(WETH_USDC)
  const cbBtcUsdc = await paramsOf(CBBTC_USDC)
  const morpho = BASE_ADDRESSES.MorphoBlue
  const vault = DEVNET_VAULTS.metaMorphoUsdc
  await mined(() =>
    admin.writeContract({
      address: morpho,
      abi: morphoAdminAbi,
      functionName: 'setFeeRecipient',
      args: [me],
    }),
  )
  await mined(() =>
    admin.writeContract({
      address: morpho,
      abi: morphoAdminAbi,
      functionName: 'setFee',
      args: [wethUsdc, parseUnits('0.1', 18)],
    }),
  )
  await mined(() =>
    admin.writeContract({ address: vault, abi: vaultAbi, functionName: 'setFeeRecipient', args: [me] }),
  )
  await mined(() =>
    admin.writeContract({
      address: vault,
      abi: vaultAbi,
      functionName: 'setFee',
      args: [parseUnits('0.15', 18)],
    }),
  )
  await mined(() =>
    admin.writeContract({
      address: vault,
      abi: vaultAbi,
      functionName: 'reallocate',
      args: [
        [
          { marketParams: wethUsdc, assets: parseUnits('400000', 6) },
          { marketParams: cbBtcUsdc, assets: maxUint256 },
        ],
      ],
    }),
  )
  svc = await sw.instance()
}, 120_000)

const pay = () => wrapFetchWithPayment(fetch, payer(2).client)

async function paidJson(path: string): Promise<unknown> {
  const res = await pay()(`${svc.url}${path}`)
  expect(res.status).toBe(200)
  expect(res.headers.get('payment-response')).not.toBeNull()
  return res.json()
}

function expectClose(actual: number | null, expected: number) {
  expect(actual).not.toBeNull()
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(
    TOLERANCE * Math.max(Math.abs(expected), 1e-12),
  )
}

/** This file's own Morpho arithmetic: borrow APY from the IRM's per-second rate, and the supply side. */
async function morphoMarketAt(id: Hex, blockNumber: bigint) {
  const params = await paramsOf(id, blockNumber)
  const [totalSupplyAssets, totalSupplyShares, totalBorrowAssets, totalBorrowShares, lastUpdate, fee] =
    await chain.readContract({
      address: BASE_ADDRESSES.MorphoBlue,
      abi: morphoAbi,
      functionName: 'market',
      args: [id],
      blockNumber,
    })
  const rate = await chain.readContract({
    address: params.irm,
    abi: irmAbi,
    functionName: 'borrowRateView',
    args: [
      params,
      { totalSupplyAssets, totalSupplyShares, totalBorrowAssets, totalBorrowShares, lastUpdate, fee },
    ],
    blockNumber,
  })
  const borrowApy = Math.exp((Number(rate) / 1e18) * YEAR) - 1
  const used = Number(totalBorrowAssets) / Number(totalSupplyAssets)
  const supplyApy = borrowApy * used * (1 - Number(fee) / 1e18)
  return { params, totalSupplyAssets, totalSupplyShares, totalBorrowAssets, fee, borrowApy, supplyApy, used }
}

describe('GET /v1/earn/vaults (paid with @x402/fetch)', () => {
  let answer: VaultsAnswer
  let blockNumber: bigint
  beforeAll(async () => {
    answer = getVaultsRoute.output.parse(await paidJson('/v1/earn/vaults')) as VaultsAnswer
    blockNumber = BigInt(answer.block.number)
  })
  const row = (address: Address) => {
    const found = answer.vaults.find((v) => v.address.toLowerCase() === address.toLowerCase())
    expect(found, address).toBeDefined()
    return found as VaultsAnswer['vaults'][number]
  }

  test('behavior: every catalog vault and Aave reserve is listed once, with the block it was read at', async () => {
    expect(answer.vaults).toHaveLength(
      DEVNET_LENDING_CATALOG.vaults.length + DEVNET_LENDING_CATALOG.aaveReserves.length,
    )
    const block = await chain.getBlock({ blockNumber })
    expect(answer.block.timestamp).toBe(Number(block.timestamp))
  })

  test('behavior: an ERC-4626 vault’s tvl is its totalAssets() and its asset is asset() with the token’s metadata', async () => {
    for (const { address } of DEVNET_LENDING_CATALOG.vaults) {
      const v = row(address)
      const [totalAssets, asset] = await Promise.all([
        chain.readContract({ address, abi: vaultAbi, functionName: 'totalAssets', blockNumber }),
        chain.readContract({ address, abi: vaultAbi, functionName: 'asset', blockNumber }),
      ])
      expect(v.kind).toBe('erc4626')
      expect(BigInt(v.tvl)).toBe(totalAssets)
      expect(v.asset.address).toBe(asset)
      expect(v.asset.symbol).toBe(
        await chain.readContract({ address: asset, abi: erc20Abi, functionName: 'symbol' }),
      )
      expect(v.asset.decimals).toBe(
        await chain.readContract({ address: asset, abi: erc20Abi, functionName: 'decimals' }),
      )
      // USDC at Aave's oracle price (the devnet's USDC/USD feed), 8 decimals.
      const price = await chain.readContract({
        address: BASE_ADDRESSES.AaveOracle,
        abi: aaveOracleAbi,
        functionName: 'getAssetPrice',
        args: [asset],
        blockNumber,
      })
      expect(v.tvlUsd).toBeCloseTo((Number(totalAssets) / 10 ** v.asset.decimals) * (Number(price) / 1e8), 1)
    }
  })

  test('behavior: the MetaMorpho APY is the recomputation from its markets’ IRM rates and its positions, fees off', async () => {
    const vault = DEVNET_VAULTS.metaMorphoUsdc
    const v = row(vault)
    expect(v.protocol).toBe('metamorpho')
    expect(v.apySource).toBe('morpho-allocation')
    const length = await chain.readContract({
      address: vault,
      abi: vaultAbi,
      functionName: 'withdrawQueueLength',
      blockNumber,
    })
    let weighted = 0
    let total = 0
    const held: { marketId: Hex; assets: bigint }[] = []
    for (let i = 0n; i < length; i++) {
      const id = await chain.readContract({
        address: vault,
        abi: vaultAbi,
        functionName: 'withdrawQueue',
        args: [i],
        blockNumber,
      })
      const [supplyShares] = await chain.readContract({
        address: BASE_ADDRESSES.MorphoBlue,
        abi: morphoAbi,
        functionName: 'position',
        args: [id, vault],
        blockNumber,
      })
      if (supplyShares === 0n) continue
      const m = await morphoMarketAt(id, blockNumber)
      const assets = (supplyShares * (m.totalSupplyAssets + 1n)) / (m.totalSupplyShares + 1_000_000n)
      held.push({ marketId: id, assets })
      weighted += Number(assets) * m.supplyApy
      total += Number(assets)
    }
    // The setup split the vault over two markets, one of them with a 10% market fee.
    expect(held).toHaveLength(2)
    const vaultFee = await chain.readContract({
      address: vault,
      abi: vaultAbi,
      functionName: 'fee',
      blockNumber,
    })
    expect(vaultFee).toBe(parseUnits('0.15', 18))
    expect(v.fee).toBe(0.15)
    const expected = (weighted / total) * (1 - Number(vaultFee) / 1e18)
    expect(expected).toBeGreaterThan(0)
    expectClose(v.netApy, expected)
    expect(v.allocation.map((a) => ({ marketId: a.marketId, assets: BigInt(a.assets) }))).toEqual(held)
  })

  test('behavior: the plain ERC-4626 has no rate source: netApy is share-price growth, null while the chain is younger than the 7-day window', () => {
    const v = row(DEVNET_VAULTS.plainUsdc)
    expect(v.protocol).toBe('erc4626')
    expect(v.apySource).toBe('share-price-growth')
    expect(blockNumber).toBeLessThan(302_400n)
    expect(v.netApy).toBeNull()
    expect(v.fee).toBeNull()
    expect(v.allocation).toEqual([])
  })

  test('behavior: an Aave reserve is listed by its aToken; APY from getReserveData’s currentLiquidityRate, tvl its totalSupply()', async () => {
    for (const asset of DEVNET_LENDING_CATALOG.aaveReserves) {
      const reserve = await chain.readContract({
        address: BASE_ADDRESSES.AavePool,
        abi: aavePoolAbi,
        functionName: 'getReserveData',
        args: [asset],
        blockNumber,
      })
      const v = row(reserve.aTokenAddress)
      expect(v).toMatchObject({
        kind: 'pool-lender',
        protocol: 'aave-v3',
        apySource: 'aave-liquidity-rate',
        fee: null,
      })
      expect(v.asset.address).toBe(asset)
      // Per-second compounding of the ray APR; log1p keeps (1 + APR/year)^year exact in floating point.
      const apr = Number(reserve.currentLiquidityRate) / 1e27
      expectClose(v.netApy, Math.expm1(YEAR * Math.log1p(apr / YEAR)))
      const supply = await chain.readContract({
        address: reserve.aTokenAddress,
        abi: erc20Abi,
        functionName: 'totalSupply',
        blockNumber,
      })
      expect(BigInt(v.tvl)).toBe(supply)
      const price = await chain.readContract({
        address: BASE_ADDRESSES.AaveOracle,
        abi: aaveOracleAbi,
        functionName: 'getAssetPrice',
        args: [asset],
        blockNumber,
      })
      expect(v.tvlUsd).toBeCloseTo((Number(supply) / 10 ** v.asset.decimals) * (Number(price) / 1e8), 1)
    }
    // The devnet's USDC and WETH reserves carry borrows, so suppliers earn something.
    const usdc = answer.vaults.find((v) => v.protocol === 'aave-v3' && v.asset.symbol === 'USDC')
    expect(usdc?.netApy).toBeGreaterThan(0)
  })
})

describe('GET /v1/loan/markets (paid with @x402/fetch)', () => {
  let answer: LoanMarketsAnswer
  let blockNumber: bigint
  beforeAll(async () => {
    answer = getLoanMarketsRoute.output.parse(await paidJson('/v1/loan/markets')) as LoanMarketsAnswer
    blockNumber = BigInt(answer.block.number)
  })

  test('behavior: each catalog market’s params equal idToMarketParams(id) and hash back to the id', async () => {
    expect(answer.markets.map((m) => m.marketId)).toEqual(DEVNET_LENDING_CATALOG.morphoMarkets)
    for (const m of answer.markets) {
      const params = await paramsOf(m.marketId as Hex, blockNumber)
      expect(m.params).toEqual({ ...params, lltv: params.lltv.toString() })
      expect(morphoMarketId(params)).toBe(m.marketId)
      expect(m.lltv).toBe(Number(params.lltv) / 1e18)
      expect(m.loanAsset.address).toBe(params.loanToken)
      expect(m.loanAsset.symbol).toBe(
        await chain.readContract({ address: params.loanToken, abi: erc20Abi, functionName: 'symbol' }),
      )
      expect(m.collateralAsset?.address).toBe(params.collateralToken)
      expect(m.collateralAsset?.decimals).toBe(
        await chain.readContract({
          address: params.collateralToken,
          abi: erc20Abi,
          functionName: 'decimals',
        }),
      )
    }
  })

  test('behavior: liquidity is market() totalSupplyAssets − totalBorrowAssets; borrow APY is the recomputation from borrowRateView', async () => {
    for (const m of answer.markets) {
      const truth = await morphoMarketAt(m.marketId as Hex, blockNumber)
      expect(BigInt(m.totalSupplyAssets)).toBe(truth.totalSupplyAssets)
      expect(BigInt(m.totalBorrowAssets)).toBe(truth.totalBorrowAssets)
      expect(BigInt(m.liquidity)).toBe(truth.totalSupplyAssets - truth.totalBorrowAssets)
      expect(truth.borrowApy).toBeGreaterThan(0)
      expectClose(m.borrowApy, truth.borrowApy)
      expectClose(m.supplyApy, truth.supplyApy)
      expectClose(m.utilization, truth.used)
      expect(m.fee).toBe(Number(truth.fee) / 1e18)
    }
    expect(answer.markets.find((m) => m.marketId === WETH_USDC)?.fee).toBe(0.1)
  })
})

describe('the lending chain reader', () => {
  /** A client that counts the JSON-RPC calls it makes. */
  function countingClient(): { client: PublicClient; calls: string[] } {
    const inner = createPublicClient({ transport: http(sw.world.rpcUrl) })
    const calls: string[] = []
    const client = createPublicClient({
      transport: custom({
        request: (args: { method: string; params?: unknown }) => {
          calls.push(args.method)
          return inner.request(args as Parameters<typeof inner.request>[0])
        },
      }),
    }) as PublicClient
    return { client, calls }
  }
  const silent = { warn: () => {} }

  test('behavior: the devnet catalog names exactly the vaults and markets the devnet world deployed', () => {
    const manifest = readWarmManifest()
    expect(manifest).toBeDefined()
    const morpho = manifest?.morpho
    expect(DEVNET_LENDING_CATALOG.vaults.map((v) => v.address)).toEqual([
      morpho?.metaMorphoUsdcVault,
      morpho?.plainUsdcVault,
    ])
    expect([...DEVNET_LENDING_CATALOG.morphoMarkets].sort()).toEqual(
      Object.values(morpho?.markets ?? {})
        .map((m) => m.id)
        .sort(),
    )
    const reserves = manifest?.aave.reserves
    expect(DEVNET_LENDING_CATALOG.aaveReserves).toEqual([
      reserves?.USDC.asset,
      reserves?.WETH.asset,
      reserves?.cbBTC.asset,
    ])
  })

  test('behavior: a refresh is two multicalls for the structure and two for the state, a cached answer costs none, and the state alone refreshes after its TTL', async () => {
    const { client, calls } = countingClient()
    let now = 1_000_000
    const lending = createLendingChain(client, DEVNET_LENDING_CATALOG, silent, {}, () => now)
    const ethCalls = () => calls.filter((m) => m === 'eth_call').length
    await getLoanMarkets(lending)
    // Structure: metadata/params/queues, then queue entries/token metadata (the vault's markets are all in
    // the catalog, so no third round). State: one multicall, then borrowRateView at the same block.
    expect(ethCalls()).toBe(4)
    expect(calls.filter((m) => m !== 'eth_call')).toEqual([])
    await getVaults(lending)
    await getLoanMarkets(lending)
    expect(ethCalls()).toBe(4)
    now += lending.options.stateTtlMs
    await getLoanMarkets(lending)
    expect(ethCalls()).toBe(6)
  })

  test('behavior: a market whose id does not re-derive from its params is logged and dropped, never served', async () => {
    const bogus = `0x${'ab'.repeat(32)}` as Hex
    const warnings: Record<string, unknown>[] = []
    const lending = createLendingChain(
      chain,
      { ...DEVNET_LENDING_CATALOG, morphoMarkets: [bogus, WETH_USDC] },
      { warn: (fields) => warnings.push(fields) },
    )
    const { markets } = await getLoanMarkets(lending)
    expect(markets.map((m) => m.marketId)).toEqual([WETH_USDC])
    expect(warnings).toContainEqual(
      expect.objectContaining({
        msg: 'morpho market dropped: id does not re-derive from its params',
        marketId: bogus,
      }),
    )
  })

  test('behavior: with a short window, a plain vault’s netApy is its share-price growth between the two blocks', async () => {
    const vault = DEVNET_VAULTS.plainUsdc
    const start = await chain.getBlock()
    // A yield of 0.001 USDC lands in the vault 10 s later (donated: the share price rises).
    const donor = createWalletClient({
      account: privateKeyToAccount(demoAccounts[5]?.privateKey as Hex),
      chain: base,
      transport: headroomHttp(sw.world.rpcUrl),
    })
    await createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) }).setNextBlockTimestamp({
      timestamp: start.timestamp + 10n,
    })
    const hash = await donor.writeContract({
      address: BASE_ADDRESSES.USDC,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [vault, 1000n],
    })
    await pollReceipt(chain, hash, RECEIPT)
    const head = await chain.getBlockNumber()
    // The keeper mines blocks meanwhile: a window reaching 20 blocks before the start still begins
    // before the donation when the service reads a few blocks later than `head`.
    const window = head - start.number + 20n
    const options: Partial<LendingChainOptions> = {
      sharePriceWindowBlocks: window,
      minSharePriceWindowSec: 1,
    }
    const lending = createLendingChain(chain, DEVNET_LENDING_CATALOG, silent, options)
    const answer = await getVaults(lending)
    const v = answer.vaults.find((x) => x.address === vault)
    const at1 = BigInt(answer.block.number)
    const at0 = at1 - window
    const probe = 10n ** 12n // a million shares of 6 decimals
    const [p0, p1, b0, b1] = await Promise.all([
      chain.readContract({
        address: vault,
        abi: vaultAbi,
        functionName: 'convertToAssets',
        args: [probe],
        blockNumber: at0,
      }),
      chain.readContract({
        address: vault,
        abi: vaultAbi,
        functionName: 'convertToAssets',
        args: [probe],
        blockNumber: at1,
      }),
      chain.getBlock({ blockNumber: at0 }),
      chain.getBlock({ blockNumber: at1 }),
    ])
    expect(p1).toBeGreaterThan(p0)
    const elapsed = Number(b1.timestamp - b0.timestamp)
    expectClose(v?.netApy ?? null, Math.expm1((YEAR / elapsed) * Math.log1p(Number(p1 - p0) / Number(p0))))
  })
})

describe('chain faults', () => {
  let proxy: Server
  let proxyUrl: string
  const morphoHex = BASE_ADDRESSES.MorphoBlue.slice(2).toLowerCase()
  beforeAll(async () => {
    // An RPC in front of the devnet that fails every call touching Morpho Blue and serves the rest (the
    // payment gate's reads and the settlement) normally.
    proxy = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString()
      })
      req.on('end', () => {
        if (body.toLowerCase().includes(morphoHex)) {
          res.writeHead(503, { 'content-type': 'text/plain' })
          res.end('unavailable')
          return
        }
        fetch(sw.world.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
          .then(async (upstream) => {
            res.writeHead(upstream.status, { 'content-type': 'application/json' })
            res.end(await upstream.text())
          })
          .catch(() => {
            res.writeHead(502)
            res.end()
          })
      })
    })
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done))
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((done) => proxy.close(done))
  })

  test('error: an RPC fault while reading is a 502 with Retry-After and moves no money', async () => {
    const broken = await sw.instance({ RPC_URL: proxyUrl })
    const who = await sw.freshWallet(1_000_000n)
    for (const path of ['/v1/loan/markets', '/v1/earn/vaults']) {
      const res = await wrapFetchWithPayment(fetch, who.client)(`${broken.url}${path}`)
      expect(res.status, path).toBe(502)
      expect(res.headers.get('retry-after'), path).toMatch(/^[1-9][0-9]*$/)
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('upstream_unavailable')
      expect(res.headers.get('payment-response')).toBeNull()
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    expect(await broken.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
  })
})
