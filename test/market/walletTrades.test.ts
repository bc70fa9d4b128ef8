import { wrapFetchWithPayment } from '@x402/fetch'
import {
  type Abi,
  type Address,
  createWalletClient,
  decodeEventLog,
  erc20Abi,
  getAddress,
  type Hex,
  type PublicClient,
  parseAbi,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { beforeAll, describe, expect, test } from 'vitest'
import gtradeEventsJson from '../../src/chain/abis/gtradeDiamondReads.json' with { type: 'json' }
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { DEVNET_PYTH_API_KEY } from '../../src/config.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { getOpenTrades } from '../../src/market/getOpenTrades.js'
import type { History } from '../../src/market/history/getHistory.js'
import { createMarketData } from '../../src/market/marketData.js'
import type { PendingOrders } from '../../src/market/pendingOrders/getPendingOrders.js'
import type { Stats } from '../../src/market/stats/getStats.js'
import { getHistoryRoute } from '../../src/routes/history/getHistory.js'
import { getPendingOrdersRoute } from '../../src/routes/pendingOrders/getPendingOrders.js'
import { getStatsRoute } from '../../src/routes/stats/getStats.js'
import { broadcast, builderClient, ownerWallet } from '../helpers/builderCalls.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { eventually } from '../helpers/eventually.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { payer, useInstance, useWorld } from '../helpers/serviceWorld.js'

/** The devnet Hermes simulator asks for its key, as Hermes does. */
const HERMES_KEY = { headers: { authorization: `Bearer ${DEVNET_PYTH_API_KEY}` } }

// gTrade wallet reads of demo account #1 (a closed BTC round trip, an open ETH long 2x, a resting ETH LIMIT),
// each figure checked against the diamond read here with viem, the chain's own events and receipts, the
// Pyth simulator, or the history simulator's raw records, with this file's own arithmetic.
const DIAMOND = BASE_ADDRESSES.GtradeDiamond
const ME = getAddress(demoAccounts[1]?.address as Address)
const REL = 1e-8

const diamondAbi = parseAbi([
  'struct Trade { address user; uint32 index; uint16 pairIndex; uint24 leverage; bool long; bool isOpen; uint8 collateralIndex; uint8 tradeType; uint120 collateralAmount; uint64 openPrice; uint64 tp; uint64 sl; bool isCounterTrade; uint160 positionSizeToken; uint24 __placeholder; }',
  'struct TradeInfo { uint32 createdBlock; uint32 tpLastUpdatedBlock; uint32 slLastUpdatedBlock; uint16 maxSlippageP; uint48 lastOiUpdateTs; uint48 collateralPriceUsd; uint8 contractsVersion; uint32 lastPosIncreaseBlock; uint8 __placeholder; }',
  'struct GroupLiquidationParams { uint40 maxLiqSpreadP; uint40 startLiqThresholdP; uint40 endLiqThresholdP; uint24 startLeverage; uint24 endLeverage; }',
  'function getTrades(address) view returns (Trade[])',
  'function getTradeInfos(address) view returns (TradeInfo[])',
  'function getTrade(address, uint32) view returns (Trade)',
  'function getPairLiquidationParams(uint256) view returns (GroupLiquidationParams)',
  'function pairTotalPositionSizeFeeP(uint256) view returns (uint256)',
  'function prices(uint256) view returns (uint64)',
  'function openTrade(Trade _trade, uint16 _maxSlippageP, address _referrer)',
  'function closeTradeMarket(uint32 _index, uint64 _expectedPrice)',
])
const eventsAbi = gtradeEventsJson as Abi

// The answers as the service types them, after the route's own output schema accepted them.
type HistoryAnswer = History & { address: string }
type StatsAnswer = Stats & { address: string }
type PendingAnswer = PendingOrders & { address: string; sources: { chain: { ok: true } } }

const sw = useWorld()
const svc = useInstance(sw)
let chain: PublicClient

beforeAll(async () => {
  chain = sw.chain
}, 120_000)

const pay = () => wrapFetchWithPayment(fetch, payer(3).client)

async function paidJson(path: string): Promise<unknown> {
  const res = await pay()(`${svc.url}${path}`)
  expect(res.status, await res.clone().text()).toBe(200)
  expect(res.headers.get('payment-response')).not.toBeNull()
  return res.json()
}

function expectRel(actual: number | null | undefined, expected: number, rel = REL) {
  expect(actual).not.toBeNull()
  expect(actual).toBeDefined()
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(
    rel * Math.max(Math.abs(expected), 1e-9),
  )
}

const tradesOf = (owner: Address, blockNumber?: bigint) =>
  chain.readContract({
    address: DIAMOND,
    abi: diamondAbi,
    functionName: 'getTrades',
    args: [owner],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  })

/** The Pyth simulator's latest ETH/USD price (what Hermes serves), with its publish time. */
async function hermesEth(): Promise<{ price: number; time: number }> {
  const base = svc.config.upstreams.pythHermes
  const feeds = (await (await fetch(`${base}/v2/price_feeds`, HERMES_KEY)).json()) as {
    id: string
    attributes: { base: string; quote_currency: string }
  }[]
  const feed = feeds.find((f) => f.attributes.base === 'ETH' && f.attributes.quote_currency === 'USD')
  if (!feed) throw new Error('no ETH/USD feed')
  const latest = (await (
    await fetch(`${base}/v2/updates/price/latest?ids[]=${feed.id}&parsed=true`, HERMES_KEY)
  ).json()) as { parsed: { price: { price: string; expo: number; publish_time: number } }[] }
  const p = latest.parsed[0]?.price
  if (!p) throw new Error('no ETH price')
  return { price: Number(p.price) * 10 ** p.expo, time: p.publish_time }
}

/** The raw history simulator records (backend-global wire format), all pages. */
interface RawRecord {
  action: string
  pair: string
  tradeIndex: number
  price: number
  pnl_net: number
  size: number
  leverage: number
  long: boolean
  tx: Hex
  block: number
  date: string
}
async function rawHistory(owner: Address): Promise<RawRecord[]> {
  const out: RawRecord[] = []
  let cursor: string | null = null
  do {
    const q: string = cursor === null ? '' : `&cursor=${cursor}`
    const url = `${svc.config.upstreams.gtradeHistory}/api/personal-trading-history/${owner}?chainId=8453&limit=100${q}`
    const page = (await (await fetch(url)).json()) as {
      data: RawRecord[]
      pagination: { nextCursor: string | null }
    }
    out.push(...page.data)
    cursor = page.pagination.nextCursor
  } while (cursor !== null)
  return out
}

describe('getOpenTrades (the positions trades section, through the instance’s chain and market adapters)', () => {
  test('behavior: account #1’s open ETH long equals getTrades; liquidation price and pnl recomputed', async () => {
    const deps = svc.services.deps
    // A fresh adapter set (no 1 s mark cache) so the mark is the simulator's price of this very second.
    const market = createMarketData(svc.config.upstreams)
    let before: { price: number; time: number }
    let after: { price: number; time: number }
    let answer: Awaited<ReturnType<typeof getOpenTrades>>
    let tries = 0
    do {
      before = await hermesEth()
      answer = await getOpenTrades(deps.chain, market, ME, deps.clock())
      after = await hermesEth()
    } while (before.time !== after.time && ++tries < 10)
    expect(before.time).toBe(after.time)

    const block = BigInt(answer.block.number)
    const onchain = (await tradesOf(ME, block)).filter((t) => t.isOpen && t.tradeType === 0)
    expect(answer.trades.map((t) => t.index)).toEqual(onchain.map((t) => t.index))
    const eth = answer.trades.find((t) => t.pair === 'ETH/USD')
    const raw = onchain.find((t) => t.pairIndex === 1)
    if (!eth || !raw) throw new Error('no open ETH trade')
    // The resting LIMIT is not a position.
    const limit = (await tradesOf(ME, block)).find((t) => t.tradeType === 1)
    expect(limit).toBeDefined()
    expect(answer.trades.some((t) => t.index === limit?.index)).toBe(false)

    const collateral = Number(raw.collateralAmount) / 1e6
    const leverage = raw.leverage / 1000
    const entry = Number(raw.openPrice) / 1e10
    expect(eth).toMatchObject({ index: raw.index, pairIndex: 1, long: true, leverage: 2, sl: null })
    expectRel(eth.entry, entry)
    expectRel(eth.collateralUsdc, collateral)
    expectRel(eth.sizeUsd, collateral * leverage)
    expectRel(eth.tp, Number(raw.tp) / 1e10)

    // protocols.md §1: threshold from the pair's liquidation params, closing fee on the size; the stand-in
    // has no holding fees and no closing spread.
    const [liq, feeP] = await Promise.all([
      chain.readContract({
        address: DIAMOND,
        abi: diamondAbi,
        functionName: 'getPairLiquidationParams',
        args: [1n],
        blockNumber: block,
      }),
      chain.readContract({
        address: DIAMOND,
        abi: diamondAbi,
        functionName: 'pairTotalPositionSizeFeeP',
        args: [1n],
        blockNumber: block,
      }),
    ])
    const lev = raw.leverage
    const start = Number(liq.startLiqThresholdP) / 1e12
    const end = Number(liq.endLiqThresholdP) / 1e12
    const threshold =
      lev <= liq.startLeverage
        ? start
        : lev >= liq.endLeverage
          ? end
          : start + ((end - start) * (lev - liq.startLeverage)) / (liq.endLeverage - liq.startLeverage)
    const closingFee = (collateral * leverage * Number(feeP)) / 1e12
    const distance = (entry * (collateral * threshold - closingFee)) / collateral / leverage
    expectRel(eth.liquidationPrice, entry - distance, 1e-7)
    expectRel(eth.closingFeeUsd, closingFee)

    expectRel(eth.markPrice, before.price, 1e-9)
    const mark = before.price
    expectRel(eth.pnlUsd, (collateral * leverage * (mark - entry)) / entry, 1e-7)
    expectRel(eth.pnlPct, (((collateral * leverage * (mark - entry)) / entry) * 100) / collateral, 1e-7)
    expectRel(eth.liquidationDistancePct, ((mark - (entry - distance)) / mark) * 100, 1e-7)
    expect(answer.mark).toEqual({ ok: true })
    expect(answer.markAgeSec).toBeGreaterThanOrEqual(0)
  })

  test('default: an address with nothing has no open trades', async () => {
    const nobody = getAddress(`0x${'ab'.repeat(20)}`)
    const answer = await getOpenTrades(svc.services.deps.chain, svc.services.deps.market, nobody, Date.now())
    expect(answer.trades).toEqual([])
  })
})

describe('GET /v1/history and /v1/stats (paid)', () => {
  test('behavior: the closed BTC round trip with real open/close transactions, prices and pnl from the chain', async () => {
    const answer = getHistoryRoute.output.parse(await paidJson(`/v1/history/${ME}`)) as HistoryAnswer
    expect(answer.sources.history).toEqual({ ok: true })
    expect(answer.nextCursor).toBeNull()
    expect(answer.trades).toHaveLength(1)
    const btc = answer.trades[0]
    if (!btc) throw new Error('no round trip')
    expect(btc).toMatchObject({
      pair: { base: 'BTC', quote: 'USD' },
      side: 'long',
      closeReason: 'manual',
      leverage: 2,
    })
    const [open, close] = await Promise.all([
      chain.getTransactionReceipt({ hash: btc.openTx as Hex }),
      chain.getTransactionReceipt({ hash: btc.closeTx as Hex }),
    ])
    expect(open.status).toBe('success')
    expect(close.status).toBe('success')
    expect(open.to?.toLowerCase()).toBe(DIAMOND.toLowerCase())
    expect(close.to?.toLowerCase()).toBe(DIAMOND.toLowerCase())
    expect(open.blockNumber).toBeLessThan(close.blockNumber)
    const executed = (logs: typeof open.logs) =>
      logs.flatMap((l) => {
        try {
          const d = decodeEventLog({ abi: eventsAbi, data: l.data, topics: l.topics }) as unknown as {
            eventName: string
            args: {
              user: Address
              index: number
              open: boolean
              marketPrice: bigint
              amountSentToTrader: bigint
              t: { collateralAmount: bigint; openPrice: bigint; leverage: number; pairIndex: number }
            }
          }
          return d.eventName === 'MarketExecuted' && d.args.user === ME ? [d.args] : []
        } catch {
          return []
        }
      })
    const [opened] = executed(open.logs)
    const [closed] = executed(close.logs)
    if (!opened || !closed) throw new Error('no MarketExecuted events')
    expect(opened.open).toBe(true)
    expect(closed.open).toBe(false)
    expect(opened.t.pairIndex).toBe(0)
    expect(btc.tradeIndex).toBe(closed.index)
    expectRel(btc.openPrice, Number(opened.t.openPrice) / 1e10)
    expectRel(btc.closePrice, Number(closed.marketPrice) / 1e10)
    const collateral = Number(opened.t.collateralAmount) / 1e6
    expectRel(btc.collateralUsdc, collateral)
    // The USDC the close paid the trader, from the close transaction's own Transfer log.
    const paid = close.logs.flatMap((l) => {
      if (l.address.toLowerCase() !== USDC.toLowerCase()) return []
      const d = decodeEventLog({ abi: erc20Abi, data: l.data, topics: l.topics })
      return d.eventName === 'Transfer' && d.args.to === ME ? [d.args.value] : []
    })
    expect(paid).toEqual([closed.amountSentToTrader])
    const pnl = Number(closed.amountSentToTrader) / 1e6 - Number(closed.t.collateralAmount) / 1e6
    expectRel(btc.pnlUsd, pnl, 1e-9)
    expectRel(btc.pnlPct, (pnl / collateral) * 100, 1e-8)
    const [openBlock, closeBlock] = await Promise.all([
      chain.getBlock({ blockNumber: open.blockNumber }),
      chain.getBlock({ blockNumber: close.blockNumber }),
    ])
    expect(btc.openedAt).toBe(Number(openBlock.timestamp))
    expect(btc.closedAt).toBe(Number(closeBlock.timestamp))
  })

  test('behavior: paging with limit=1 walks every event and yields the same round trips', async () => {
    const full = getHistoryRoute.output.parse(await paidJson(`/v1/history/${ME}`)) as HistoryAnswer
    const paged: typeof full.trades = []
    let cursor: string | null = null
    let pages = 0
    do {
      const q: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`
      const page = getHistoryRoute.output.parse(
        await paidJson(`/v1/history/${ME}?limit=1${q}`),
      ) as HistoryAnswer
      paged.push(...page.trades)
      cursor = page.nextCursor
      pages++
    } while (cursor !== null && pages < 20)
    // One page per backend event: the BTC open and close, the ETH open.
    expect(pages).toBe((await rawHistory(ME)).length)
    expect(paged).toEqual(full.trades)
  })

  test('behavior: a fresh wallet’s two round trips come newest first, and limit=1 pages to the same set', async () => {
    const fresh = await sw.freshWallet(500_000_000n, 10n ** 18n)
    const me = fresh.account.address
    const wallet = createWalletClient({
      account: privateKeyToAccount(fresh.privateKey),
      chain: base,
      transport: headroomHttp(sw.world.rpcUrl),
    })
    const mined = async (hash: Promise<Hex>) =>
      expect((await pollReceipt(chain, await hash, RECEIPT)).status).toBe('success')
    await mined(
      wallet.writeContract({
        address: USDC,
        abi: erc20Abi,
        functionName: 'approve',
        args: [DIAMOND, 10n ** 12n],
      }),
    )
    // BTC then ETH: market open, filled by the world's keeper, market close, filled.
    for (const pairIndex of [0, 1]) {
      const price = await chain.readContract({
        address: DIAMOND,
        abi: diamondAbi,
        functionName: 'prices',
        args: [BigInt(pairIndex)],
      })
      const trade = {
        user: me,
        index: 0,
        pairIndex,
        leverage: 3_000,
        long: pairIndex === 0,
        isOpen: true,
        collateralIndex: 1,
        tradeType: 0,
        collateralAmount: 100_000_000n,
        openPrice: price,
        tp: 0n,
        sl: 0n,
        isCounterTrade: false,
        positionSizeToken: 0n,
        __placeholder: 0,
      }
      await mined(
        wallet.writeContract({
          address: DIAMOND,
          abi: diamondAbi,
          functionName: 'openTrade',
          args: [trade, 1_000, zeroAddress],
        }),
      )
      const filled = await eventually(async () => {
        const t = (await tradesOf(me)).find((x) => x.isOpen && x.pairIndex === pairIndex && x.tradeType === 0)
        if (!t) throw new Error('not filled yet')
        return t
      })
      const now = await chain.readContract({
        address: DIAMOND,
        abi: diamondAbi,
        functionName: 'prices',
        args: [BigInt(pairIndex)],
      })
      await mined(
        wallet.writeContract({
          address: DIAMOND,
          abi: diamondAbi,
          functionName: 'closeTradeMarket',
          args: [filled.index, now],
        }),
      )
      await eventually(async () => {
        const t = await chain.readContract({
          address: DIAMOND,
          abi: diamondAbi,
          functionName: 'getTrade',
          args: [me, filled.index],
        })
        if (t.isOpen) throw new Error('not closed yet')
      })
    }
    const full = getHistoryRoute.output.parse(await paidJson(`/v1/history/${me}`)) as HistoryAnswer
    expect(full.trades.map((t) => `${t.pair.base}:${t.side}:${t.leverage}`)).toEqual([
      'ETH:short:3',
      'BTC:long:3',
    ])
    expect(full.trades[0]?.closedAt).toBeGreaterThanOrEqual(full.trades[1]?.closedAt ?? Infinity)
    for (const t of full.trades) {
      expect(t.openTx).not.toBeNull()
      expectRel(t.collateralUsdc, (await rawHistory(me)).find((r) => r.tx === t.openTx)?.size ?? Number.NaN)
    }
    const paged: typeof full.trades = []
    let cursor: string | null = null
    let pages = 0
    do {
      const q: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`
      const page = getHistoryRoute.output.parse(
        await paidJson(`/v1/history/${me}?limit=1${q}`),
      ) as HistoryAnswer
      expect(page.trades.length).toBeLessThanOrEqual(1)
      paged.push(...page.trades)
      cursor = page.nextCursor
      pages++
    } while (cursor !== null && pages < 20)
    expect(pages).toBe(4)
    expect(paged).toEqual(full.trades)
    const stats = getStatsRoute.output.parse(await paidJson(`/v1/stats/${me}`)) as StatsAnswer
    const pnls = full.trades.map((t) => t.pnlUsd as number)
    expect(stats.trades).toBe(2)
    expectRel(stats.netUsd, (pnls[0] as number) + (pnls[1] as number), 1e-9)
  }, 60_000)

  test('behavior: stats equal a recomputation from the simulator’s raw records', async () => {
    const raw = await rawHistory(ME)
    // This file's own pairing and arithmetic: each close with the open of its pair and trade index.
    const trips = raw
      .filter((r) => r.action.startsWith('TradeClosed'))
      .map((c) => {
        const o = raw.find(
          (r) => r.action.startsWith('TradeOpened') && r.tradeIndex === c.tradeIndex && r.pair === c.pair,
        )
        if (!o) throw new Error('unpaired close')
        return { pnl: c.pnl_net, r: o.size }
      })
    expect(trips).toHaveLength(1)
    const pnls = trips.map((t) => t.pnl)
    const wins = pnls.filter((p) => p > 0)
    const losses = pnls.filter((p) => p < 0)
    const grossProfit = wins.reduce((a, b) => a + b, 0)
    const grossLoss = -losses.reduce((a, b) => a + b, 0)
    const stats = getStatsRoute.output.parse(await paidJson(`/v1/stats/${ME}`)) as StatsAnswer
    expect(stats).toMatchObject({
      address: ME,
      trades: trips.length,
      wins: wins.length,
      losses: losses.length,
      truncated: false,
      sources: { history: { ok: true } },
    })
    expectRel(stats.winRate, wins.length / trips.length)
    expectRel(
      stats.netUsd,
      pnls.reduce((a, b) => a + b, 0),
      1e-9,
    )
    expectRel(stats.grossProfit, grossProfit, 1e-9)
    expectRel(stats.grossLoss, grossLoss, 1e-9)
    if (grossLoss === 0) expect(stats.profitFactor).toBeNull()
    else expectRel(stats.profitFactor, grossProfit / grossLoss, 1e-9)
    expectRel(stats.expectancyR, trips.reduce((a, t) => a + t.pnl / t.r, 0) / trips.length, 1e-9)
    expectRel(stats.bestTrade, Math.max(...pnls), 1e-9)
    expectRel(stats.worstTrade, Math.min(...pnls), 1e-9)
    if (wins.length === 0) expect(stats.avgWin).toBeNull()
    else expectRel(stats.avgWin, grossProfit / wins.length, 1e-9)
    if (losses.length === 0) expect(stats.avgLoss).toBeNull()
    else expectRel(stats.avgLoss, grossLoss / losses.length, 1e-9)
  })

  test('default: a fresh address has empty history, zero-trade stats and no pending orders', async () => {
    const nobody = getAddress(`0x${'cd'.repeat(20)}`)
    const [history, stats, orders] = await Promise.all([
      paidJson(`/v1/history/${nobody}`),
      paidJson(`/v1/stats/${nobody}`),
      paidJson(`/v1/pending-orders/${nobody}`),
    ])
    expect(getHistoryRoute.output.parse(history)).toEqual({
      address: nobody,
      trades: [],
      nextCursor: null,
      sources: { history: { ok: true } },
    })
    expect(getStatsRoute.output.parse(stats)).toEqual({
      address: nobody,
      trades: 0,
      wins: 0,
      losses: 0,
      winRate: null,
      netUsd: 0,
      grossProfit: 0,
      grossLoss: 0,
      profitFactor: null,
      expectancyR: null,
      avgWin: null,
      avgLoss: null,
      bestTrade: null,
      worstTrade: null,
      truncated: false,
      sources: { history: { ok: true } },
    })
    const pending = getPendingOrdersRoute.output.parse(orders) as PendingAnswer
    expect(pending.orders).toEqual([])
    expect(pending.sources).toEqual({ chain: { ok: true } })
  })

  test('error: a bad address, cursor or limit is a 400 naming the field, and nothing is charged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const paying = wrapFetchWithPayment(fetch, who.client)
    const cases: [string, string][] = [
      ['/v1/history/0x1234', 'address'],
      ['/v1/stats/not-an-address', 'address'],
      ['/v1/pending-orders/0x12', 'address'],
      [`/v1/history/${ME}?limit=0`, 'limit'],
      [`/v1/history/${ME}?limit=101`, 'limit'],
      [`/v1/history/${ME}?limit=abc`, 'limit'],
      [`/v1/history/${ME}?cursor=${encodeURIComponent('bad cursor!')}`, 'cursor'],
      // attack: a cursor smuggling another query parameter to the backend is refused, not forwarded.
      [`/v1/history/${ME}?cursor=${encodeURIComponent('0&chainId=1')}`, 'cursor'],
    ]
    await Promise.all(
      cases.map(async ([path, field]) => {
        const res = await paying(`${svc.url}${path}`)
        expect(res.status, path).toBe(400)
        expect(res.headers.get('payment-response'), path).toBeNull()
        expect(((await res.json()) as { error: { field: string } }).error.field, path).toBe(field)
      }),
    )
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
  })
})

// Last: it cancels account #1's resting order, which the reads above rely on.
describe('GET /v1/pending-orders (paid), then the cancel it offers', () => {
  test('behavior: the ETH LIMIT is listed (not the open trade) and its cancel body cancels it onchain', async () => {
    const answer = getPendingOrdersRoute.output.parse(
      await paidJson(`/v1/pending-orders/${ME}`),
    ) as PendingAnswer
    const block = BigInt(answer.block.number)
    const [trades, infos] = await Promise.all([
      tradesOf(ME, block),
      chain.readContract({
        address: DIAMOND,
        abi: diamondAbi,
        functionName: 'getTradeInfos',
        args: [ME],
        blockNumber: block,
      }),
    ])
    const resting = trades.flatMap((t, i) => (t.isOpen && t.tradeType !== 0 ? [{ t, info: infos[i] }] : []))
    expect(answer.orders.map((o) => o.index)).toEqual(resting.map((r) => r.t.index))
    const filled = trades.filter((t) => t.isOpen && t.tradeType === 0).map((t) => t.index)
    expect(answer.orders.some((o) => filled.includes(o.index))).toBe(false)
    const order = answer.orders.find((o) => o.pair === 'ETH/USD' && o.orderType === 'limit')
    const raw = resting.find((r) => r.t.pairIndex === 1 && r.t.tradeType === 1)
    if (!order || !raw?.info) throw new Error('no resting ETH LIMIT')
    expect(order).toMatchObject({
      index: raw.t.index,
      pairIndex: 1,
      long: true,
      exposure: 'none',
      tp: null,
      sl: null,
    })
    expectRel(order.triggerPrice, Number(raw.t.openPrice) / 1e10)
    expectRel(order.collateralUsdc, Number(raw.t.collateralAmount) / 1e6)
    expectRel(order.leverage, raw.t.leverage / 1000)
    expect(order.createdBlock).toBe(raw.info.createdBlock)
    const created = await chain.getBlock({ blockNumber: BigInt(raw.info.createdBlock) })
    expect(order.createdAt).toBe(Number(created.timestamp))
    expect(order.cancel).toEqual({
      method: 'POST',
      path: '/v1/tx/risk/cancel',
      body: { index: raw.t.index, owner: ME },
    })

    const usdcBefore = await sw.usdcBalance(ME)
    const built = await builderClient(sw, svc).post(order.cancel.path, order.cancel.body)
    expect(built.status, JSON.stringify(built.body)).toBe(200)
    await broadcast(chain, ownerWallet(sw, 1), built.body)
    const after = await chain.readContract({
      address: DIAMOND,
      abi: diamondAbi,
      functionName: 'getTrade',
      args: [ME, raw.t.index],
    })
    expect(after.isOpen).toBe(false)
    expect((await sw.usdcBalance(ME)) - usdcBefore).toBe(raw.t.collateralAmount)
    const again = getPendingOrdersRoute.output.parse(
      await paidJson(`/v1/pending-orders/${ME}`),
    ) as PendingAnswer
    expect(again.orders.some((o) => o.index === raw.t.index)).toBe(false)
  })
})
