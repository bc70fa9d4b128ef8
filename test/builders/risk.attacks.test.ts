import { type Address, decodeFunctionData, erc20Abi, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { riskDiamondAbi } from '../../src/builders/risk/riskAbi.js'
import type { RiskModifyAction } from '../../src/builders/risk/riskModify.js'
import type { RiskOpenAction } from '../../src/builders/risk/riskOpen.js'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { gtradeStandInAbi } from '../../src/devnet/deploy/gtrade.js'
import {
  bareStep,
  broadcast,
  builderClient,
  ownerWallet,
  rawPost,
  selectorOf,
} from '../helpers/builderCalls.js'
import { eventually } from '../helpers/eventually.js'
import { expectEachRefused } from '../helpers/expectRefused.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The perp builders (gTrade v10) attacked as a hostile or careless caller would. The money rules under
// test: a number the venue's integer fields cannot hold (uint16/24/32/64), or one that only the rounding to
// the venue's scale moves across a guard, is a 400 naming the field (never a 500, never a silent "none");
// TP/SL are checked against what is encoded, including the ones a resting order carries over; another
// wallet's trade is refused; nothing is charged unless the answer is 200.
const DIAMOND = BASE_ADDRESSES.GtradeDiamond
const BTC = 0
const ETH_PAIR = 1
/** The largest human price a uint64 ×1e10 field holds is 1844674407.3709551615. */
const ABOVE_UINT64_PRICE = 1_844_674_408

const sw = useWorld()
const svc = useInstance(sw)
const client = builderClient(sw, svc)

const usdcOf = (who: Address) => sw.usdcBalance(who)
const tradeOf = (who: Address, index: number) =>
  sw.chain.readContract({
    address: DIAMOND,
    abi: riskDiamondAbi,
    functionName: 'getTrade',
    args: [who, index],
  })
const priceOf = async (pairIndex: number) =>
  Number(
    await sw.chain.readContract({
      address: DIAMOND,
      abi: gtradeStandInAbi,
      functionName: 'prices',
      args: [BigInt(pairIndex)],
    }),
  ) / 1e10

describe('attacks on the perp builders', () => {
  test('attack: numbers the venue fields cannot hold (uint16/24/32/64, exponent notation, dust that encodes to 0) are a 400 naming the field, never a 500, free', async () => {
    const me = ownerWallet(sw, 2).account.address
    const mark = await priceOf(BTC)
    const open = (patch: Record<string, unknown>) => ({
      pairIndex: BTC,
      long: true,
      leverage: 10,
      collateralUsdc: 100,
      markPrice: mark,
      owner: me,
      ...patch,
    })
    const modify = (patch: Record<string, unknown>) => ({ index: 1, owner: me, ...patch })
    const cases: { name: string; path: string; body: unknown; field: string }[] = [
      {
        name: 'mark above uint64',
        path: 'open',
        body: open({ markPrice: ABOVE_UINT64_PRICE }),
        field: 'markPrice',
      },
      { name: 'mark 1e21 (exponent)', path: 'open', body: open({ markPrice: 1e21 }), field: 'markPrice' },
      { name: 'mark 1e300', path: 'open', body: open({ markPrice: 1e300 }), field: 'markPrice' },
      { name: 'mark dust', path: 'open', body: open({ markPrice: 1e-11 }), field: 'markPrice' },
      {
        name: 'long TP above uint64',
        path: 'open',
        body: open({ tp: ABOVE_UINT64_PRICE }),
        field: 'tp',
      },
      {
        name: 'STOP trigger above uint64',
        path: 'open',
        body: open({ tradeType: 2, triggerPrice: ABOVE_UINT64_PRICE }),
        field: 'triggerPrice',
      },
      // A stop-loss of 1e-11 is not "no stop-loss": it would encode to 0, which the venue reads as none.
      { name: 'SL dust', path: 'open', body: open({ sl: 1e-11 }), field: 'sl' },
      { name: 'short TP dust', path: 'open', body: open({ long: false, tp: 4e-11 }), field: 'tp' },
      { name: 'leverage 1e21', path: 'open', body: open({ leverage: 1e21 }), field: 'leverage' },
      { name: 'leverage above uint24', path: 'open', body: open({ leverage: 16_778 }), field: 'leverage' },
      {
        name: 'collateral 1e21',
        path: 'open',
        body: open({ collateralUsdc: 1e21 }),
        field: 'collateralUsdc',
      },
      { name: 'pair above uint16', path: 'open', body: open({ pairIndex: 65_536 }), field: 'pairIndex' },
      { name: 'pair negative', path: 'open', body: open({ pairIndex: -1 }), field: 'pairIndex' },
      {
        name: 'slippage below 0.001',
        path: 'open',
        body: open({ slippagePct: 0.0004 }),
        field: 'slippagePct',
      },
      { name: 'leverage as text', path: 'open', body: open({ leverage: '10' }), field: 'leverage' },
      { name: 'NaN (null in JSON)', path: 'open', body: open({ markPrice: Number.NaN }), field: 'markPrice' },
      {
        name: 'close index above uint32',
        path: 'close',
        body: { index: 2 ** 32, expectedPrice: mark, owner: me },
        field: 'index',
      },
      {
        name: 'close price above uint64',
        path: 'close',
        body: { index: 1, expectedPrice: ABOVE_UINT64_PRICE, owner: me },
        field: 'expectedPrice',
      },
      {
        name: 'cancel index above uint32',
        path: 'cancel',
        body: { index: 2 ** 32, owner: me },
        field: 'index',
      },
      {
        name: 'modify index above uint32',
        path: 'modify',
        body: modify({ index: 2 ** 32, tp: 1 }),
        field: 'index',
      },
      {
        name: 'modify TP above uint64',
        path: 'modify',
        body: modify({ tp: ABOVE_UINT64_PRICE }),
        field: 'tp',
      },
      {
        name: 'modify size 1e21',
        path: 'modify',
        body: modify({ sizeDeltaUsdc: 1e21, expectedPrice: mark }),
        field: 'sizeDeltaUsdc',
      },
      {
        name: 'modify size negative zero',
        path: 'modify',
        body: modify({ sizeDeltaUsdc: -0, expectedPrice: mark }),
        field: 'sizeDeltaUsdc',
      },
      { name: 'modify leverage 1e21', path: 'modify', body: modify({ leverage: 1e21 }), field: 'leverage' },
    ]
    const answers = await Promise.all(cases.map((c) => client.post(`/v1/tx/risk/${c.path}`, c.body)))
    await expectEachRefused(
      answers,
      cases.map((c) => ({ name: c.name, status: 400, field: c.field, code: 'invalid_input' })),
    )
    // JSON that JSON.stringify never writes: 1e400 parses to Infinity.
    const inf = await rawPost(
      sw,
      svc,
      '/v1/tx/risk/open',
      `{"pairIndex":0,"long":true,"leverage":10,"collateralUsdc":100,"markPrice":1e400,"owner":"${me}"}`,
    )
    await expectEachRefused([inf], [{ name: '1e400', status: 400, field: 'markPrice' }])
  })

  test('attack: TP, SL and trigger only a rounding away from the entry (1e-11) are refused on what is encoded, 400 naming the field, free', async () => {
    const me = ownerWallet(sw, 2).account.address
    const mark = 50_000
    const base = { pairIndex: BTC, long: true, leverage: 10, collateralUsdc: 100, markPrice: mark, owner: me }
    const cases: { name: string; body: unknown; field: string }[] = [
      // Above the entry as a float, equal to it at 1e10: the venue reads TP == openPrice.
      { name: 'long TP = mark + 1e-11', body: { ...base, tp: mark + 1e-11 }, field: 'tp' },
      { name: 'long SL = mark - 1e-11', body: { ...base, sl: mark - 1e-11 }, field: 'sl' },
      { name: 'short TP = mark - 1e-11', body: { ...base, long: false, tp: mark - 1e-11 }, field: 'tp' },
      { name: 'long TP = mark', body: { ...base, tp: mark }, field: 'tp' },
      {
        name: 'LIMIT long trigger = mark - 1e-11',
        body: { ...base, tradeType: 1, triggerPrice: mark - 1e-11 },
        field: 'triggerPrice',
      },
      {
        name: 'STOP long trigger = mark + 1e-11',
        body: { ...base, tradeType: 2, triggerPrice: mark + 1e-11 },
        field: 'triggerPrice',
      },
      {
        name: 'LIMIT long TP = trigger + 1e-11',
        body: { ...base, tradeType: 1, triggerPrice: 40_000, tp: 40_000 + 1e-11 },
        field: 'tp',
      },
    ]
    const answers = await Promise.all(cases.map((c) => client.post('/v1/tx/risk/open', c.body)))
    await expectEachRefused(
      answers,
      cases.map((c) => ({ name: c.name, status: 400, field: c.field, code: 'invalid_input' })),
    )
    // Negative zero TP is "none", as 0 is: built, and TP 0 encoded.
    const ok = await client.post<RiskOpenAction>('/v1/tx/risk/open', {
      ...base,
      markPrice: await priceOf(BTC),
    })
    const negZero = await rawPost(
      sw,
      svc,
      '/v1/tx/risk/open',
      JSON.stringify({ ...base, markPrice: await priceOf(BTC) }).replace('}', ',"tp":-0}'),
    )
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(negZero.status, JSON.stringify(negZero.body)).toBe(200)
    expect((negZero.body as { action: RiskOpenAction }).action.tp).toBe(0)
  })

  test('attack: moving a resting order’s trigger past the TP/SL it carries over is 422 wrong_side (not left to the venue), free', async () => {
    // #4 places a LIMIT long on ETH below the mark with a TP and an SL, which the order carries.
    const wallet = ownerWallet(sw, 4)
    const demo = wallet.account.address
    const mark = await priceOf(ETH_PAIR)
    const placed = await client.post<RiskOpenAction>('/v1/tx/risk/open', {
      pairIndex: ETH_PAIR,
      long: true,
      leverage: 5,
      collateralUsdc: 40,
      markPrice: mark,
      owner: demo,
      tradeType: 1,
      triggerPrice: Math.round(mark * 0.8),
      tp: Math.round(mark * 0.9),
      sl: Math.round(mark * 0.7),
    })
    expect(placed.status, JSON.stringify(placed.body)).toBe(200)
    await broadcast(sw.chain, wallet, placed.body)
    const resting = (
      await sw.chain.readContract({
        address: DIAMOND,
        abi: gtradeStandInAbi,
        functionName: 'getTrades',
        args: [demo],
      })
    ).find((t) => t.tradeType === 1 && t.isOpen)
    if (resting === undefined) throw new Error('the LIMIT order is not resting')
    const index = resting.index
    const order = await tradeOf(demo, index)
    const cases: { name: string; body: unknown; field: string }[] = [
      {
        name: 'trigger past the carried TP',
        body: { index, owner: demo, triggerPrice: Math.round(mark * 0.95) },
        field: 'tp',
      },
      {
        name: 'trigger past the carried SL',
        body: { index, owner: demo, triggerPrice: Math.round(mark * 0.65) },
        field: 'sl',
      },
      {
        name: 'trigger equal to the carried TP',
        body: { index, owner: demo, triggerPrice: Math.round(mark * 0.9) },
        field: 'tp',
      },
      {
        name: 'TP a rounding from the trigger',
        body: { index, owner: demo, tp: Number(order.openPrice) / 1e10 + 1e-11 },
        field: 'tp',
      },
    ]
    const answers = await Promise.all(cases.map((c) => client.post('/v1/tx/risk/modify', c.body)))
    await expectEachRefused(
      answers,
      cases.map((c) => ({ name: c.name, status: 422, field: c.field, code: 'wrong_side' })),
    )
    expect(await tradeOf(demo, index)).toEqual(order)
  })

  test('attack: another wallet’s trade index, and a size change of dust, are refused before any step, free', async () => {
    // #1 holds an open ETH trade at index 1; #2 holds nothing.
    const me = ownerWallet(sw, 2).account.address
    const demo = ownerWallet(sw, 1).account.address
    const mark = await priceOf(ETH_PAIR)
    const trade = await tradeOf(demo, 1)
    expect(trade.isOpen && trade.tradeType === 0).toBe(true)
    const cases: { name: string; body: unknown; status: number; field: string; code: string }[] = [
      {
        name: 'size increase on #1’s index',
        body: { index: 1, owner: me, sizeDeltaUsdc: 10, expectedPrice: mark },
        status: 422,
        field: 'index',
        code: 'trade_not_found',
      },
      {
        name: 'leverage on #1’s index',
        body: { index: 1, owner: me, leverage: 3 },
        status: 422,
        field: 'index',
        code: 'trade_not_found',
      },
      {
        name: 'SL on #1’s index',
        body: { index: 1, owner: me, sl: 1 },
        status: 422,
        field: 'index',
        code: 'trade_not_found',
      },
      {
        name: 'size increase of 1e-7 USDC (encodes to 0)',
        body: { index: 1, owner: demo, sizeDeltaUsdc: 1e-7, expectedPrice: mark },
        status: 400,
        field: 'sizeDeltaUsdc',
        code: 'invalid_input',
      },
      {
        name: 'size decrease of 1e-7 USDC (encodes to 0)',
        body: { index: 1, owner: demo, sizeDeltaUsdc: -1e-7, expectedPrice: mark },
        status: 400,
        field: 'sizeDeltaUsdc',
        code: 'invalid_input',
      },
    ]
    const answers = await Promise.all(cases.map((c) => client.post('/v1/tx/risk/modify', c.body)))
    await expectEachRefused(answers, cases)
    expect(await tradeOf(demo, 1)).toEqual(trade)
  })

  test('attack: a leverage change encodes exactly the asked x1e3 and approves exactly the top-up it pulls (verified by broadcasting)', async () => {
    const wallet = ownerWallet(sw, 3)
    const me = wallet.account.address
    const mark = await priceOf(BTC)
    const opened = await client.post<RiskOpenAction>('/v1/tx/risk/open', {
      pairIndex: BTC,
      long: true,
      leverage: 10.0004, // rounds to 10.000 at the venue's 1e3
      collateralUsdc: 100.0000004, // rounds to 100.000000
      markPrice: mark,
      owner: me,
    })
    expect(opened.status, JSON.stringify(opened.body)).toBe(200)
    expect(opened.body.action).toMatchObject({ leverage: 10, collateral: '100000000' })
    const { args } = decodeFunctionData({ abi: riskDiamondAbi, data: bareStep(opened.body, -1) })
    expect(args[0]).toMatchObject({ leverage: 10_000, collateralAmount: 100_000_000n, user: me })
    const before = await usdcOf(me)
    await broadcast(sw.chain, wallet, opened.body)
    expect(before - (await usdcOf(me))).toBe(100_000_000n)
    await sw.world.keeperTick()
    const filled = async () =>
      (
        await sw.chain.readContract({
          address: DIAMOND,
          abi: gtradeStandInAbi,
          functionName: 'getTrades',
          args: [me],
        })
      ).find((t) => t.tradeType === 0 && t.isOpen)
    await eventually(async () => expect(await filled()).toBeDefined())
    const trade = await filled()
    if (trade === undefined) throw new Error('the MARKET open was not filled')
    const lev = await client.post<RiskModifyAction>('/v1/tx/risk/modify', {
      index: trade.index,
      owner: me,
      leverage: 7.0006, // 7.001x
    })
    expect(lev.status, JSON.stringify(lev.body)).toBe(200)
    const topUp = (trade.collateralAmount * BigInt(trade.leverage)) / 7001n - trade.collateralAmount
    expect(lev.body.action).toMatchObject({ newLeverage: 7.001, collateralDelta: topUp.toString() })
    const approve = lev.body.steps.find((s) => selectorOf(s.data) === '0x095ea7b3')
    if (approve !== undefined) {
      const a = decodeFunctionData({ abi: erc20Abi, data: approve.data.slice(0, 138) as Hex })
      expect(a.args).toEqual([DIAMOND, topUp])
    }
    const upd = decodeFunctionData({ abi: riskDiamondAbi, data: bareStep(lev.body, -1) })
    expect(upd.args).toEqual([trade.index, 7001])
    const mid = await usdcOf(me)
    await broadcast(sw.chain, wallet, lev.body)
    expect(mid - (await usdcOf(me))).toBe(topUp)
  })
})
