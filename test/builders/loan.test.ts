import {
  type Address,
  createPublicClient,
  decodeFunctionData,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  parseUnits,
  toHex,
} from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { createBuilderEngine } from '../../src/builders/builderEngine.js'
import type { LoanBorrowAction } from '../../src/builders/loan/loanBorrow.js'
import type { LoanRepayAction } from '../../src/builders/loan/loanRepay.js'
import {
  buildLoanSupplyCollateral,
  type LoanSupplyCollateralAction,
} from '../../src/builders/loan/loanSupplyCollateral.js'
import type { LoanWithdrawCollateralAction } from '../../src/builders/loan/loanWithdrawCollateral.js'
import type { BuilderEnvelope } from '../../src/builders/txStep.js'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { morphoIrmAbi } from '../../src/chain/lendingAbis.js'
import { DEVNET_LENDING_CATALOG } from '../../src/chain/lendingCatalog.js'
import { type MorphoMarketParams, morphoAbi, morphoMarketId } from '../../src/chain/morpho.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import {
  broadcast,
  builderClient,
  devnetBook,
  expectEnvelope,
  ownerWallet,
  selectorOf,
} from '../helpers/builderCalls.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The Morpho Blue loan builders on the devnet's WETH/USDC 86% market, paid with the official x402
// client, broadcast from demo accounts, and checked against Morpho's position(), the tokens' balances and
// an independent recomputation of the debt (the IRM's borrowRateView + Morpho's accrual formula, here).
const MORPHO = BASE_ADDRESSES.MorphoBlue
const USDC = BASE_ADDRESSES.USDC
const WETH = BASE_ADDRESSES.WETH
const MARKET = DEVNET_LENDING_CATALOG.morphoMarkets[0] as Hex // WETH/USDC 86%
const APPROVE = '0x095ea7b3'
const SUPPLY_COLLATERAL = '0x238d6579'
const BORROW = '0x50d8cd4b'
const REPAY = '0x20b76e81'
const WITHDRAW_COLLATERAL = '0x8720316d'
const oracleAbi = parseAbi(['function price() view returns (uint256)'])

const sw = useWorld()
const svc = useInstance(sw)
const client = builderClient(sw, svc)
let params: MorphoMarketParams

beforeAll(async () => {
  const [loanToken, collateralToken, oracle, irm, lltv] = await sw.chain.readContract({
    address: MORPHO,
    abi: morphoAbi,
    functionName: 'idToMarketParams',
    args: [MARKET],
  })
  params = { loanToken, collateralToken, oracle, irm, lltv }
}, 120_000)

// --- Independent truth: Morpho's math written out again, fed by the IRM and the raw market ---
const WAD = 10n ** 18n
const mulDivUp = (x: bigint, y: bigint, d: bigint) => (x * y + d - 1n) / d
const toAssetsUp = (shares: bigint, t: Totals) =>
  mulDivUp(shares, t.borrowAssets + 1n, t.borrowShares + 10n ** 6n)
const toSharesUp = (assets: bigint, t: Totals) =>
  mulDivUp(assets, t.borrowShares + 10n ** 6n, t.borrowAssets + 1n)
const toSharesDown = (assets: bigint, t: Totals) =>
  (assets * (t.borrowShares + 10n ** 6n)) / (t.borrowAssets + 1n)
/** MathLib.wTaylorCompounded: e^(rate × elapsed) − 1, three terms. */
function wTaylorCompounded(x: bigint, n: bigint): bigint {
  const first = x * n
  const second = (first * first) / (2n * WAD)
  const third = (second * first) / (3n * WAD)
  return first + second + third
}

interface Totals {
  borrowAssets: bigint
  borrowShares: bigint
}

/** The market's borrow totals accrued to `time`, from the state at `block`: the IRM's rate, Morpho's formula. */
async function totalsAt(block: bigint, time: bigint): Promise<Totals> {
  const m = await sw.chain.readContract({
    address: MORPHO,
    abi: morphoAbi,
    functionName: 'market',
    args: [MARKET],
    blockNumber: block,
  })
  const market = {
    totalSupplyAssets: m[0],
    totalSupplyShares: m[1],
    totalBorrowAssets: m[2],
    totalBorrowShares: m[3],
    lastUpdate: m[4],
    fee: m[5],
  }
  const elapsed = time - market.lastUpdate
  if (elapsed === 0n)
    return { borrowAssets: market.totalBorrowAssets, borrowShares: market.totalBorrowShares }
  const answer = await sw.chain.call({
    to: params.irm,
    data: encodeFunctionData({ abi: morphoIrmAbi, functionName: 'borrowRateView', args: [params, market] }),
    blockNumber: block,
    blockOverrides: { time },
  })
  const rate = decodeFunctionResult({
    abi: morphoIrmAbi,
    functionName: 'borrowRateView',
    data: answer.data as Hex,
  })
  const interest = (market.totalBorrowAssets * wTaylorCompounded(rate, elapsed)) / WAD
  return { borrowAssets: market.totalBorrowAssets + interest, borrowShares: market.totalBorrowShares }
}

const timestampOf = async (block: bigint) => (await sw.chain.getBlock({ blockNumber: block })).timestamp

async function positionOf(who: Address, block?: bigint) {
  const [, borrowShares, collateral] = await sw.chain.readContract({
    address: MORPHO,
    abi: morphoAbi,
    functionName: 'position',
    args: [MARKET, who],
    ...(block === undefined ? {} : { blockNumber: block }),
  })
  return { borrowShares, collateral }
}

const priceAt = (block: bigint) =>
  sw.chain.readContract({ address: params.oracle, abi: oracleAbi, functionName: 'price', blockNumber: block })
const balanceOf = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
const allowanceOf = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [who, MORPHO] })

const maxBorrowOf = (collateral: bigint, price: bigint) =>
  (((collateral * price) / 10n ** 36n) * params.lltv) / WAD

/**
 * What every loan action reports about the position after the bundle, recomputed at the block the quote
 * was read on (the simulation's base block): the debt accrued to that block's timestamp.
 */
async function expectPositionFields(
  action: LoanSupplyCollateralAction | LoanBorrowAction | LoanRepayAction | LoanWithdrawCollateralAction,
  block: bigint,
  after: { collateral: bigint; borrowShares: bigint; debt: bigint },
) {
  const [time, price] = await Promise.all([timestampOf(block), priceAt(block)])
  const maxBorrow = maxBorrowOf(after.collateral, price)
  expect(action).toMatchObject({
    marketId: MARKET,
    loanToken: USDC,
    collateralToken: WETH,
    accruedTo: Number(time),
    oraclePrice: price.toString(),
    collateralAfter: after.collateral.toString(),
    borrowSharesAfter: after.borrowShares.toString(),
    debtAfter: after.debt.toString(),
    maxBorrowAfter: maxBorrow.toString(),
    healthAfter: after.borrowShares === 0n ? null : Number((maxBorrow * WAD) / after.debt) / 1e18,
  })
}

/** The approve step's (spender, amount), or null when the bundle has none. */
function approveOf(built: BuilderEnvelope<unknown>): readonly [Address, bigint] | null {
  const step = built.steps.find((s) => selectorOf(s.data) === APPROVE)
  if (step === undefined) return null
  const decoded = decodeFunctionData({ abi: erc20Abi, data: step.data as Hex })
  return decoded.functionName === 'approve' ? decoded.args : null
}

/** The Morpho call's arguments (the suffix after the ABI-encoded arguments is ignored by the decoder). */
function morphoArgs(built: BuilderEnvelope<unknown>) {
  const step = built.steps.at(-1)
  expect(step?.to).toBe(MORPHO)
  return decodeFunctionData({ abi: morphoAbi, data: step?.data as Hex })
}

describe('loan builders (Morpho Blue)', () => {
  test('behavior: the whole lifecycle of one account executes onchain as quoted, ending with nothing owed and nothing left', async () => {
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    const collateral = parseUnits('10', 18)

    // 1. Supply collateral: an exact approve of the WETH to Morpho, then supplyCollateral.
    const supplyBody = { marketId: MARKET, assets: collateral.toString(), owner: me }
    const first = await client.post<LoanSupplyCollateralAction>('/v1/tx/loan/supply-collateral', supplyBody)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.charged).toBeGreaterThan(0n)
    expectEnvelope(first.body, me)
    expect(first.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, SUPPLY_COLLATERAL])
    expect(first.body.steps[0]?.to).toBe(WETH)
    expect(approveOf(first.body)).toEqual([MORPHO, collateral])
    expect(first.body.issues.allowance).toEqual({
      token: WETH,
      spender: MORPHO,
      actual: '0',
      expected: collateral.toString(),
    })
    await expectPositionFields(first.body.action, BigInt(first.body.simulation.blockNumber), {
      collateral,
      borrowShares: 0n,
      debt: 0n,
    })
    // Broadcast only the approve (say the quote expired), then build again: no approve step.
    await broadcast(sw.chain, owner, { ...first.body, steps: first.body.steps.slice(0, 1) })
    expect(await allowanceOf(WETH, me)).toBe(collateral)
    const supply = await client.post<LoanSupplyCollateralAction>('/v1/tx/loan/supply-collateral', supplyBody)
    expect(supply.status, JSON.stringify(supply.body)).toBe(200)
    expectEnvelope(supply.body, me)
    expect(supply.body.steps.map((s) => selectorOf(s.data))).toEqual([SUPPLY_COLLATERAL])
    expect(supply.body.issues.allowance).toBeNull()
    const supplied = morphoArgs(supply.body)
    expect(supplied.functionName).toBe('supplyCollateral')
    expect(supplied.args).toEqual([params, collateral, me, '0x'])
    expect(supply.body.simulation.balanceChanges).toEqual([
      expect.objectContaining({ token: WETH, delta: (-collateral).toString() }),
    ])
    await expectPositionFields(supply.body.action, BigInt(supply.body.simulation.blockNumber), {
      collateral,
      borrowShares: 0n,
      debt: 0n,
    })
    const wethBefore = await balanceOf(WETH, me)
    await broadcast(sw.chain, owner, supply.body)
    expect(wethBefore - (await balanceOf(WETH, me))).toBe(collateral)
    expect(await positionOf(me)).toEqual({ collateral, borrowShares: 0n })
    expect(await allowanceOf(WETH, me)).toBe(0n)

    // 2. Borrow 5,000 USDC: shares and debt as Morpho computes them at the quote's block.
    const borrowed = 5_000_000_000n
    const borrow = await client.post<LoanBorrowAction>('/v1/tx/loan/borrow', {
      marketId: MARKET,
      assets: borrowed.toString(),
      owner: me,
    })
    expect(borrow.status, JSON.stringify(borrow.body)).toBe(200)
    expectEnvelope(borrow.body, me)
    expect(borrow.body.steps.map((s) => selectorOf(s.data))).toEqual([BORROW])
    expect(morphoArgs(borrow.body).args).toEqual([params, borrowed, 0n, me, me])
    expect(borrow.body.simulation.balanceChanges).toEqual([
      expect.objectContaining({ token: USDC, delta: borrowed.toString() }),
    ])
    {
      const block = BigInt(borrow.body.simulation.blockNumber)
      const t = await totalsAt(block, await timestampOf(block))
      const shares = toSharesUp(borrowed, t)
      expect(borrow.body.action.shares).toBe(shares.toString())
      const debt = toAssetsUp(shares, {
        borrowAssets: t.borrowAssets + borrowed,
        borrowShares: t.borrowShares + shares,
      })
      await expectPositionFields(borrow.body.action, block, { collateral, borrowShares: shares, debt })
      expect(borrow.body.action.healthAfter).toBeGreaterThan(1)
    }
    const usdcBeforeBorrow = await balanceOf(USDC, me)
    await broadcast(sw.chain, owner, borrow.body)
    expect((await balanceOf(USDC, me)) - usdcBeforeBorrow).toBe(borrowed)
    // Interest accrued before inclusion: at most the quoted shares, within 1e-6.
    const afterBorrow = await positionOf(me)
    const quotedShares = BigInt(borrow.body.action.shares)
    expect(afterBorrow.collateral).toBe(collateral)
    expect(afterBorrow.borrowShares <= quotedShares).toBe(true)
    expect(afterBorrow.borrowShares >= quotedShares - quotedShares / 1_000_000n).toBe(true)

    // 3. Repay part (2,000 USDC) by assets: exact approve, exactly that much leaves the wallet.
    const part = 2_000_000_000n
    const repayPart = await client.post<LoanRepayAction>('/v1/tx/loan/repay', {
      marketId: MARKET,
      assets: part.toString(),
      owner: me,
    })
    expect(repayPart.status, JSON.stringify(repayPart.body)).toBe(200)
    expectEnvelope(repayPart.body, me)
    expect(repayPart.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, REPAY])
    expect(approveOf(repayPart.body)).toEqual([MORPHO, part])
    expect(morphoArgs(repayPart.body).args).toEqual([params, part, 0n, me, '0x'])
    expect(repayPart.body.simulation.balanceChanges).toEqual([
      expect.objectContaining({ token: USDC, delta: (-part).toString() }),
    ])
    {
      const block = BigInt(repayPart.body.simulation.blockNumber)
      const t = await totalsAt(block, await timestampOf(block))
      const { borrowShares } = await positionOf(me, block)
      const burned = toSharesDown(part, t)
      const left = borrowShares - burned
      expect(repayPart.body.action).toMatchObject({
        mode: 'assets',
        shares: burned.toString(),
        debtBefore: toAssetsUp(borrowShares, t).toString(),
        maxRepaid: part.toString(),
      })
      const debt = toAssetsUp(left, {
        borrowAssets: t.borrowAssets - part,
        borrowShares: t.borrowShares - burned,
      })
      await expectPositionFields(repayPart.body.action, block, { collateral, borrowShares: left, debt })
    }
    const usdcBeforePart = await balanceOf(USDC, me)
    await broadcast(sw.chain, owner, repayPart.body)
    expect(usdcBeforePart - (await balanceOf(USDC, me))).toBe(part)
    expect(await allowanceOf(USDC, me)).toBe(0n)
    const afterPart = await positionOf(me)
    const burnedQuoted = BigInt(repayPart.body.action.shares)
    const burnedOnchain = afterBorrow.borrowShares - afterPart.borrowShares
    expect(burnedOnchain <= burnedQuoted && burnedOnchain >= burnedQuoted - burnedQuoted / 1_000_000n).toBe(
      true,
    )

    // 4. Repay all (assets above the debt): by shares, approving the debt accrued to expiresAt.
    const repayAll = await client.post<LoanRepayAction>('/v1/tx/loan/repay', {
      marketId: MARKET,
      assets: '1000000000000',
      owner: me,
    })
    expect(repayAll.status, JSON.stringify(repayAll.body)).toBe(200)
    expectEnvelope(repayAll.body, me)
    expect(repayAll.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, REPAY])
    const allShares = afterPart.borrowShares
    expect(morphoArgs(repayAll.body).args).toEqual([params, 0n, allShares, me, '0x'])
    const block = BigInt(repayAll.body.simulation.blockNumber)
    const atExpiry = await totalsAt(block, BigInt(repayAll.body.expiresAt))
    const maxRepaid = toAssetsUp(allShares, atExpiry)
    expect(approveOf(repayAll.body)).toEqual([MORPHO, maxRepaid])
    const debtBefore = toAssetsUp(allShares, await totalsAt(block, await timestampOf(block)))
    expect(repayAll.body.action).toMatchObject({
      mode: 'shares',
      shares: allShares.toString(),
      debtBefore: debtBefore.toString(),
      maxRepaid: maxRepaid.toString(),
    })
    expect(maxRepaid).toBeGreaterThan(debtBefore) // two minutes of interest on ~3,000 USDC
    // The simulated block pulls the debt as accrued then: between the quote's debt and the approve.
    const simulatedPull = -BigInt(repayAll.body.simulation.balanceChanges[0]?.delta ?? '0')
    expect(repayAll.body.simulation.balanceChanges[0]?.token).toBe(USDC)
    expect(simulatedPull >= debtBefore && simulatedPull <= maxRepaid).toBe(true)
    await expectPositionFields(repayAll.body.action, block, { collateral, borrowShares: 0n, debt: 0n })
    const usdcBeforeAll = await balanceOf(USDC, me)
    const receipts = await broadcast(sw.chain, owner, repayAll.body)
    const pulled = usdcBeforeAll - (await balanceOf(USDC, me))
    // No dust: the shares are gone; the pull was the debt accrued at the repay's block, within the approve.
    expect(await positionOf(me)).toEqual({ collateral, borrowShares: 0n })
    const repayBlock = receipts.at(-1)?.blockNumber as bigint
    const atRepay = await totalsAt(repayBlock - 1n, await timestampOf(repayBlock))
    expect(pulled).toBe(toAssetsUp(allShares, atRepay))
    expect(pulled >= debtBefore && pulled <= maxRepaid).toBe(true)
    expect(await allowanceOf(USDC, me)).toBe(maxRepaid - pulled)

    // 5. Withdraw all the collateral: no debt, so health does not bind.
    const withdraw = await client.post<LoanWithdrawCollateralAction>('/v1/tx/loan/withdraw-collateral', {
      marketId: MARKET,
      assets: collateral.toString(),
      owner: me,
    })
    expect(withdraw.status, JSON.stringify(withdraw.body)).toBe(200)
    expectEnvelope(withdraw.body, me)
    expect(withdraw.body.steps.map((s) => selectorOf(s.data))).toEqual([WITHDRAW_COLLATERAL])
    expect(morphoArgs(withdraw.body).args).toEqual([params, collateral, me, me])
    expect(withdraw.body.simulation.balanceChanges).toEqual([
      expect.objectContaining({ token: WETH, delta: collateral.toString() }),
    ])
    await expectPositionFields(withdraw.body.action, BigInt(withdraw.body.simulation.blockNumber), {
      collateral: 0n,
      borrowShares: 0n,
      debt: 0n,
    })
    const wethBeforeWithdraw = await balanceOf(WETH, me)
    await broadcast(sw.chain, owner, withdraw.body)
    expect((await balanceOf(WETH, me)) - wethBeforeWithdraw).toBe(collateral)
    expect(await positionOf(me)).toEqual({ collateral: 0n, borrowShares: 0n })
  }, 120_000)

  test('error: a borrow beyond the LLTV or a withdraw that leaves health ≤ 1 is a 422 with the health factor, uncharged', async () => {
    const owner = ownerWallet(sw, 3)
    const me = owner.account.address
    const collateral = parseUnits('1', 18)
    const supply = await client.post('/v1/tx/loan/supply-collateral', {
      marketId: MARKET,
      assets: collateral.toString(),
      owner: me,
    })
    expect(supply.status, JSON.stringify(supply.body)).toBe(200)
    await broadcast(sw.chain, owner, supply.body)

    /** The refusal's details, recomputed at the block it names. */
    async function expectUnhealthy(
      answer: Awaited<ReturnType<typeof client.post>>,
      after: (t: Totals) => { collateral: bigint; shares: bigint; totals: Totals },
    ) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(422)
      expect(answer.body.error).toMatchObject({ code: 'unhealthy_after', field: 'assets' })
      expect(answer.charged).toBe(0n)
      const details = answer.body.error?.details ?? {}
      const block = BigInt(details.blockNumber as string)
      const time = await timestampOf(block)
      const price = await priceAt(block)
      const a = after(await totalsAt(block, time))
      const debt = toAssetsUp(a.shares, a.totals)
      const maxBorrow = maxBorrowOf(a.collateral, price)
      const wad = (maxBorrow * WAD) / debt
      expect(wad <= WAD).toBe(true)
      expect(details).toEqual({
        healthFactor: Number(wad) / 1e18,
        healthFactorWad: wad.toString(),
        debtAfter: debt.toString(),
        maxBorrowAfter: maxBorrow.toString(),
        oraclePrice: price.toString(),
        accruedTo: Number(time),
        blockNumber: block.toString(),
      })
    }

    // One wei beyond the LLTV limit.
    const limit = maxBorrowOf(collateral, await priceAt(await sw.chain.getBlockNumber()))
    const tooMuch = await client.post('/v1/tx/loan/borrow', {
      marketId: MARKET,
      assets: (limit + 1n).toString(),
      owner: me,
    })
    await expectUnhealthy(tooMuch, (t) => {
      const shares = toSharesUp(limit + 1n, t)
      return {
        collateral,
        shares,
        totals: { borrowAssets: t.borrowAssets + limit + 1n, borrowShares: t.borrowShares + shares },
      }
    })

    // Borrow half the limit, then try to take 60% of the collateral back (health 0.5 / 0.4 → 0.8).
    const half = limit / 2n
    const borrow = await client.post('/v1/tx/loan/borrow', {
      marketId: MARKET,
      assets: half.toString(),
      owner: me,
    })
    expect(borrow.status, JSON.stringify(borrow.body)).toBe(200)
    await broadcast(sw.chain, owner, borrow.body)
    const { borrowShares } = await positionOf(me)
    const withdrawn = parseUnits('0.6', 18)
    const unhealthy = await client.post('/v1/tx/loan/withdraw-collateral', {
      marketId: MARKET,
      assets: withdrawn.toString(),
      owner: me,
    })
    await expectUnhealthy(unhealthy, (t) => ({
      collateral: collateral - withdrawn,
      shares: borrowShares,
      totals: t,
    }))
    expect(unhealthy.body.error?.details?.healthFactor).toBeCloseTo(0.8, 2)

    // More than the collateral: named before Morpho's underflow.
    const over = await client.post('/v1/tx/loan/withdraw-collateral', {
      marketId: MARKET,
      assets: (collateral + 1n).toString(),
      owner: me,
    })
    expect(over.status).toBe(422)
    expect(over.body.error).toMatchObject({ code: 'exceeds_collateral', field: 'assets' })
    expect(over.body.error?.details).toEqual({ collateral: collateral.toString() })
    expect(over.charged).toBe(0n)
    // Nothing moved.
    expect(await positionOf(me)).toEqual({ collateral, borrowShares })
  }, 120_000)

  test('attack: a real market outside the catalog, on listed tokens with an oracle its creator controls, is refused naming marketId, uncharged', async () => {
    // Morpho markets are permissionless: anyone can list WETH/USDC over an oracle of their own, which
    // could then price the caller's collateral at 0 and liquidate it.
    const creator = ownerWallet(sw, 5)
    const stranger: Address = '0x000000000000000000000000000000000000bEEF'
    const strangeParams = { ...params, oracle: stranger }
    const hash = await creator.writeContract({
      address: MORPHO,
      abi: morphoAbi,
      functionName: 'createMarket',
      args: [strangeParams],
    })
    expect((await pollReceipt(sw.chain, hash, RECEIPT)).status).toBe('success')
    const answer = await client.post('/v1/tx/loan/borrow', {
      marketId: morphoMarketId(strangeParams),
      assets: '1',
      owner: creator.account.address,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(422)
    expect(answer.body.error).toMatchObject({ code: 'unlisted_market', field: 'marketId' })
    expect(answer.body.error?.details).toEqual({ marketId: morphoMarketId(strangeParams) })
    expect(answer.charged).toBe(0n)
  })

  test('behavior: a block landing between the state read and the simulation does not split the quote', async () => {
    // A transport that mines a block 5 s later just before every eth_simulateV1: the race a live chain
    // (or the devnet keeper) runs into, made certain. The quote's debt stays accrued to the block its
    // state was read at, and the bundle is simulated on top of that same block.
    const mined: bigint[] = []
    const chain = createPublicClient({
      transport: http(sw.world.rpcUrl, {
        onFetchRequest: async (request) => {
          if (!(await request.clone().text()).includes('eth_simulateV1')) return
          const latest = await sw.chain.getBlock()
          await sw.chain.request({
            method: 'evm_mine',
            params: [toHex(latest.timestamp + 5n)],
          } as unknown as Parameters<typeof sw.chain.request>[0])
          mined.push(latest.number + 1n)
        },
      }),
    }) as PublicClient
    const engine = createBuilderEngine({ chain, book: devnetBook, suffix: null, clock: Date.now })
    const me = ownerWallet(sw, 6).account.address
    const built = await buildLoanSupplyCollateral(engine, {
      marketId: MARKET,
      assets: parseUnits('1', 18),
      owner: me,
    })
    expect(mined.length).toBe(1)
    const block = BigInt(built.simulation.blockNumber)
    expect(block).toBeLessThan(mined[0] as bigint)
    const { borrowShares, collateral } = await positionOf(me, block)
    await expectPositionFields(built.action, block, {
      collateral: collateral + parseUnits('1', 18),
      borrowShares,
      debt: 0n,
    })
    expect(built.simulation.balanceChanges[0]?.delta).toBe((-parseUnits('1', 18)).toString())
  })

  test('error: unknown markets, missing debt, shortfalls and bad bodies are refused before simulating, uncharged', async () => {
    const me = ownerWallet(sw, 4).account.address
    const weth = await balanceOf(WETH, me)
    const unknownId = `0x${'ab'.repeat(32)}`
    const [unknown, noDebt, short, badId, zero, extra, badOwner] = await Promise.all([
      client.post('/v1/tx/loan/borrow', { marketId: unknownId, assets: '1', owner: me }),
      client.post('/v1/tx/loan/repay', { marketId: MARKET, assets: '1000000', owner: me }),
      client.post('/v1/tx/loan/supply-collateral', {
        marketId: MARKET,
        assets: (weth + 1n).toString(),
        owner: me,
      }),
      client.post('/v1/tx/loan/supply-collateral', { marketId: '0x1234', assets: '1', owner: me }),
      client.post('/v1/tx/loan/borrow', { marketId: MARKET, assets: '0', owner: me }),
      client.post('/v1/tx/loan/repay', { marketId: MARKET, assets: '1', owner: me, receiver: me }),
      client.post('/v1/tx/loan/withdraw-collateral', { marketId: MARKET, assets: '1', owner: 'me' }),
    ])
    expect(unknown.status).toBe(422)
    expect(unknown.body.error).toMatchObject({ code: 'unlisted_market', field: 'marketId' })
    expect(noDebt.status).toBe(422)
    expect(noDebt.body.error).toMatchObject({ code: 'nothing_to_repay', field: 'assets' })
    expect(short.status).toBe(422)
    expect(short.body.error).toMatchObject({ code: 'insufficient_balance', field: 'assets' })
    expect(short.body.error?.details).toEqual({
      issues: {
        balance: { token: WETH, actual: weth.toString(), expected: (weth + 1n).toString() },
        allowance: null,
      },
    })
    for (const [answer, field] of [
      [badId, 'marketId'],
      [zero, 'assets'],
      [extra, 'receiver'],
      [badOwner, 'owner'],
    ] as const) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(400)
      expect(answer.body.error?.field).toBe(field)
    }
    for (const a of [unknown, noDebt, short, badId, zero, extra, badOwner]) expect(a.charged).toBe(0n)
  })
})
