import { wrapFetchWithPayment } from '@x402/fetch'
import { type Address, erc20Abi, getAddress, type Hex, type PublicClient, parseAbi, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { midnightAbi, midnightReadAbi } from '../../src/chain/midnight.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { DEMO_POSITIONS } from '../../src/devnet/deploy/demoPositions.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import type { Vaults } from '../../src/market/earn/getVaults.js'
import type { getPositions } from '../../src/market/positions/getPositions.js'
import { getVaultsRoute } from '../../src/routes/earn/getVaults.js'
import { getPositionsRoute } from '../../src/routes/positions/getPositions.js'
import { devnetWallet, RECEIPT, relClose } from '../helpers/chainChecks.js'
import { morphoBorrowTruth, readAt as readAtTime } from '../helpers/morphoTruth.js'
import { type Instance, payer, type ServiceWorld, startServiceWorld } from '../helpers/serviceWorld.js'

// Every figure of /v1/positions is checked against the chain, read here with viem at the answer's block
// (and, for what accrues, evaluated at the answer's `asOf` with the same block-time override), with this
// file's own arithmetic for Morpho's accrual, health factor and liquidation price.
const DEMO = getAddress(demoAccounts[1]?.address as string)
const WAD = 10n ** 18n

type Positions = Awaited<ReturnType<typeof getPositions>>

const vaultAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function convertToAssets(uint256) view returns (uint256)',
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
])
const oracleAbi = parseAbi(['function price() view returns (uint256)'])
const aavePoolAbi = parseAbi([
  'function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)',
  'function borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf)',
  'function getUserAccountData(address user) view returns (uint256, uint256, uint256, uint256, uint256, uint256)',
  'function getReserveData(address asset) view returns ((uint256 configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress, address interestRateStrategyAddress, uint128 accruedToTreasury, uint128 unbacked, uint128 isolationModeTotalDebt))',
])
const wethAbi = parseAbi(['function deposit() payable'])
const gtradeAbi = parseAbi([
  'struct Trade { address user; uint32 index; uint16 pairIndex; uint24 leverage; bool long; bool isOpen; uint8 collateralIndex; uint8 tradeType; uint120 collateralAmount; uint64 openPrice; uint64 tp; uint64 sl; bool isCounterTrade; uint160 positionSizeToken; uint24 __placeholder; }',
  'function getTrades(address _trader) view returns (Trade[])',
])

let sw: ServiceWorld
let svc: Instance
let chain: PublicClient

beforeAll(async () => {
  sw = await startServiceWorld()
  chain = sw.chain
  svc = await sw.instance()
}, 120_000)
afterAll(async () => {
  await sw?.stop()
})

async function positionsOf(owner: string, instance: Instance = svc): Promise<Positions> {
  const res = await wrapFetchWithPayment(fetch, payer(2).client)(`${instance.url}/v1/positions/${owner}`)
  expect(res.status).toBe(200)
  return getPositionsRoute.output.parse(await res.json()) as Positions
}

const readAt = <T>(
  to: Address,
  abi: readonly unknown[],
  functionName: string,
  args: readonly unknown[],
  blockNumber: bigint,
  time: number,
) => readAtTime<T>(chain, to, abi, functionName, args, blockNumber, time)

const walletOf = (privateKey: Hex) => devnetWallet(chain, privateKey)

async function mined(hash: Promise<Hex>) {
  const receipt = await pollReceipt(chain, await hash, RECEIPT)
  expect(receipt.status).toBe('success')
}

describe('GET /v1/positions/{address} (paid with @x402/fetch)', () => {
  test('behavior: demo account #1 — Morpho borrow, MetaMorpho deposit, open ETH long, Midnight positions — each figure against the chain', async () => {
    const p = await positionsOf(DEMO)
    expect(p.sources).toEqual({
      lending: { ok: true },
      vaultApy: { ok: true },
      vaultHistory: { ok: true },
      gtrade: { ok: true },
      gtradeMark: { ok: true },
      midnight: { ok: true },
    })
    const block = BigInt(p.block?.number ?? -1)
    const asOf = p.asOf as number
    expect(asOf).toBeGreaterThanOrEqual(p.block?.timestamp as number)

    // Morpho Blue: the seeded WETH/USDC borrow.
    expect(p.borrows).toHaveLength(1)
    const b = p.borrows[0] as Positions['borrows'][number]
    const id = b.marketId as Hex
    const truth = await morphoBorrowTruth(chain, id, DEMO, block, asOf)
    const { params: marketParams, collateral, debt, price, maxBorrow, rate } = truth
    expect(BigInt(b.collateral)).toBe(collateral)
    expect(collateral).toBe(DEMO_POSITIONS.morphoCollateralWeth)
    expect(BigInt(b.debt)).toBe(debt)
    expect(debt).toBeGreaterThanOrEqual(DEMO_POSITIONS.morphoBorrowUsdc)
    relClose(b.healthFactor, Number(maxBorrow) / Number(debt))
    // Oracle price at health 1, in USDC per WETH: debt × 1e36 / (collateral × lltv) scaled by 10^(18 − 6) / 1e36.
    const liq = ((Number(debt) * 1e18) / (Number(collateral) * Number(marketParams.lltv))) * 1e12
    relClose(b.liquidationPrice, liq)
    relClose(b.price, (Number(price) / 1e36) * 1e12)
    relClose(b.liquidationDistancePct, (1 - liq / ((Number(price) / 1e36) * 1e12)) * 100, 1e-5)
    expect(b.liquidatable).toBe(false)
    expect(b.lltv).toBe(Number(marketParams.lltv) / 1e18)
    relClose(b.borrowApy, Math.expm1((Number(rate) / 1e18) * 31_536_000), 1e-6)

    // MetaMorpho deposit: shares and assets from the vault, earnings = assets − the seeded 10,000 USDC.
    const metaMorpho = p.vaults.filter((v) => v.protocol === 'metamorpho')
    expect(metaMorpho).toHaveLength(1)
    const v = metaMorpho[0] as Positions['vaults'][number]
    const shares = await chain.readContract({
      address: v.vault as Address,
      abi: vaultAbi,
      functionName: 'balanceOf',
      args: [DEMO],
      blockNumber: block,
    })
    expect(BigInt(v.shares)).toBe(shares)
    const assets = await readAt<bigint>(
      v.vault as Address,
      vaultAbi,
      'convertToAssets',
      [shares],
      block,
      asOf,
    )
    expect(BigInt(v.assets)).toBe(assets)
    expect(v.earnings).toBe((assets - DEMO_POSITIONS.vaultDepositUsdc).toString())
    expect(v.earningsNote).toBeNull()
    const catalog = await wrapFetchWithPayment(fetch, payer(2).client)(`${svc.url}/v1/earn/vaults`)
    const listed = (getVaultsRoute.output.parse(await catalog.json()) as Vaults).vaults.find(
      (x) => getAddress(x.address) === getAddress(v.vault),
    )
    expect(v.apy).toBe(listed?.netApy)

    // gTrade: the open ETH long is the one position; the resting LIMIT (same wallet) is not.
    const slots = await chain.readContract({
      address: BASE_ADDRESSES.GtradeDiamond,
      abi: gtradeAbi,
      functionName: 'getTrades',
      args: [DEMO],
      blockNumber: block,
    })
    const open = slots.filter((t) => t.isOpen && t.tradeType === 0)
    const resting = slots.filter((t) => t.isOpen && t.tradeType !== 0)
    expect(open).toHaveLength(1)
    expect(resting.length).toBeGreaterThan(0)
    expect(p.trades.map((t) => t.index)).toEqual(open.map((t) => t.index))
    const t = p.trades[0] as Positions['trades'][number]
    const chainTrade = open[0] as (typeof open)[number]
    expect(t.pair).toBe('ETH/USD')
    expect(t.long).toBe(true)
    expect(t.leverage).toBe(chainTrade.leverage / 1000)
    expect(t.entry).toBe(Number(chainTrade.openPrice) / 1e10)
    expect(t.collateralUsdc).toBe(Number(chainTrade.collateralAmount) / 1e6)
    for (const r of resting) expect(p.trades.some((x) => x.index === r.index)).toBe(false)

    // Midnight: every listed position equals position(id, owner) and collateral(id, owner, i) at the block;
    // health = Σ collateral × oracle price / 1e36 × lltv / 1e18 over the debt.
    expect(p.fixed.length).toBeGreaterThan(0)
    for (const f of p.fixed) {
      const id = f.marketId as Hex
      const at = { address: BASE_ADDRESSES.MorphoMidnight, abi: midnightAbi, blockNumber: block } as const
      const [credit, , , , fixedDebt] = await chain.readContract({
        ...at,
        functionName: 'position',
        args: [id, DEMO],
      })
      expect(BigInt(f.credit)).toBe(credit)
      expect(BigInt(f.debt)).toBe(fixedDebt)
      const market = await chain.readContract({
        ...at,
        abi: midnightReadAbi,
        functionName: 'toMarket',
        args: [id],
      })
      let maxDebt = 0n
      const held: { token: Address; amount: string }[] = []
      for (const [i, c] of market.collateralParams.entries()) {
        const amount = await chain.readContract({
          ...at,
          functionName: 'collateral',
          args: [id, DEMO, BigInt(i)],
        })
        if (amount === 0n) continue
        held.push({ token: getAddress(c.token), amount: amount.toString() })
        const cPrice = await chain.readContract({
          address: c.oracle,
          abi: oracleAbi,
          functionName: 'price',
          blockNumber: block,
        })
        maxDebt += (((amount * cPrice) / 10n ** 36n) * c.lltv) / WAD
      }
      expect(f.collaterals.map((c) => ({ token: getAddress(c.token), amount: c.amount }))).toEqual(held)
      if (fixedDebt > 0n && held.length === 1) relClose(f.healthFactor, Number(maxDebt) / Number(fixedDebt))
      else expect(f.healthFactor).toBeNull()
    }
  })

  test('behavior: an Aave v3 supply and borrow — account health, amounts and earnings against the Pool', async () => {
    const w = await sw.freshWallet(0n, parseUnits('5', 18))
    const wallet = walletOf(w.privateKey)
    const me = wallet.account.address
    const supplied = parseUnits('2', 18)
    const borrowed = parseUnits('1000', 6)
    await mined(
      wallet.writeContract({
        address: BASE_ADDRESSES.WETH,
        abi: wethAbi,
        functionName: 'deposit',
        value: supplied,
      }),
    )
    await mined(
      wallet.writeContract({
        address: BASE_ADDRESSES.WETH,
        abi: erc20Abi,
        functionName: 'approve',
        args: [BASE_ADDRESSES.AavePool, supplied],
      }),
    )
    await mined(
      wallet.writeContract({
        address: BASE_ADDRESSES.AavePool,
        abi: aavePoolAbi,
        functionName: 'supply',
        args: [BASE_ADDRESSES.WETH, supplied, me, 0],
      }),
    )
    await mined(
      wallet.writeContract({
        address: BASE_ADDRESSES.AavePool,
        abi: aavePoolAbi,
        functionName: 'borrow',
        args: [BASE_ADDRESSES.USDC, borrowed, 2n, 0, me],
      }),
    )

    const p = await positionsOf(me)
    const block = BigInt(p.block?.number ?? -1)
    const asOf = p.asOf as number
    expect(p.borrows).toEqual([])
    const aave = p.aave
    expect(aave).not.toBeNull()
    const account = await readAt<readonly bigint[]>(
      BASE_ADDRESSES.AavePool,
      aavePoolAbi,
      'getUserAccountData',
      [me],
      block,
      asOf,
    )
    relClose(aave?.healthFactor ?? null, Number(account[5]) / 1e18, 1e-9)
    relClose(aave?.totalCollateralUsd ?? null, Number(account[0]) / 1e8, 1e-9)
    relClose(aave?.totalDebtUsd ?? null, Number(account[1]) / 1e8, 1e-9)
    expect(aave?.liquidationThreshold).toBe(Number(account[3]) / 10_000)
    expect(aave?.liquidatable).toBe(false)
    const weth = await chain.readContract({
      address: BASE_ADDRESSES.AavePool,
      abi: aavePoolAbi,
      functionName: 'getReserveData',
      args: [BASE_ADDRESSES.WETH],
      blockNumber: block,
    })
    const usdc = await chain.readContract({
      address: BASE_ADDRESSES.AavePool,
      abi: aavePoolAbi,
      functionName: 'getReserveData',
      args: [BASE_ADDRESSES.USDC],
      blockNumber: block,
    })
    const aWeth = await readAt<bigint>(weth.aTokenAddress, erc20Abi, 'balanceOf', [me], block, asOf)
    const usdcDebt = await readAt<bigint>(
      usdc.variableDebtTokenAddress,
      erc20Abi,
      'balanceOf',
      [me],
      block,
      asOf,
    )
    expect(aave?.supplied).toEqual([
      { asset: getAddress(BASE_ADDRESSES.WETH), symbol: 'WETH', amount: aWeth.toString() },
    ])
    expect(aave?.borrowed).toEqual([
      { asset: getAddress(BASE_ADDRESSES.USDC), symbol: 'USDC', amount: usdcDebt.toString() },
    ])
    expect(usdcDebt).toBeGreaterThanOrEqual(borrowed)
    // The aToken is also a deposit: earnings = balance − the 2 WETH the Supply event recorded.
    const deposit = p.vaults.find((v) => v.protocol === 'aave-v3')
    expect(getAddress(deposit?.vault as string)).toBe(getAddress(weth.aTokenAddress))
    expect(deposit?.assets).toBe(aWeth.toString())
    expect(deposit?.earnings).toBe((aWeth - supplied).toString())
  })

  test('behavior: vault shares moved by transfer — earnings null with the reason, for sender and receiver', async () => {
    const from = await sw.freshWallet(parseUnits('100', 6), parseUnits('1', 16))
    const to = await sw.freshWallet(0n)
    const wallet = walletOf(from.privateKey)
    const demo = await positionsOf(DEMO)
    const vault = demo.vaults.find((v) => v.protocol === 'metamorpho')?.vault as Address
    await mined(
      wallet.writeContract({
        address: BASE_ADDRESSES.USDC,
        abi: erc20Abi,
        functionName: 'approve',
        args: [vault, parseUnits('100', 6)],
      }),
    )
    await mined(
      wallet.writeContract({
        address: vault,
        abi: vaultAbi,
        functionName: 'deposit',
        args: [parseUnits('100', 6), wallet.account.address],
      }),
    )
    const [before] = (await positionsOf(wallet.account.address)).vaults
    expect(before?.earningsNote).toBeNull()
    expect(BigInt(before?.earnings ?? 'x') + parseUnits('100', 6)).toBe(BigInt(before?.assets ?? 'x'))
    const shares = BigInt(before?.shares ?? '0')
    await mined(
      wallet.writeContract({
        address: vault,
        abi: vaultAbi,
        functionName: 'transfer',
        args: [to.account.address, shares / 2n],
      }),
    )
    const [sender, receiver] = await Promise.all([
      positionsOf(wallet.account.address),
      positionsOf(to.account.address),
    ])
    for (const p of [sender, receiver]) {
      expect(p.vaults).toHaveLength(1)
      expect(p.vaults[0]?.earnings).toBeNull()
      expect(p.vaults[0]?.earningsNote).toMatch(/transfer/)
    }
    expect(BigInt(receiver.vaults[0]?.shares ?? '0')).toBe(shares / 2n)
  })

  test('default: an address with nothing is a 200 with empty sections', async () => {
    const nobody = privateKeyToAccount(`0x${'7'.repeat(64)}`).address
    const p = await positionsOf(nobody)
    expect(p).toMatchObject({ borrows: [], aave: null, vaults: [], trades: [], fixed: [] })
    expect(Object.values(p.sources).every((s) => s.ok)).toBe(true)
  })

  test('error: a malformed address is a 400 naming `address`, and nothing is charged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const res = await wrapFetchWithPayment(fetch, who.client)(`${svc.url}/v1/positions/0x12`)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { field?: string } }).error.field).toBe('address')
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
  })

  test('behavior: the Midnight API down empties only the fixed section and says so', async () => {
    const broken = await sw.instance({ MORPHO_API_URL: 'http://127.0.0.1:9' })
    const p = await positionsOf(DEMO, broken)
    expect(p.sources.midnight.ok).toBe(false)
    expect(p.fixed).toEqual([])
    expect(p.borrows).toHaveLength(1)
    expect(p.trades).toHaveLength(1)
    expect(p.sources.lending).toEqual({ ok: true })
  })
})
