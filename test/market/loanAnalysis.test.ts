import { wrapFetchWithPayment } from '@x402/fetch'
import { erc20Abi, getAddress, type Hex, type PublicClient, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { morphoAbi } from '../../src/chain/morpho.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { DEVNET_ADDRESSES } from '../../src/devnet/addresses.js'
import { demoAccounts, devnetDeployer } from '../../src/devnet/devnetAccounts.js'
import type { getLoanAnalysis } from '../../src/market/loan/getLoanAnalysis.js'
import type { getPositions } from '../../src/market/positions/getPositions.js'
import { getLoanAnalysisRoute } from '../../src/routes/loan/getLoanAnalysis.js'
import { getPositionsRoute } from '../../src/routes/positions/getPositions.js'
import { devnetWallet, RECEIPT, relClose } from '../helpers/chainChecks.js'
import { morphoBorrowTruth } from '../helpers/morphoTruth.js'
import { type Instance, payer, type ServiceWorld, startServiceWorld } from '../helpers/serviceWorld.js'

// Loan analysis of demo account #1's Morpho borrow, checked against the chain with this file's own
// arithmetic (test/helpers/morphoTruth.ts), then the chain is moved — a repay built from the analysis,
// an oracle drop — and the analysis must follow, up to a liquidation the chain itself accepts.
// The steps run in order on one world: each starts from the state the previous one left.
const DEMO = demoAccounts[1] as (typeof demoAccounts)[number]
const OWNER = getAddress(DEMO.address)
const WAD = 10n ** 18n

type Analysis = Awaited<ReturnType<typeof getLoanAnalysis>>
type Positions = Awaited<ReturnType<typeof getPositions>>
type Position = Analysis['positions'][number]

const feedAbi = parseAbi([
  'function setAnswer(int256 answer)',
  'function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)',
])
const liquidateAbi = parseAbi([
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'function liquidate(MarketParams marketParams, address borrower, uint256 seizedAssets, uint256 repaidShares, bytes data) returns (uint256, uint256)',
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

const pay = () => wrapFetchWithPayment(fetch, payer(2).client)

async function analysisOf(query = ''): Promise<Analysis> {
  const res = await pay()(`${svc.url}/v1/loan/analysis/${OWNER}${query}`)
  expect(res.status).toBe(200)
  return getLoanAnalysisRoute.output.parse(await res.json()) as Analysis
}

const walletOf = (privateKey: Hex) => devnetWallet(chain, privateKey)

/** Health at a price, this file's arithmetic: ⌊⌊c × p / 1e36⌋ × lltv / 1e18⌋ / debt. */
function healthAt(collateral: bigint, price: bigint, lltv: bigint, debt: bigint): number {
  return Number((((collateral * price) / 10n ** 36n) * lltv) / WAD) / Number(debt)
}

/** The one Morpho position of the answer, checked figure by figure against the chain at the answer's block. */
async function checkMorpho(
  a: Analysis,
): Promise<{ p: Position; truth: Awaited<ReturnType<typeof morphoBorrowTruth>> }> {
  const morpho = a.positions.filter((p) => p.protocol === 'morpho-blue')
  expect(morpho).toHaveLength(1)
  const p = morpho[0] as Position
  const block = BigInt(a.block?.number ?? -1)
  const truth = await morphoBorrowTruth(chain, p.marketId as Hex, OWNER, block, a.asOf as number)
  const { collateral, debt, price, params, maxBorrow, rate } = truth
  expect(p.collateral).toBe(collateral.toString())
  expect(p.debt).toBe(debt.toString())
  const human = (scaled: number) => (scaled / 1e36) * 1e12 // USDC per WETH
  relClose(p.price, human(Number(price)))
  relClose(p.healthFactor, Number(maxBorrow) / Number(debt))
  const liq = human((Number(debt) * 1e36 * 1e18) / (Number(collateral) * Number(params.lltv)))
  relClose(p.liquidationPrice, liq)
  relClose(p.liquidationDistancePct, (1 - liq / human(Number(price))) * 100, 1e-5)
  expect(p.status).toBe(maxBorrow <= debt ? 'liquidatable' : 'solvent')
  // Time to liquidation from interest alone: debt × e^(r t) = maxBorrow.
  const r = Number(rate) / 1e18
  if (maxBorrow <= debt) expect(p.timeToLiquidationSec).toBe(0)
  else relClose(p.timeToLiquidationSec, Math.log(Number(maxBorrow) / Number(debt)) / r, 1e-6)
  // Stress: the oracle price × 0.9, 0.8, 0.7, rounded down, the same health formula.
  expect(p.stress.map((s) => s.priceChangePct)).toEqual([-10, -20, -30])
  for (const s of p.stress) {
    const stressed = (price * BigInt(100 + s.priceChangePct)) / 100n
    relClose(s.price, human(Number(stressed)))
    relClose(s.healthFactor, healthAt(collateral, stressed, params.lltv, debt))
    expect(s.liquidatable).toBe(healthAt(collateral, stressed, params.lltv, debt) <= 1)
  }
  return { p, truth }
}

describe('GET /v1/loan/analysis/{address} (paid with @x402/fetch), moving the chain', () => {
  test('behavior: account #1 at the default target 1.5 — healthy, figures from the chain, nothing to restore', async () => {
    const a = await analysisOf()
    expect(a.targetHealth).toBe(1.5)
    expect(a.sources).toEqual({ lending: { ok: true }, midnight: { ok: true } })
    const { p } = await checkMorpho(a)
    expect(p.status).toBe('solvent')
    expect(p.healthFactor as number).toBeGreaterThan(1.5)
    expect(p.restore).toEqual({ targetHealth: 1.5, repay: null, supplyCollateral: null })
    expect(p.advice).toMatch(/^Healthy/)
  })

  test('behavior: a target above today’s health gives the least repay and collateral; the repay body, built and broadcast, lifts health onchain above the target', async () => {
    const before = await analysisOf()
    const current = (before.positions.find((p) => p.protocol === 'morpho-blue') as Position)
      .healthFactor as number
    const target = Math.round((current + 1) * 100) / 100
    const a = await analysisOf(`?targetHealth=${target}`)
    const { p, truth } = await checkMorpho(a)
    const { collateral, debt, price, params } = truth
    const targetWad = BigInt(Math.round(target * 1e6)) * 10n ** 12n
    const capacity = (c: bigint) => (((c * price) / 10n ** 36n) * params.lltv) / WAD
    const reaches = (c: bigint, d: bigint) => capacity(c) * WAD >= targetWad * d
    // Least amounts: reaching the target with them, not with one atomic unit less.
    const repay = BigInt(p.restore.repay?.assets ?? '-1')
    expect(reaches(collateral, debt - repay)).toBe(true)
    expect(reaches(collateral, debt - repay + 1n)).toBe(false)
    const add = BigInt(p.restore.supplyCollateral?.assets ?? '-1')
    expect(reaches(collateral + add, debt)).toBe(true)
    expect(reaches(collateral + add - 1n, debt)).toBe(false)
    expect(p.restore.supplyCollateral?.builder).toEqual({
      method: 'POST',
      path: '/v1/tx/loan/supply-collateral',
      body: { marketId: p.marketId, assets: expect.stringMatching(/^\d+$/), owner: OWNER },
    })

    // The builder inputs as given: paid, built, every step broadcast from account #1.
    const call = p.restore.repay?.builder
    expect(call?.path).toBe('/v1/tx/loan/repay')
    expect(BigInt(call?.body.assets ?? '0')).toBeGreaterThanOrEqual(repay)
    const built = await pay()(`${svc.url}${call?.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call?.body),
    })
    expect(built.status).toBe(200)
    const { steps } = (await built.json()) as { steps: { to: Hex; data: Hex; value: string }[] }
    const wallet = walletOf(DEMO.privateKey)
    for (const step of steps) {
      const hash = await wallet.sendTransaction({ to: step.to, data: step.data, value: BigInt(step.value) })
      expect((await pollReceipt(chain, hash, RECEIPT)).status).toBe('success')
    }
    const head = await chain.getBlock()
    const after = await morphoBorrowTruth(
      chain,
      p.marketId as Hex,
      OWNER,
      head.number,
      Number(head.timestamp),
    )
    expect(after.maxBorrow * WAD >= targetWad * after.debt).toBe(true)
    const again = await analysisOf(`?targetHealth=${target}`)
    const { p: now } = await checkMorpho(again)
    expect(now.healthFactor as number).toBeGreaterThanOrEqual(target)
    expect(now.restore.repay).toBeNull()
  })

  test('behavior: the ETH feed drops — health, liquidation distance and the stress table follow, then past health 1 it is liquidatable, and the chain agrees', async () => {
    const before = await analysisOf()
    const { p: p0, truth: t0 } = await checkMorpho(before)
    const deployer = walletOf(devnetDeployer.privateKey)
    const [, answer] = await chain.readContract({
      address: DEVNET_ADDRESSES.ETH_USD_FEED,
      abi: feedAbi,
      functionName: 'latestRoundData',
    })
    // The world's keeper sends from the deployer too: take turns with it, or the nonces race.
    const setEth = (a: bigint) =>
      sw.world.asDeployer(async () => {
        const hash = await deployer.writeContract({
          address: DEVNET_ADDRESSES.ETH_USD_FEED,
          abi: feedAbi,
          functionName: 'setAnswer',
          args: [a],
        })
        expect((await pollReceipt(chain, hash, RECEIPT)).status).toBe('success')
      })

    // A 25% drop: still solvent; health and distance shrink with the price.
    await setEth((answer * 75n) / 100n)
    const dropped = await analysisOf()
    const { p: p1, truth: t1 } = await checkMorpho(dropped)
    relClose(p1.price, (p0.price as number) * 0.75, 1e-4)
    expect(p1.healthFactor as number).toBeLessThan(p0.healthFactor as number)
    expect(p1.liquidationDistancePct as number).toBeLessThan(p0.liquidationDistancePct as number)
    expect(t1.price).toBeLessThan(t0.price)

    // Below the liquidation price: liquidatable, distance ≤ 0, no time left, restore amounts to reach 1.5.
    const liq = p1.liquidationPrice as number
    await setEth(BigInt(Math.floor(((liq * 0.9) / (p1.price as number)) * Number((answer * 75n) / 100n))))
    const broken = await analysisOf()
    const { p: p2, truth: t2 } = await checkMorpho(broken)
    expect(p2.status).toBe('liquidatable')
    expect(p2.healthFactor as number).toBeLessThanOrEqual(1)
    expect(p2.liquidationDistancePct as number).toBeLessThanOrEqual(0)
    expect(p2.timeToLiquidationSec).toBe(0)
    expect(p2.advice).toMatch(/^Liquidatable/)
    expect(p2.restore.repay).not.toBeNull()
    const res = await pay()(`${svc.url}/v1/positions/${OWNER}`)
    const positions = getPositionsRoute.output.parse(await res.json()) as Positions
    expect(positions.borrows[0]?.liquidatable).toBe(true)

    // The chain agrees: a liquidator repays a tenth of the borrow shares and seizes collateral.
    const liquidator = walletOf((demoAccounts[4] as (typeof demoAccounts)[number]).privateKey)
    const approve = await liquidator.writeContract({
      address: BASE_ADDRESSES.USDC,
      abi: erc20Abi,
      functionName: 'approve',
      args: [BASE_ADDRESSES.MorphoBlue, t2.debt],
    })
    await pollReceipt(chain, approve, RECEIPT)
    const hash = await liquidator.writeContract({
      address: BASE_ADDRESSES.MorphoBlue,
      abi: liquidateAbi,
      functionName: 'liquidate',
      args: [t2.params, OWNER, 0n, t2.borrowShares / 10n, '0x'],
    })
    expect((await pollReceipt(chain, hash, RECEIPT)).status).toBe('success')
    const [, sharesAfter, collateralAfter] = await chain.readContract({
      address: BASE_ADDRESSES.MorphoBlue,
      abi: morphoAbi,
      functionName: 'position',
      args: [p2.marketId as Hex, OWNER],
    })
    expect(sharesAfter).toBe(t2.borrowShares - t2.borrowShares / 10n)
    expect(collateralAfter).toBeLessThan(t2.collateral)
  })

  test('error: targetHealth at or below 1, or not a number, is a 400 naming it, and nothing is charged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    for (const bad of ['1', '0.5', 'abc', '101']) {
      const res = await wrapFetchWithPayment(
        fetch,
        who.client,
      )(`${svc.url}/v1/loan/analysis/${OWNER}?targetHealth=${bad}`)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: { field?: string } }).error.field).toBe('targetHealth')
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
  })

  test('default: an address with no borrow is a 200 with no positions', async () => {
    const nobody = privateKeyToAccount(`0x${'6'.repeat(64)}`).address
    const res = await pay()(`${svc.url}/v1/loan/analysis/${nobody}`)
    expect(res.status).toBe(200)
    const a = getLoanAnalysisRoute.output.parse(await res.json()) as Analysis
    expect(a.positions).toEqual([])
    expect(a.skipped).toEqual([])
  })
})
