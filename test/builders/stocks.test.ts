import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  formatUnits,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
} from 'viem'
import { base } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { builderCodeSuffix } from '../../src/builders/builderCode.js'
import { createBuilderEngine } from '../../src/builders/builderEngine.js'
import {
  buildStockOrder,
  MAX_FEED_DEVIATION_PCT,
  type StockAdvisory,
  type StockOrderAction,
} from '../../src/builders/stockOrder.js'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { quoterV2Abi, swapRouter02Abi } from '../../src/chain/swapVenueAbis.js'
import { type StockTicker, TOKENIZED_STOCKS } from '../../src/chain/tokenizedStocks.js'
import { DEVNET_BUILDER_CODE } from '../../src/config.js'
import { stockStandInAbi } from '../../src/devnet/deploy/stocks.js'
import { devnetDeployer } from '../../src/devnet/devnetAccounts.js'
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

// POST /v1/tx/stocks on the devnet: paid with the official x402 client, built for a demo account,
// broadcast, and every number of the answer checked against the chain itself (the feed's
// latestRoundData, the registry's getOracleParams, the pool's token balances, QuoterV2, balances moved).
const APPROVE = '0x095ea7b3'
const MULTICALL = '0x5ae401dc' // SwapRouter02 multicall(uint256 deadline, bytes[] data)
const USDC = BASE_ADDRESSES.USDC
const ROUTER = BASE_ADDRESSES.SwapRouter02
const PATH = '/v1/tx/stocks'

const feedAbi = parseAbi([
  'function latestRoundData() view returns (uint80, int256 answer, uint256, uint256 updatedAt, uint80)',
])
const registryAbi = parseAbi([
  'function getOracleParams(address token) view returns (uint256 multiplier, bool paused)',
])
const factoryAbi = parseAbi(['function getPool(address, address, uint24) view returns (address)'])

type StockOrder = { advisory: StockAdvisory }

const sw = useWorld()
const svc = useInstance(sw)
const client = builderClient(sw, svc)

async function post(body: unknown) {
  const answer = await client.post<StockOrderAction>(PATH, body)
  return answer as typeof answer & { body: StockOrder }
}
const balanceOf = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
const allowance = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [who, ROUTER] })
const feedOf = async (ticker: StockTicker) => {
  const [, answer, , updatedAt] = await sw.chain.readContract({
    address: TOKENIZED_STOCKS[ticker].feed,
    abi: feedAbi,
    functionName: 'latestRoundData',
  })
  return { answer, updatedAt }
}
const poolOf = (ticker: StockTicker) =>
  sw.chain.readContract({
    address: BASE_ADDRESSES.UniswapV3Factory,
    abi: factoryAbi,
    functionName: 'getPool',
    args: [TOKENIZED_STOCKS[ticker].token, USDC, 3000],
  })
const quoterSays = async (tokenIn: Address, tokenOut: Address, amountIn: bigint) =>
  (
    await sw.chain.readContract({
      address: BASE_ADDRESSES.QuoterV2,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn, tokenOut, amountIn, fee: 3000, sqrtPriceLimitX96: 0n }],
    })
  )[0]

/** The stocks' admin (the devnet deployer), impersonated: moves a feed or pauses a token. */
async function asAdmin(
  address: Address,
  functionName: 'setPaused' | 'setAnswerAt',
  args: readonly unknown[],
) {
  const chain = { ...base, rpcUrls: { default: { http: [sw.world.rpcUrl] } } }
  const test = createTestClient({ chain, mode: 'anvil', transport: http(sw.world.rpcUrl) })
  await test.impersonateAccount({ address: devnetDeployer.address })
  const admin = createWalletClient({
    chain,
    account: devnetDeployer.address,
    transport: http(sw.world.rpcUrl),
  })
  const hash = await admin.writeContract({ address, abi: stockStandInAbi, functionName, args: args as never })
  expect((await pollReceipt(sw.chain, hash, RECEIPT)).status).toBe('success')
}

/**
 * The swap step decoded from its bare calldata (the EIP-5792 call, which expectEnvelope ties to the
 * step): the router multicall's deadline and its one exactInputSingle.
 */
function decodeSwap(envelope: { walletSendCalls: { calls: { data: Hex }[] } }) {
  const bare = envelope.walletSendCalls.calls.at(-1)?.data ?? '0x'
  const outer = decodeFunctionData({ abi: swapRouter02Abi, data: bare })
  if (outer.functionName !== 'multicall') throw new Error(`not a multicall: ${outer.functionName}`)
  const [deadline, calls] = outer.args
  expect(calls).toHaveLength(1)
  const inner = decodeFunctionData({ abi: swapRouter02Abi, data: calls[0] as Hex })
  if (inner.functionName !== 'exactInputSingle')
    throw new Error(`not exactInputSingle: ${inner.functionName}`)
  return { deadline, params: inner.args[0] }
}

/**
 * The advisory against independent reads of the same state: the feed's latestRoundData, the registry's
 * multiplier and paused flag, the pool's balances of both tokens, QuoterV2 in the 0.3 % pool.
 */
async function expectAdvisory(
  ticker: StockTicker,
  side: 'buy' | 'sell',
  amountIn: bigint,
  answer: StockOrder & { action: StockOrderAction; quotedAt: number },
  slippageBps: number,
) {
  const { advisory: a, action } = answer
  const token = TOKENIZED_STOCKS[ticker].token
  const [tokenIn, tokenOut] = side === 'buy' ? [USDC, token] : [token, USDC]
  const pool = await poolOf(ticker)
  const { answer: feedAnswer, updatedAt } = await feedOf(ticker)
  const [wad] = await sw.chain.readContract({
    address: BASE_ADDRESSES.StockOracleRegistry,
    abi: registryAbi,
    functionName: 'getOracleParams',
    args: [token],
  })
  const quoted = await quoterSays(tokenIn, tokenOut, amountIn)
  expect(action).toEqual({
    type: 'stockOrder',
    sym: ticker,
    side,
    tokenIn,
    amountIn: amountIn.toString(),
    tokenOut,
    pool,
  })
  expect(a.amountOut).toBe(quoted.toString())
  expect(a.amountOutMin).toBe(((quoted * BigInt(10_000 - slippageBps)) / 10_000n).toString())
  const feedUsd = Number(feedAnswer) / 1e8
  expect(a.feedUsd).toBe(feedUsd)
  expect(a.feedUpdatedAt).toBe(Number(updatedAt))
  expect(a.feedStale).toBe(answer.quotedAt - Number(updatedAt) > 86_400)
  expect(a.multiplier).toBe(Number(wad) / 1e18)
  expect(a.pool).toEqual({
    fee: 3000,
    usdc: Number(formatUnits(await balanceOf(USDC, pool), 6)),
    shares: Number(formatUnits(await balanceOf(token, pool), 8)),
  })
  const usdc = Number(formatUnits(side === 'buy' ? amountIn : quoted, 6))
  const shares = Number(formatUnits(side === 'buy' ? quoted : amountIn, 8))
  expect(a.pricePerShare).toBeCloseTo(usdc / shares, 6)
  expect(a.vsFeedPct).toBeCloseTo((usdc / shares / feedUsd - 1) * 100, 3)
}

describe('POST /v1/tx/stocks', () => {
  test('default: a buy then a sell of the shares received, broadcast onchain; every advisory number matches the chain', async () => {
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    const ticker = 'AAPLc'
    const token = TOKENIZED_STOCKS[ticker].token
    const spend = 1_000_000_000n // 1000 USDC

    // Buy: USDC in, exact approve of it to the router, swap through the 0.3 % pool to the taker.
    const buy = await post({ sym: 'aaplc', side: 'buy', amount: '1000', taker: me, slippageBps: 50 })
    expect(buy.status, JSON.stringify(buy.body)).toBe(200)
    expect(buy.charged).toBe(10_000n) // $0.01
    expectEnvelope(buy.body, me)
    await expectAdvisory(ticker, 'buy', spend, buy.body, 50)
    expect(buy.body.advisory.feedStale).toBe(false)
    expect(buy.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, MULTICALL])
    expect(buy.body.steps.map((s) => s.to)).toEqual([USDC, ROUTER])
    expect(buy.body.issues.allowance).toEqual({
      token: USDC,
      spender: ROUTER,
      actual: '0',
      expected: spend.toString(),
    })
    const buySwap = decodeSwap(buy.body)
    expect(buySwap.deadline).toBe(BigInt(buy.body.expiresAt))
    expect(buySwap.params).toEqual({
      tokenIn: USDC,
      tokenOut: token,
      fee: 3000,
      recipient: me,
      amountIn: spend,
      amountOutMinimum: BigInt(buy.body.advisory.amountOutMin),
      sqrtPriceLimitX96: 0n,
    })
    // The simulation saw what the advisory states.
    const changes = (b: typeof buy.body) =>
      Object.fromEntries(b.simulation.balanceChanges.map((c) => [c.token, c.delta]))
    expect(changes(buy.body)).toEqual({ [USDC]: (-spend).toString(), [token]: buy.body.advisory.amountOut })

    const [usdcBefore, sharesBefore] = await Promise.all([balanceOf(USDC, me), balanceOf(token, me)])
    await broadcast(sw.chain, owner, buy.body)
    const [usdcAfterBuy, sharesAfterBuy] = await Promise.all([balanceOf(USDC, me), balanceOf(token, me)])
    expect(usdcBefore - usdcAfterBuy).toBe(spend)
    const received = sharesAfterBuy - sharesBefore
    expect(received).toBeGreaterThanOrEqual(BigInt(buy.body.advisory.amountOutMin))
    // Nothing else trades the pool between quote and block: the chain paid exactly the quote.
    expect(received.toString()).toBe(buy.body.advisory.amountOut)
    expect(await allowance(USDC, me)).toBe(0n)

    // Sell exactly those shares (human-scale, 8 decimals): the approve is on the stock token.
    const sell = await post({
      sym: ticker,
      side: 'sell',
      amount: formatUnits(received, 8),
      taker: me,
      slippageBps: 50,
    })
    expect(sell.status, JSON.stringify(sell.body)).toBe(200)
    expect(sell.charged).toBe(10_000n)
    expectEnvelope(sell.body, me)
    await expectAdvisory(ticker, 'sell', received, sell.body, 50)
    expect(sell.body.steps.map((s) => s.to)).toEqual([token, ROUTER])
    expect(sell.body.issues.allowance).toEqual({
      token,
      spender: ROUTER,
      actual: '0',
      expected: received.toString(),
    })
    const sellSwap = decodeSwap(sell.body)
    expect(sellSwap.deadline).toBe(BigInt(sell.body.expiresAt))
    expect(sellSwap.params).toMatchObject({
      tokenIn: token,
      tokenOut: USDC,
      recipient: me,
      amountIn: received,
    })
    // A round trip pays the pool fee twice: the sell fills below the buy.
    expect(sell.body.advisory.pricePerShare).toBeLessThan(buy.body.advisory.pricePerShare)

    await broadcast(sw.chain, owner, sell.body)
    const [usdcAfterSell, sharesAfterSell] = await Promise.all([balanceOf(USDC, me), balanceOf(token, me)])
    expect(sharesAfterSell).toBe(sharesBefore)
    const usdcBack = usdcAfterSell - usdcAfterBuy
    expect(usdcBack).toBeGreaterThanOrEqual(BigInt(sell.body.advisory.amountOutMin))
    expect(usdcBack.toString()).toBe(sell.body.advisory.amountOut)
    expect(changes(sell.body)).toEqual({ [USDC]: usdcBack.toString(), [token]: (-received).toString() })
    expect(await allowance(token, me)).toBe(0n)
  })

  test('behavior: once the approve step is mined, building again has no approve step', async () => {
    const owner = ownerWallet(sw, 3)
    const me = owner.account.address
    const token = TOKENIZED_STOCKS.MSFTc.token
    const body = { sym: 'MSFTc', side: 'buy', amount: '250.5', taker: me }
    const first = await post(body)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, MULTICALL])
    // Broadcast only the approve; the caller then rebuilds (say the quote expired).
    await broadcast(sw.chain, owner, { ...first.body, steps: first.body.steps.slice(0, 1) })
    expect(await allowance(USDC, me)).toBe(250_500_000n)
    const second = await post(body)
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expectEnvelope(second.body, me)
    expect(second.body.steps.map((s) => selectorOf(s.data))).toEqual([MULTICALL])
    expect(second.body.issues.allowance).toBeNull()
    // Default slippage: 100 bps.
    await expectAdvisory('MSFTc', 'buy', 250_500_000n, second.body, 100)
    const [usdcBefore, sharesBefore] = await Promise.all([balanceOf(USDC, me), balanceOf(token, me)])
    await broadcast(sw.chain, owner, second.body)
    expect(usdcBefore - (await balanceOf(USDC, me))).toBe(250_500_000n)
    expect(((await balanceOf(token, me)) - sharesBefore).toString()).toBe(second.body.advisory.amountOut)
  })

  test('behavior: a stale feed is stated in the advisory and, within the bound, the order still builds', async () => {
    const me = ownerWallet(sw, 4).account.address
    const { answer } = await feedOf('TSLAc')
    const staleAt = BigInt(Math.floor(Date.now() / 1000) - 2 * 86_400)
    await asAdmin(TOKENIZED_STOCKS.TSLAc.feed, 'setAnswerAt', [answer, staleAt])
    try {
      const res = await post({ sym: 'TSLAc', side: 'buy', amount: '100', taker: me })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.advisory).toMatchObject({ feedStale: true, feedUpdatedAt: Number(staleAt) })
      expect(res.body.quotedAt - res.body.advisory.feedUpdatedAt).toBeGreaterThanOrEqual(2 * 86_400)
      await expectAdvisory('TSLAc', 'buy', 100_000_000n, res.body, 100)
    } finally {
      await asAdmin(TOKENIZED_STOCKS.TSLAc.feed, 'setAnswerAt', [
        answer,
        BigInt(Math.floor(Date.now() / 1000)),
      ])
    }
  })

  test(`error: a fill more than ${MAX_FEED_DEVIATION_PCT}% from the feed, either way, is 422 fill_deviates_from_feed, uncharged`, async () => {
    const me = ownerWallet(sw, 5).account.address
    // Too large for the pool: 60,000 USDC into a pool seeded with 250,000 a side fills far above the feed.
    const large = await post({ sym: 'METAc', side: 'buy', amount: '60000', taker: me })
    expect(large.status, JSON.stringify(large.body)).toBe(422)
    expect(large.charged).toBe(0n)
    expect(large.body.error).toMatchObject({ code: 'fill_deviates_from_feed', field: 'amount' })
    const premium = large.body.error?.details as { vsFeedPct: number; maxVsFeedPct: number; feedUsd: number }
    expect(premium.vsFeedPct).toBeGreaterThan(MAX_FEED_DEVIATION_PCT)
    expect(premium.maxVsFeedPct).toBe(MAX_FEED_DEVIATION_PCT)
    // Independently: the quoter's fill for that size against the feed.
    const out = await quoterSays(USDC, TOKENIZED_STOCKS.METAc.token, 60_000_000_000n)
    const { answer: meta } = await feedOf('METAc')
    expect(premium.feedUsd).toBe(Number(meta) / 1e8)
    expect(premium.vsFeedPct).toBeCloseTo((60_000 / (Number(out) / 1e8) / (Number(meta) / 1e8) - 1) * 100, 3)

    // A feed 10 % above the pool: a small buy fills ~9 % below it, also refused (the bound is both ways).
    const { answer, updatedAt } = await feedOf('GOOGLc')
    await asAdmin(TOKENIZED_STOCKS.GOOGLc.feed, 'setAnswerAt', [(answer * 11n) / 10n, updatedAt])
    try {
      const cheap = await post({ sym: 'GOOGLc', side: 'buy', amount: '100', taker: me })
      expect(cheap.status, JSON.stringify(cheap.body)).toBe(422)
      expect(cheap.charged).toBe(0n)
      expect(cheap.body.error).toMatchObject({ code: 'fill_deviates_from_feed', field: 'amount' })
      const d = cheap.body.error?.details as { vsFeedPct: number; feedUsd: number; feedStale: boolean }
      expect(d.feedUsd).toBe(Number((answer * 11n) / 10n) / 1e8)
      expect(d.vsFeedPct).toBeLessThan(-MAX_FEED_DEVIATION_PCT)
      expect(d.feedStale).toBe(false)
    } finally {
      await asAdmin(TOKENIZED_STOCKS.GOOGLc.feed, 'setAnswerAt', [answer, updatedAt])
    }
    // Back at the pool's price, the same order builds.
    const ok = await post({ sym: 'GOOGLc', side: 'buy', amount: '100', taker: me })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(Math.abs(ok.body.advisory.vsFeedPct)).toBeLessThanOrEqual(MAX_FEED_DEVIATION_PCT)
  })

  test('error: the unminted ticker is 409 stock_not_minted, a paused one 409 stock_paused, a feed without an answer 422; uncharged', async () => {
    const me = ownerWallet(sw, 6).account.address
    // SPCXc: registered, no supply, no pool on the devnet.
    expect(
      await sw.chain.readContract({
        address: TOKENIZED_STOCKS.SPCXc.token,
        abi: erc20Abi,
        functionName: 'totalSupply',
      }),
    ).toBe(0n)
    const unminted = await post({ sym: 'SPCXc', side: 'buy', amount: '100', taker: me })
    expect(unminted.status).toBe(409)
    expect(unminted.body.error).toMatchObject({ code: 'stock_not_minted', field: 'sym' })
    expect(unminted.charged).toBe(0n)

    await asAdmin(TOKENIZED_STOCKS.NVDAc.token, 'setPaused', [true])
    try {
      const paused = await post({ sym: 'NVDAc', side: 'buy', amount: '100', taker: me })
      expect(paused.status).toBe(409)
      expect(paused.body.error).toMatchObject({ code: 'stock_paused', field: 'sym' })
      expect(paused.charged).toBe(0n)
    } finally {
      await asAdmin(TOKENIZED_STOCKS.NVDAc.token, 'setPaused', [false])
    }

    // A feed answering 0: nothing to check the fill against, so no order.
    const { answer, updatedAt } = await feedOf('SNDKc')
    await asAdmin(TOKENIZED_STOCKS.SNDKc.feed, 'setAnswerAt', [0n, updatedAt])
    try {
      const blind = await post({ sym: 'SNDKc', side: 'buy', amount: '100', taker: me })
      expect(blind.status).toBe(422)
      expect(blind.body.error).toMatchObject({ code: 'stock_feed_unavailable', field: 'sym' })
      expect(blind.charged).toBe(0n)
    } finally {
      await asAdmin(TOKENIZED_STOCKS.SNDKc.feed, 'setAnswerAt', [answer, updatedAt])
    }
  })

  test('error: bad bodies are 400 naming the field, a shortfall 422 insufficient_balance; uncharged', async () => {
    const me = ownerWallet(sw, 7).account.address
    const ok = { sym: 'AAPLc', side: 'buy', amount: '100', taker: me }
    const cases: [unknown, string][] = [
      [{ ...ok, sym: 'ZZZc' }, 'sym'],
      [{ ...ok, side: 'hold' }, 'side'],
      [{ ...ok, amount: '0' }, 'amount'],
      [{ ...ok, amount: '1.0000001' }, 'amount'], // USDC has 6 decimals
      [{ ...ok, side: 'sell', amount: '1.000000001' }, 'amount'], // the stock has 8
      [{ ...ok, taker: '0x123' }, 'taker'],
      [{ ...ok, slippageBps: 5001 }, 'slippageBps'],
      [{ ...ok, recipient: me }, 'recipient'],
    ]
    for (const [body, field] of cases) {
      const res = await post(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error?.field, JSON.stringify(body)).toBe(field)
      expect(res.charged).toBe(0n)
    }
    // Selling shares the taker does not hold.
    const short = await post({ sym: 'AAPLc', side: 'sell', amount: '3', taker: me })
    expect(short.status).toBe(422)
    expect(short.body.error).toMatchObject({ code: 'insufficient_balance', field: 'amount' })
    expect(short.body.error?.details).toEqual({
      issues: {
        balance: { token: TOKENIZED_STOCKS.AAPLc.token, actual: '0', expected: '300000000' },
        allowance: null,
      },
    })
    expect(short.charged).toBe(0n)
  })

  test('behavior: a build is two RPC round trips: one multicall (quote, state, allowance, balance) and the simulation', async () => {
    const counter = { requests: 0 }
    const chain = createPublicClient({
      chain: { ...base, rpcUrls: { default: { http: [sw.world.rpcUrl] } } },
      transport: http(sw.world.rpcUrl, { onFetchRequest: () => void counter.requests++ }),
    }) as unknown as PublicClient
    const engine = createBuilderEngine({
      chain,
      book: devnetBook,
      suffix: builderCodeSuffix([DEVNET_BUILDER_CODE]),
      clock: Date.now,
    })
    const me = ownerWallet(sw, 4).account.address
    const built = await buildStockOrder(engine, {
      sym: 'AMZNc',
      side: 'buy',
      amount: '10',
      taker: me,
      slippageBps: 100,
    })
    expect(built.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, MULTICALL])
    expect(counter.requests).toBe(2)
  })
})
