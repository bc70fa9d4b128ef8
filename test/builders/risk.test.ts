import {
  type Abi,
  type AbiEvent,
  type Address,
  createTestClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  http,
} from 'viem'
import { base } from 'viem/chains'
import { beforeAll, describe, expect, test } from 'vitest'
import { riskDiamondAbi } from '../../src/builders/risk/riskAbi.js'
import type { RiskCancelAction } from '../../src/builders/risk/riskCancel.js'
import type { RiskCloseAction } from '../../src/builders/risk/riskClose.js'
import type { RiskModifyAction } from '../../src/builders/risk/riskModify.js'
import type { RiskOpenAction } from '../../src/builders/risk/riskOpen.js'
import type { BuilderEnvelope } from '../../src/builders/txStep.js'
import gtradeReadsAbi from '../../src/chain/abis/gtradeDiamondReads.json' with { type: 'json' }
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { gtradeStandInAbi } from '../../src/devnet/deploy/gtrade.js'
import { devnetDeployer } from '../../src/devnet/devnetAccounts.js'
import { broadcast, builderClient, expectEnvelope, ownerWallet, selectorOf } from '../helpers/builderCalls.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { eventually } from '../helpers/eventually.js'
import { expectRefused, type Refusal } from '../helpers/expectRefused.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The perp builders on the gTrade v10 diamond stand-in, paid with the official x402 client (payer #8),
// broadcast from demo accounts #3..#6 (#1 holds the seeded trades), filled by the devnet keeper, and
// checked against the diamond's getTrade, the owners' USDC, and gTrade's formulas (protocols.md §1)
// written out again here, fed by the diamond's own parameters.
const DIAMOND = BASE_ADDRESSES.GtradeDiamond
const USDC = BASE_ADDRESSES.USDC
const APPROVE = '0x095ea7b3'
const OPEN_TRADE = '0x5bfcc4f8'
const BTC = 0
const ETH = 1
const P_DENOM = 10n ** 12n
const E10 = 10n ** 10n
const marketExecutedAbi = (gtradeReadsAbi as Abi).find(
  (item) => item.type === 'event' && item.name === 'MarketExecuted',
) as AbiEvent

const sw = useWorld({ blockTimeSeconds: 0.2 })
const svc = useInstance(sw)
const client = builderClient(sw, svc)

/** A keeper of the stand-in for the test: moves a pair's price and fills orders itself. */
let keeper: ReturnType<typeof ownerWallet>

beforeAll(async () => {
  // The market pinned for the file: the world's clock held, so the keeper fills and triggers at one mark
  // and every TP, SL and limit below stands where the test put it, on any date (the path never moves
  // under a held clock; startServiceWorld lets the next file's clock follow again).
  sw.worldClock.hold(Date.now())
  keeper = ownerWallet(sw, 7)
  // The admin registers the test's keeper once (impersonated: its key also runs the world's keeper).
  // While no other sender of that key (the world's keeper, the price pusher) sends: a nonce race with a
  // keeper transaction in flight was refused as `replacement transaction underpriced` under load.
  await sw.world.asDeployer(async () => {
    const testClient = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
    await testClient.impersonateAccount({ address: devnetDeployer.address })
    const admin = createWalletClient({ chain: base, transport: http(sw.world.rpcUrl) })
    const hash = await admin.writeContract({
      account: devnetDeployer.address,
      address: DIAMOND,
      abi: gtradeStandInAbi,
      functionName: 'setKeeper',
      args: [keeper.account.address, true],
    })
    await pollReceipt(sw.chain, hash, RECEIPT)
    await testClient.stopImpersonatingAccount({ address: devnetDeployer.address })
  })
  // Every pair's stored price at the held mark before a test reads it.
  await sw.world.priceEveryPair()
}, 120_000)

// --- reads of the diamond and the owners ---
const usdcOf = (who: Address) => sw.usdcBalance(who)
const allowanceOf = (who: Address) =>
  sw.chain.readContract({ address: USDC, abi: erc20Abi, functionName: 'allowance', args: [who, DIAMOND] })
const tradeOf = (who: Address, index: number) =>
  sw.chain.readContract({
    address: DIAMOND,
    abi: riskDiamondAbi,
    functionName: 'getTrade',
    args: [who, index],
  })
const openTrades = async (who: Address) =>
  await sw.chain.readContract({
    address: DIAMOND,
    abi: gtradeStandInAbi,
    functionName: 'getTrades',
    args: [who],
  })
const pendingOf = (who: Address) =>
  sw.chain.readContract({
    address: DIAMOND,
    abi: riskDiamondAbi,
    functionName: 'getPendingOrders',
    args: [who],
  })
const priceOf = (pairIndex: number, blockNumber?: bigint) =>
  sw.chain.readContract({
    address: DIAMOND,
    abi: gtradeStandInAbi,
    functionName: 'prices',
    args: [BigInt(pairIndex)],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  })
const pairView = (functionName: 'pairTotalPositionSizeFeeP' | 'pairMaxLeverage', pairIndex: number) =>
  sw.chain.readContract({ address: DIAMOND, abi: riskDiamondAbi, functionName, args: [BigInt(pairIndex)] })
const spreadOf = async (pairIndex: number) =>
  (
    await sw.chain.readContract({
      address: DIAMOND,
      abi: riskDiamondAbi,
      functionName: 'pairs',
      args: [BigInt(pairIndex)],
    })
  ).spreadP
const humanOf = (price: bigint) => Number(price) / 1e10
const e10 = (human: number) => BigInt(Math.round(human * 1e10))

/** The keeper fills what is queued (the world's keeper also runs every second: either may fill). */
async function fillQueued(who: Address) {
  await sw.world.keeperTick()
  await eventually(async () => expect(await pendingOf(who)).toHaveLength(0))
}

// --- independent truth: gTrade's formulas (protocols.md §1) written out again ---
const feeOn = (size: bigint, feeP: bigint) => (size * feeP) / P_DENOM
const halfSpread = (price: bigint, spreadP: bigint) => (price * spreadP) / 2n / P_DENOM
/** Liquidation threshold, interpolated between start and end leverage (SDK getLiqPnlThresholdP). */
async function liqThresholdP(pairIndex: number, leverage: bigint): Promise<{ num: bigint; den: bigint }> {
  const p = await sw.chain.readContract({
    address: DIAMOND,
    abi: riskDiamondAbi,
    functionName: 'getPairLiquidationParams',
    args: [BigInt(pairIndex)],
  })
  const start = BigInt(p.startLiqThresholdP)
  const end = BigInt(p.endLiqThresholdP)
  const sl = BigInt(p.startLeverage)
  const el = BigInt(p.endLeverage)
  // Percent x1e10 → fraction num/den with den = 100e10.
  const den = 100n * E10
  if (leverage <= sl || el === sl) return { num: start, den }
  if (leverage >= el) return { num: end, den }
  return { num: start - ((start - end) * (leverage - sl)) / (el - sl), den }
}
/** Liquidation price with the closing fee, no holding fees (the trade is new). */
async function liqPriceOf(
  pairIndex: number,
  openPrice: bigint,
  long: boolean,
  collateral: bigint,
  leverage: bigint,
) {
  const feeP = await pairView('pairTotalPositionSizeFeeP', pairIndex)
  const closingFee = feeOn((collateral * leverage) / 1000n, feeP)
  const t = await liqThresholdP(pairIndex, leverage)
  const budget = (collateral * t.num) / t.den - closingFee
  const distance = budget > 0n ? (openPrice * budget * 1000n) / collateral / leverage : 0n
  return long ? (openPrice > distance ? openPrice - distance : 0n) : openPrice + distance
}

/** A refused build: status, code and field named, nothing charged, the owner's USDC untouched. */
const refusedBuild = (path: string, body: Record<string, unknown>, want: Refusal) =>
  expectRefused(() => client.post(path, body), {
    ...want,
    untouched: [{ read: () => usdcOf(body.owner as Address) }],
  })

describe('risk open (MARKET) → modify → close', () => {
  let me: Address
  let index: number
  let collateralAfterFill: bigint

  beforeAll(() => {
    me = ownerWallet(sw, 3).account.address
  })

  test('behavior: a MARKET open is approved exactly, filled by the keeper with the leverage, TP and SL asked; fee and liquidation price match the venue', async () => {
    const wallet = ownerWallet(sw, 3)
    const mark = humanOf(await priceOf(BTC))
    const body = {
      pairIndex: BTC,
      long: true,
      leverage: 10,
      collateralUsdc: 100,
      markPrice: mark,
      owner: me,
      tp: Math.round(mark * 1.1),
      sl: Math.round(mark * 0.95),
    }
    expect(await allowanceOf(me)).toBe(0n)
    const first = await client.post<RiskOpenAction>('/v1/tx/risk/open', body)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.charged).toBeGreaterThan(0n)
    expectEnvelope(first.body, me)
    expect(first.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, OPEN_TRADE])
    const approve = decodeFunctionData({
      abi: erc20Abi,
      data: first.body.walletSendCalls.calls[0]?.data ?? '0x',
    })
    expect(approve.args).toEqual([DIAMOND, 100_000_000n])
    expect(first.body.issues.allowance).toMatchObject({ actual: '0', expected: '100000000' })
    // The v10 Trade as encoded: 15 fields, venue scaling.
    const open = decodeFunctionData({
      abi: riskDiamondAbi,
      data: first.body.walletSendCalls.calls[1]?.data ?? '0x',
    })
    expect(open.functionName).toBe('openTrade')
    const [trade, maxSlippageP] = open.args as readonly [Record<string, unknown>, number, Address]
    expect(trade).toMatchObject({
      user: wallet.account.address,
      index: 0,
      pairIndex: BTC,
      leverage: 10_000,
      long: true,
      isOpen: true,
      collateralIndex: 1,
      tradeType: 0,
      collateralAmount: 100_000_000n,
      openPrice: e10(mark),
      tp: e10(body.tp),
      sl: e10(body.sl),
      isCounterTrade: false,
      positionSizeToken: 0n,
      __placeholder: 0,
    })
    expect(maxSlippageP).toBe(1000)

    // Broadcast the approve only: a rebuild then has no approve step.
    const approveOnly = { ...first.body, steps: first.body.steps.slice(0, 1) } as BuilderEnvelope<unknown>
    await broadcast(sw.chain, wallet, approveOnly)
    const again = await client.post<RiskOpenAction>('/v1/tx/risk/open', body)
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body.steps.map((s) => selectorOf(s.data))).toEqual([OPEN_TRADE])
    expect(again.body.issues.allowance).toBeNull()
    const a = again.body.action

    // The fee and liquidation price, recomputed from the diamond's live parameters.
    const feeP = await pairView('pairTotalPositionSizeFeeP', BTC)
    const spreadP = await spreadOf(BTC)
    expect(BigInt(a.positionSize)).toBe(1_000_000_000n)
    expect(BigInt(a.openingFee)).toBe(feeOn(1_000_000_000n, feeP))
    expect(BigInt(a.collateralAfterFee)).toBe(100_000_000n - BigInt(a.openingFee))
    expect(e10(a.expectedOpenPrice)).toBe(e10(mark) + halfSpread(e10(mark), spreadP))
    expect(e10(a.liquidationPrice)).toBe(
      await liqPriceOf(BTC, e10(a.expectedOpenPrice), true, BigInt(a.collateralAfterFee), 10_000n),
    )

    const before = await usdcOf(me)
    await broadcast(sw.chain, wallet, again.body)
    expect(before - (await usdcOf(me))).toBe(100_000_000n)
    await fillQueued(me)
    const [filled] = await openTrades(me)
    if (filled === undefined) throw new Error('the MARKET open was not filled')
    index = filled.index
    expect(filled).toMatchObject({
      pairIndex: BTC,
      leverage: 10_000,
      long: true,
      tradeType: 0,
      tp: e10(body.tp),
      sl: e10(body.sl),
    })
    // What the venue charged at the fill is the quoted fee.
    expect(filled.collateralAmount).toBe(BigInt(a.collateralAfterFee))
    collateralAfterFill = filled.collateralAmount
    // The fill is the keeper's price plus half the spread; the liquidation price at the actual fill by the
    // same formula equals the diamond's own.
    const venueLiq = await sw.chain.readContract({
      address: DIAMOND,
      abi: riskDiamondAbi,
      functionName: 'getTradeLiquidationPrice',
      args: [
        {
          collateralIndex: 1,
          trader: me,
          pairIndex: BTC,
          index,
          openPrice: filled.openPrice,
          long: true,
          collateral: filled.collateralAmount,
          leverage: 10_000n,
          additionalFeeCollateral: 0n,
          liquidationParams: await sw.chain.readContract({
            address: DIAMOND,
            abi: riskDiamondAbi,
            functionName: 'getPairLiquidationParams',
            args: [BigInt(BTC)],
          }),
          currentPairPrice: filled.openPrice,
          isCounterTrade: false,
          partialCloseMultiplier: 10n ** 18n,
          beforeOpened: false,
        },
      ],
    })
    expect(venueLiq).toBe(await liqPriceOf(BTC, filled.openPrice, true, filled.collateralAmount, 10_000n))
  })

  test('behavior: a leverage decrease pulls exactly the top-up (approve prepended) and the keeper applies it', async () => {
    const wallet = ownerWallet(sw, 3)
    const res = await client.post<RiskModifyAction>('/v1/tx/risk/modify', { index, owner: me, leverage: 5 })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectEnvelope(res.body, me)
    // Position size is kept: 10x → 5x doubles the collateral.
    const topUp = (collateralAfterFill * 10_000n) / 5_000n - collateralAfterFill
    expect(res.body.action).toMatchObject({
      changes: ['leverage'],
      collateralDelta: topUp.toString(),
      newLeverage: 5,
    })
    expect(res.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, '0x0bce9aaa'])
    const approve = decodeFunctionData({
      abi: erc20Abi,
      data: res.body.walletSendCalls.calls[0]?.data ?? '0x',
    })
    expect(approve.args).toEqual([DIAMOND, topUp])
    const before = await usdcOf(me)
    await broadcast(sw.chain, wallet, res.body)
    expect(before - (await usdcOf(me))).toBe(topUp)
    await fillQueued(me)
    const t = await tradeOf(me, index)
    expect(t.leverage).toBe(5_000)
    expect(t.collateralAmount).toBe(collateralAfterFill + topUp)
    collateralAfterFill = t.collateralAmount
  })

  test('behavior: a size increase adds collateral at the trade leverage; getTrade shows the venue formula', async () => {
    const wallet = ownerWallet(sw, 3)
    const mark = humanOf(await priceOf(BTC))
    const res = await client.post<RiskModifyAction>('/v1/tx/risk/modify', {
      index,
      owner: me,
      sizeDeltaUsdc: 50,
      expectedPrice: mark,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.action).toMatchObject({
      changes: ['sizeDeltaUsdc'],
      collateralDelta: '50000000',
      newLeverage: null,
    })
    expect(res.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, '0x24058ad3'])
    const inc = decodeFunctionData({
      abi: riskDiamondAbi,
      data: res.body.walletSendCalls.calls[1]?.data ?? '0x',
    })
    expect(inc.args).toEqual([index, 50_000_000n, 5_000, e10(mark), 1000])
    const before = await usdcOf(me)
    const old = await tradeOf(me, index)
    await broadcast(sw.chain, wallet, res.body)
    expect(before - (await usdcOf(me))).toBe(50_000_000n)
    await fillQueued(me)
    const t = await tradeOf(me, index)
    // gTrade: the delta's size pays the opening fee; leverage = total size / total collateral.
    const feeP = await pairView('pairTotalPositionSizeFeeP', BTC)
    const oldSize = (old.collateralAmount * BigInt(old.leverage)) / 1000n
    const deltaSize = (50_000_000n * 5_000n) / 1000n
    const newCollateral = old.collateralAmount + 50_000_000n - feeOn(deltaSize, feeP)
    expect(t.collateralAmount).toBe(newCollateral)
    expect(BigInt(t.leverage)).toBe(((oldSize + deltaSize) * 1000n) / newCollateral)
  })

  test('behavior: TP and SL updates land synchronously', async () => {
    const wallet = ownerWallet(sw, 3)
    const t0 = await tradeOf(me, index)
    const open = humanOf(t0.openPrice)
    const tp = Math.round(open * 1.2)
    const sl = Math.round(open * 0.9)
    const res = await client.post<RiskModifyAction>('/v1/tx/risk/modify', { index, owner: me, tp, sl })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.steps.map((s) => selectorOf(s.data))).toEqual(['0xf401f2bb', '0xb5d9e9d0'])
    await broadcast(sw.chain, wallet, res.body)
    expect(await tradeOf(me, index)).toMatchObject({ tp: e10(tp), sl: e10(sl) })
  })

  test('error: modify refusals name the field, charge nothing, move no USDC', async () => {
    const t = await tradeOf(me, index)
    const open = humanOf(t.openPrice)
    await refusedBuild(
      '/v1/tx/risk/modify',
      { index, owner: me, sl: Math.round(open * 1.05) },
      { status: 422, code: 'wrong_side', field: 'sl' },
    )
    await refusedBuild(
      '/v1/tx/risk/modify',
      { index, owner: me, tp: Math.round(open * 0.95) },
      { status: 422, code: 'wrong_side', field: 'tp' },
    )
    const max = Number(await pairView('pairMaxLeverage', BTC)) / 1000
    const err = (
      await refusedBuild(
        '/v1/tx/risk/modify',
        { index, owner: me, leverage: max + 1 },
        { status: 422, code: 'leverage_above_max', field: 'leverage' },
      )
    ).body.error
    expect(err?.details).toMatchObject({ maxLeverage: max })
    await refusedBuild(
      '/v1/tx/risk/modify',
      { index: index + 50, owner: me, tp: 1 },
      { status: 422, code: 'trade_not_found', field: 'index' },
    )
    await refusedBuild(
      '/v1/tx/risk/modify',
      { index, owner: me, triggerPrice: 1 },
      { status: 422, code: 'not_a_resting_order', field: 'triggerPrice' },
    )
    await refusedBuild(
      '/v1/tx/risk/modify',
      { index, owner: me, leverage: 2, sizeDeltaUsdc: 5, expectedPrice: 1 },
      { status: 400, code: 'invalid_input', field: 'sizeDeltaUsdc' },
    )
    await refusedBuild(
      '/v1/tx/risk/modify',
      { index, owner: me, sizeDeltaUsdc: -1_000_000, expectedPrice: open },
      { status: 422, code: 'decrease_too_large', field: 'sizeDeltaUsdc' },
    )
    // Another wallet's index: #6 holds no trade there.
    await refusedBuild(
      '/v1/tx/risk/modify',
      { index, owner: ownerWallet(sw, 6).account.address, tp: 1 },
      { status: 422, code: 'trade_not_found', field: 'index' },
    )
  })

  test('behavior: a close realizes PnL into the owner USDC: the price moved, the payout is the venue formula at the fill', async () => {
    const wallet = ownerWallet(sw, 3)
    const t = await tradeOf(me, index)
    const mark = humanOf(await priceOf(BTC))
    const res = await client.post<RiskCloseAction>('/v1/tx/risk/close', {
      index,
      expectedPrice: mark,
      owner: me,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectEnvelope(res.body, me)
    expect(res.body.steps.map((s) => selectorOf(s.data))).toEqual(['0x36ce736b'])
    expect(
      decodeFunctionData({ abi: riskDiamondAbi, data: res.body.walletSendCalls.calls[0]?.data ?? '0x' }).args,
    ).toEqual([index, e10(mark)])
    // The estimate at expectedPrice, recomputed.
    const feeP = await pairView('pairTotalPositionSizeFeeP', BTC)
    const spreadP = await spreadOf(BTC)
    const payoutAt = (oracle: bigint) => {
      const exit = oracle - halfSpread(oracle, spreadP)
      const size = (t.collateralAmount * BigInt(t.leverage)) / 1000n
      const pnl = (size * (exit - t.openPrice)) / t.openPrice
      const value = t.collateralAmount + pnl - feeOn(size, feeP)
      return { exit, pnl, value: value > 0n ? value : 0n }
    }
    const quoted = payoutAt(e10(mark))
    expect(res.body.action).toMatchObject({
      index,
      collateral: t.collateralAmount.toString(),
      expectedPnl: quoted.pnl.toString(),
      expectedPayout: quoted.value.toString(),
    })
    expect(e10(res.body.action.expectedExitPrice)).toBe(quoted.exit)

    const before = await usdcOf(me)
    await broadcast(sw.chain, wallet, res.body)
    // Move the price +3 % and fill at once as a keeper (the world's keeper may win the race: the payout is
    // checked at whatever price the fill used).
    const [order] = await pendingOf(me)
    if (order === undefined) throw new Error('the close was not queued')
    const moved = (e10(mark) * 103n) / 100n
    await keeper
      .writeContract({
        address: DIAMOND,
        abi: gtradeStandInAbi,
        functionName: 'setPrice',
        args: [BigInt(BTC), moved],
      })
      .then((hash) => pollReceipt(sw.chain, hash, RECEIPT))
    await keeper
      .writeContract({
        address: DIAMOND,
        abi: gtradeStandInAbi,
        functionName: 'executeMarketOrder',
        args: [me, order.index],
      })
      .then((hash) => pollReceipt(sw.chain, hash, RECEIPT))
      .catch(() => undefined)
    await fillQueued(me)
    // The price the venue filled the close at, from its own MarketExecuted event: at 200 ms blocks the
    // keeper's fill and a price move share a block, so the price at the end of the block proves nothing.
    const fills = await sw.chain.getLogs({
      address: DIAMOND,
      event: marketExecutedAbi,
      args: { user: me, index },
      fromBlock: 0n,
    })
    type Fill = { open: boolean; oraclePrice: bigint; amountSentToTrader: bigint }
    const closed = fills.map((log) => (log as unknown as { args: Fill }).args).find((f) => !f.open)
    if (closed === undefined) throw new Error('no MarketExecuted for the close')
    // Filled at the price moved here, or (the world's keeper first) at the mark it set: no other.
    expect([moved, e10(mark)]).toContain(closed.oraclePrice)
    const realized = payoutAt(closed.oraclePrice)
    expect(closed.amountSentToTrader).toBe(realized.value)
    expect((await usdcOf(me)) - before).toBe(realized.value)
    expect((await tradeOf(me, index)).isOpen).toBe(false)
    // A second close of the same index is refused: the trade is gone.
    await refusedBuild(
      '/v1/tx/risk/close',
      { index, expectedPrice: mark, owner: me },
      { status: 422, code: 'trade_not_found', field: 'index' },
    )
  })
})

describe('risk LIMIT order: rest, update, cancel', () => {
  let me: Address

  test('behavior: a LIMIT long rests below the mark, its trigger updates, and a cancel returns the collateral', async () => {
    const wallet = ownerWallet(sw, 4)
    me = wallet.account.address
    const start = await usdcOf(me)
    const mark = humanOf(await priceOf(ETH))
    const trigger = Math.round(mark * 0.8)
    const res = await client.post<RiskOpenAction>('/v1/tx/risk/open', {
      pairIndex: ETH,
      long: true,
      leverage: 5,
      collateralUsdc: 40,
      markPrice: mark,
      owner: me,
      tradeType: 1,
      triggerPrice: trigger,
      tp: Math.round(mark),
      sl: Math.round(mark * 0.7),
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectEnvelope(res.body, me)
    expect(res.body.action).toMatchObject({ tradeType: 1, orderPrice: trigger, expectedOpenPrice: trigger })
    await broadcast(sw.chain, wallet, res.body)
    expect(start - (await usdcOf(me))).toBe(40_000_000n)
    await sw.world.keeperTick()
    const [order] = await openTrades(me)
    if (order === undefined) throw new Error('the LIMIT order is not resting')
    expect(order).toMatchObject({
      tradeType: 1,
      isOpen: true,
      openPrice: e10(trigger),
      leverage: 5_000,
      collateralAmount: 40_000_000n,
    })
    expect(await pendingOf(me)).toHaveLength(0) // not a queued market order

    const newTrigger = Math.round(mark * 0.75)
    const upd = await client.post<RiskModifyAction>('/v1/tx/risk/modify', {
      index: order.index,
      owner: me,
      triggerPrice: newTrigger,
    })
    expect(upd.status, JSON.stringify(upd.body)).toBe(200)
    expect(upd.body.action.changes).toEqual(['triggerPrice'])
    await broadcast(sw.chain, wallet, upd.body)
    expect(await tradeOf(me, order.index)).toMatchObject({
      openPrice: e10(newTrigger),
      tp: order.tp,
      sl: order.sl,
    })

    await refusedBuild(
      '/v1/tx/risk/close',
      { index: order.index, expectedPrice: mark, owner: me },
      { status: 422, code: 'resting_order', field: 'index' },
    )
    await refusedBuild(
      '/v1/tx/risk/modify',
      { index: order.index, owner: me, leverage: 3 },
      { status: 422, code: 'resting_order', field: 'leverage' },
    )

    const cancel = await client.post<RiskCancelAction>('/v1/tx/risk/cancel', {
      index: order.index,
      owner: me,
    })
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200)
    expectEnvelope(cancel.body, me)
    expect(cancel.body.action).toMatchObject({
      index: order.index,
      orderType: 'limit',
      refund: '40000000',
      triggerPrice: newTrigger,
    })
    await broadcast(sw.chain, wallet, cancel.body)
    expect(await usdcOf(me)).toBe(start)
    expect((await tradeOf(me, order.index)).isOpen).toBe(false)
    await refusedBuild(
      '/v1/tx/risk/cancel',
      { index: order.index, owner: me },
      { status: 422, code: 'order_not_found', field: 'index' },
    )
  })
})

describe('risk refusals', () => {
  test('error: open refusals name the field, charge nothing, move no USDC', async () => {
    const me = ownerWallet(sw, 6).account.address
    const mark = humanOf(await priceOf(BTC))
    const base = { pairIndex: BTC, long: true, leverage: 10, collateralUsdc: 100, markPrice: mark, owner: me }
    await refusedBuild(
      '/v1/tx/risk/open',
      { ...base, tp: Math.round(mark * 0.9) },
      { status: 400, code: 'invalid_input', field: 'tp' },
    )
    await refusedBuild(
      '/v1/tx/risk/open',
      { ...base, sl: Math.round(mark * 1.1) },
      { status: 400, code: 'invalid_input', field: 'sl' },
    )
    await refusedBuild(
      '/v1/tx/risk/open',
      { ...base, long: false, tp: Math.round(mark * 1.1) },
      { status: 400, code: 'invalid_input', field: 'tp' },
    )
    // LIMIT long above the mark, STOP long below it.
    await refusedBuild(
      '/v1/tx/risk/open',
      { ...base, tradeType: 1, triggerPrice: mark * 1.1 },
      { status: 400, code: 'invalid_input', field: 'triggerPrice' },
    )
    await refusedBuild(
      '/v1/tx/risk/open',
      { ...base, tradeType: 2, triggerPrice: mark * 0.9 },
      { status: 400, code: 'invalid_input', field: 'triggerPrice' },
    )
    await refusedBuild(
      '/v1/tx/risk/open',
      { ...base, tradeType: 1 },
      { status: 400, code: 'invalid_input', field: 'triggerPrice' },
    )
    const max = Number(await pairView('pairMaxLeverage', BTC)) / 1000
    const err = (
      await refusedBuild(
        '/v1/tx/risk/open',
        { ...base, leverage: max + 1 },
        { status: 422, code: 'leverage_above_max', field: 'leverage' },
      )
    ).body.error
    expect(err?.details).toMatchObject({ maxLeverage: max })
    await refusedBuild(
      '/v1/tx/risk/open',
      { ...base, leverage: 2, collateralUsdc: 5 },
      { status: 422, code: 'position_below_minimum', field: 'collateralUsdc' },
    )
    await refusedBuild(
      '/v1/tx/risk/open',
      { ...base, pairIndex: 9999 },
      { status: 422, code: 'unknown_pair', field: 'pairIndex' },
    )
    await refusedBuild(
      '/v1/tx/risk/open',
      { ...base, collateralUsdc: 10_000_000_000 },
      { status: 422, code: 'insufficient_balance', field: 'collateralUsdc' },
    )
  })

  test('error: close and cancel of an index that is not the wallet’s are named 422s', async () => {
    const me = ownerWallet(sw, 6).account.address
    // #1 holds an open ETH trade at 1 and a resting order at 2; #6 holds neither.
    await refusedBuild(
      '/v1/tx/risk/close',
      { index: 1, expectedPrice: 3000, owner: me },
      { status: 422, code: 'trade_not_found', field: 'index' },
    )
    await refusedBuild(
      '/v1/tx/risk/cancel',
      { index: 2, owner: me },
      { status: 422, code: 'order_not_found', field: 'index' },
    )
    // #1's filled trade is not a resting order.
    const demo = ownerWallet(sw, 1).account.address
    await refusedBuild(
      '/v1/tx/risk/cancel',
      { index: 1, owner: demo },
      { status: 422, code: 'order_not_found', field: 'index' },
    )
    // owner is required on close.
    const res = await client.post('/v1/tx/risk/close', { index: 1, expectedPrice: 3000 })
    expect(res.status).toBe(400)
    expect(res.body.error?.field).toBe('owner')
    expect(res.charged).toBe(0n)
  })
})
