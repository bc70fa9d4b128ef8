import { existsSync, readFileSync } from 'node:fs'
import {
  type Abi,
  type AbiEvent,
  type AbiFunction,
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  erc20Abi,
  parseEventLogs,
  toEventSelector,
  toFunctionSelector,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollReceipt } from '../../../src/chain/pollReceipt.js'
import { deployGtrade, GTRADE_ADDRESSES } from '../../../src/devnet/deploy/gtrade.js'
import { deployTokens, fundToken } from '../../../src/devnet/deploy/tokens.js'
import { keeperTick, startKeeper } from '../../../src/devnet/keeper.js'
import { RECEIPT } from '../../helpers/chainChecks.js'
import { type Harness, startHarness } from './harness.js'

const REFERENCE_ABI = new URL('../../../docs/abi/gns-multicollat-diamond.v10.json', import.meta.url)
const E10 = 10n ** 10n
const USDC = (n: number): bigint => BigInt(Math.round(n * 1e6))
const ETH_PAIR = 1

let h: Harness
let abi: Abi
let usdc: Address
let trader: Address
const diamond = GTRADE_ADDRESSES.diamond
let ethPrice = 3_500n * E10

function newTrade(overrides: Partial<Record<string, unknown>>): Record<string, unknown> {
  return {
    user: trader,
    index: 0,
    pairIndex: ETH_PAIR,
    leverage: 10_000,
    long: true,
    isOpen: true,
    collateralIndex: 1,
    tradeType: 0,
    collateralAmount: USDC(100),
    openPrice: ethPrice,
    tp: 0n,
    sl: 0n,
    isCounterTrade: false,
    positionSizeToken: 0n,
    __placeholder: 0,
    ...overrides,
  }
}

async function asTrader(functionName: string, args: readonly unknown[]) {
  const wallet = h.users[0]!
  const hash = await wallet.writeContract({ address: diamond, abi, functionName, args } as Parameters<
    typeof wallet.writeContract
  >[0])
  const receipt = await pollReceipt(h.ctx.publicClient, hash, RECEIPT)
  expect(receipt.status).toBe('success')
  return receipt
}

const tick = () =>
  keeperTick({
    publicClient: h.ctx.publicClient,
    walletClient: h.ctx.walletClient,
    gtrade: diamond,
    prices: (pairIndex) => (pairIndex === ETH_PAIR ? ethPrice : 0n),
  })

const balance = () =>
  h.ctx.publicClient.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [trader] })

interface TradeView {
  index: number
  tradeType: number
  openPrice: bigint
  collateralAmount: bigint
}

const trades = async () =>
  (await h.ctx.publicClient.readContract({
    address: diamond,
    abi,
    functionName: 'getTrades',
    args: [trader],
  })) as readonly TradeView[]

beforeAll(async () => {
  h = await startHarness()
  const tokens = await deployTokens(h.ctx, { ethUsd: 3_500, btcUsd: 100_000 })
  usdc = tokens.USDC
  await deployGtrade(h.ctx, { usdc, vaultFunding: USDC(1_000_000) })
  abi = ['GTradeDiamondStandIn', 'GTradeViewsFacetStandIn', 'GTradeExecutorFacetStandIn'].flatMap(
    (name) => h.ctx.artifact(name).abi,
  )
  trader = h.users[0]!.account.address
  await fundToken(h.ctx, usdc, trader, USDC(10_000))
  const hash = await h.users[0]!.writeContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'approve',
    args: [diamond, USDC(10_000)],
  })
  await pollReceipt(h.ctx.publicClient, hash, RECEIPT)
}, 60_000)

afterAll(async () => {
  await h?.stop()
})

describe('gTrade v10 stand-in', () => {
  it('behavior: selectors and events match the real v10 ABI', () => {
    const fn = (name: string) =>
      abi.find((item): item is AbiFunction => item.type === 'function' && item.name === name)
    expect(toFunctionSelector(fn('openTrade')!)).toBe('0x5bfcc4f8')
    expect(toFunctionSelector(fn('closeTradeMarket')!)).toBe('0x36ce736b')
    expect(toFunctionSelector(fn('getTrades')!)).toBe('0x4bfad7c0')
    expect(toFunctionSelector(fn('getPendingOrders')!)).toBe('0x4c73cb25')
    if (!existsSync(REFERENCE_ABI)) return
    const reference = JSON.parse(readFileSync(REFERENCE_ABI, 'utf8')) as Abi
    const referenceSelectors = new Set(
      reference.filter((i): i is AbiFunction => i.type === 'function').map((i) => toFunctionSelector(i)),
    )
    const referenceTopics = new Map(
      reference.filter((i): i is AbiEvent => i.type === 'event').map((i) => [i.name, toEventSelector(i)]),
    )
    const referenceNames = new Set(
      reference.filter((i) => i.type === 'function').map((i) => (i as AbiFunction).name),
    )
    for (const item of abi) {
      if (item.type === 'function' && referenceNames.has(item.name)) {
        expect(referenceSelectors.has(toFunctionSelector(item)), item.name).toBe(true)
      }
      if (item.type === 'event' && referenceTopics.has(item.name)) {
        expect(toEventSelector(item), item.name).toBe(referenceTopics.get(item.name))
      }
    }
  })

  it('behavior: views report the Base configuration', async () => {
    const read = (functionName: string, args: readonly unknown[] = []) =>
      h.ctx.publicClient.readContract({ address: diamond, abi, functionName, args })
    expect(await read('getCollateralIndex', [usdc])).toBe(1)
    expect(await read('pairsCount')).toBe(4n)
    expect(((await read('pairs', [1n])) as { from: string }).from).toBe('ETH')
    expect(await read('pairMaxLeverage', [1n])).toBe(150_000n)
    expect(await read('getCurrentContractsVersion')).toBe(2)
    expect(await read('facetAddress', ['0x5bfcc4f8'])).toBe(diamond)
    expect(await read('facetAddress', ['0xdeadbeef'])).toBe('0x0000000000000000000000000000000000000000')
  })

  it('behavior: MARKET open is filled by the keeper, then closed with PnL in USDC', async () => {
    const before = await balance()
    const openReceipt = await asTrader('openTrade', [
      newTrade({}),
      1_000,
      '0x0000000000000000000000000000000000000000',
    ])
    expect(parseEventLogs({ abi, logs: openReceipt.logs, eventName: 'MarketOrderInitiated' })).toHaveLength(1)
    expect(await balance()).toBe(before - USDC(100))
    expect(await trades()).toHaveLength(0)

    const filled = await tick()
    expect(
      filled.actions.filter((a) => a.kind === 'executeMarketOrder' && a.error === undefined),
    ).toHaveLength(1)
    const [open] = await trades()
    expect(open!.tradeType).toBe(0)
    expect(open!.openPrice).toBe(ethPrice + (ethPrice * 400_000_000n) / 2n / 10n ** 12n) // +half spread
    expect(open!.collateralAmount).toBe(USDC(100) - USDC(0.6)) // 0.06% of the $1000 position

    ethPrice = 3_850n * E10 // +10%
    await asTrader('closeTradeMarket', [open!.index, ethPrice])
    const closed = await tick()
    const closeAction = closed.actions.find((a) => a.kind === 'executeMarketOrder')
    expect(closeAction?.error).toBeUndefined()
    const receipt = await h.ctx.publicClient.getTransactionReceipt({ hash: closeAction!.hash! })
    const [executed] = parseEventLogs({
      abi,
      logs: receipt.logs,
      eventName: 'MarketExecuted',
    }) as unknown as {
      args: { open: boolean; amountSentToTrader: bigint; percentProfit: bigint }
    }[]
    expect(executed!.args.open).toBe(false)
    expect(parseEventLogs({ abi, logs: receipt.logs, eventName: 'TradeClosed' })).toHaveLength(1)
    const paid = executed!.args.amountSentToTrader
    expect(paid).toBeGreaterThan(USDC(195))
    expect(paid).toBeLessThan(USDC(200))
    expect(await balance()).toBe(before - USDC(100) + paid)
    expect(await trades()).toHaveLength(0)
  })

  it('behavior: LIMIT order rests until the price crosses, then opens at the limit price', async () => {
    ethPrice = 3_500n * E10
    const limit = 3_400n * E10
    await asTrader('openTrade', [
      newTrade({ tradeType: 1, openPrice: limit, tp: 3_800n * E10 }),
      1_000,
      '0x0000000000000000000000000000000000000000',
    ])
    const [resting] = await trades()
    expect(resting!.tradeType).toBe(1)
    expect((await tick()).actions.filter((a) => a.kind === 'executeTrigger')).toHaveLength(0)

    ethPrice = 3_390n * E10
    const result = await tick()
    const trigger = result.actions.find((a) => a.kind === 'executeTrigger')
    expect(trigger).toMatchObject({ orderType: 2 })
    expect(trigger?.error).toBeUndefined()
    const receipt = await h.ctx.publicClient.getTransactionReceipt({ hash: trigger!.hash! })
    expect(parseEventLogs({ abi, logs: receipt.logs, eventName: 'LimitExecuted' })).toHaveLength(1)
    const [opened] = await trades()
    expect(opened!.tradeType).toBe(0)
    expect(opened!.openPrice).toBe(limit)

    ethPrice = 3_801n * E10 // take profit
    const tp = (await tick()).actions.find((a) => a.kind === 'executeTrigger')
    expect(tp).toMatchObject({ orderType: 4 })
    expect(await trades()).toHaveLength(0)
  })

  it('behavior: leverage and position-size updates are two-phase; liquidation pays nothing', async () => {
    ethPrice = 3_500n * E10
    const keeper = startKeeper({
      publicClient: h.ctx.publicClient,
      walletClient: h.ctx.walletClient,
      gtrade: diamond,
      prices: () => ethPrice,
      intervalMs: 50,
    })
    const waitFor = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50))
      expect(await check()).toBe(true)
    }
    try {
      await asTrader('openTrade', [
        newTrade({ leverage: 20_000 }),
        1_000,
        '0x0000000000000000000000000000000000000000',
      ])
      await waitFor(async () => (await trades()).length === 1)
      const [t] = await trades()
      expect(t!.collateralAmount).toBe(USDC(100) - USDC(1.2)) // 0.06% of $2000

      // 20x -> 10x: the collateral doubles (pulled on request), position size unchanged
      await asTrader('updateLeverage', [t!.index, 10_000])
      await waitFor(async () => (await trades())[0]!.collateralAmount === 2n * t!.collateralAmount)

      // +100 USDC at 10x, then -50 USDC of collateral
      await asTrader('increasePositionSize', [t!.index, USDC(100), 10_000, ethPrice, 1_000])
      await waitFor(async () => (await trades())[0]!.collateralAmount > 2n * t!.collateralAmount)
      const grown = (await trades())[0]!
      await asTrader('decreasePositionSize', [t!.index, USDC(50), 0, ethPrice])
      await waitFor(async () => (await trades())[0]!.collateralAmount === grown.collateralAmount - USDC(50))

      // -15% at ~10x is past the 90% liquidation threshold
      const before = await balance()
      ethPrice = 2_975n * E10
      await waitFor(async () => (await trades()).length === 0)
      expect(await balance()).toBe(before)
    } finally {
      await keeper.stop()
    }
  })

  it('error: an unimplemented selector reverts NotImplemented', async () => {
    try {
      await h.ctx.publicClient.readContract({
        address: diamond,
        abi: [
          ...abi,
          { type: 'function', name: 'openTradeNative', inputs: [], outputs: [], stateMutability: 'view' },
        ],
        functionName: 'openTradeNative',
      })
      expect.unreachable()
    } catch (error) {
      const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
      expect(reverted).toBeInstanceOf(ContractFunctionRevertedError)
      expect((reverted as ContractFunctionRevertedError).data?.errorName).toBe('NotImplemented')
    }
  })
})
