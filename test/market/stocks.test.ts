import { wrapFetchWithPayment } from '@x402/fetch'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  formatUnits,
  type Hex,
  http,
  maxUint256,
  parseAbi,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { quoterV2Abi, swapRouter02Abi } from '../../src/chain/swapVenueAbis.js'
import { STOCK_TICKERS, TOKENIZED_STOCKS } from '../../src/chain/tokenizedStocks.js'
import { stockStandInAbi } from '../../src/devnet/deploy/stocks.js'
import { devnetDeployer } from '../../src/devnet/devnetAccounts.js'
import { getStockPrice } from '../../src/market/stocks/getStockPrice.js'
import { getStocks } from '../../src/market/stocks/getStocks.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { expectMined } from '../helpers/expectMined.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { type Instance, useInstance, useWorld } from '../helpers/serviceWorld.js'

// Paid stock reads on the devnet, checked against the chain itself: feeds' latestRoundData, the tokens'
// multiplier and supply, the factory's pools, QuoterV2, and real swaps through SwapRouter02.
const sw = useWorld()
const svc = useInstance(sw)

const PRICE_ATOMIC = 1_000n // $0.001
const USDC = BASE_ADDRESSES.USDC
const feedAbi = parseAbi([
  'function latestRoundData() view returns (uint80, int256 answer, uint256, uint256 updatedAt, uint80)',
])
const tokenAbi = parseAbi(['function multiplier() view returns (uint256)'])
const factoryAbi = parseAbi(['function getPool(address, address, uint24) view returns (address)'])

interface Listing {
  ticker: string
  token: Address
  feed: Address
  usd: number | null
  feedAgeSec: number | null
  multiplier: number | null
  minted: boolean
  pool: Address | null
  tradable: boolean
  notTradableReason: string | null
}

interface Quote {
  sym: string
  side: 'buy' | 'sell'
  amountIn: string
  amountOut: string
  pricePerShare: number
  feedUsd: number | null
  feedAgeSec: number | null
  vsFeedPct: number | null
  multiplier: number | null
  pool: { address: Address; fee: number; usdc: number; shares: number }
}

async function payer(usdc = 100_000n) {
  const who = await sw.freshWallet(usdc)
  return { who, pay: wrapFetchWithPayment(fetch, who.client) }
}

async function catalog(pay: typeof fetch, at: Instance = svc): Promise<Listing[]> {
  const res = await pay(`${at.url}/v1/stocks`)
  expect(res.status, await res.clone().text()).toBe(200)
  return ((await res.json()) as { stocks: Listing[] }).stocks
}

/** A client that counts the HTTP requests it sends to the RPC. */
function countingClient() {
  const counter = { requests: 0 }
  const client = createPublicClient({
    chain: { ...base, rpcUrls: { default: { http: [sw.world.rpcUrl] } } },
    transport: http(sw.world.rpcUrl, { onFetchRequest: () => void counter.requests++ }),
  })
  return { client: client as unknown as Parameters<typeof getStocks>[0], counter }
}

/** The stocks' admin (the devnet deployer), impersonated: anvil picks its nonce, so a keeper round never collides. */
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
  const hash = await admin.writeContract({
    address,
    abi: stockStandInAbi,
    functionName,
    args: args as never,
  })
  expect((await pollReceipt(sw.chain, hash, RECEIPT)).status).toBe('success')
}

describe('GET /v1/stocks', () => {
  test('default: paid with @x402/fetch, all 13 tickers with the feeds’, tokens’ and factory’s own values; USDC moves by the price', async () => {
    const { who, pay } = await payer()
    const stocks = await catalog(pay)
    const nowSec = Math.floor(Date.now() / 1000)
    expect(stocks.map((s) => s.ticker)).toEqual([...STOCK_TICKERS])
    for (const s of stocks) {
      const ticker = s.ticker as (typeof STOCK_TICKERS)[number]
      expect(s.token).toBe(TOKENIZED_STOCKS[ticker].token)
      expect(s.feed).toBe(TOKENIZED_STOCKS[ticker].feed)
      const [, answer, , updatedAt] = await sw.chain.readContract({
        address: s.feed,
        abi: feedAbi,
        functionName: 'latestRoundData',
      })
      expect(s.usd, ticker).toBe(Number(answer) / 1e8)
      expect(Math.abs((s.feedAgeSec ?? -1) - (nowSec - Number(updatedAt))), ticker).toBeLessThanOrEqual(3)
      const wad = await sw.chain.readContract({ address: s.token, abi: tokenAbi, functionName: 'multiplier' })
      expect(s.multiplier, ticker).toBe(Number(wad) / 1e18)
      const supply = await sw.chain.readContract({
        address: s.token,
        abi: erc20Abi,
        functionName: 'totalSupply',
      })
      expect(s.minted, ticker).toBe(supply > 0n)
      const pool = await sw.chain.readContract({
        address: BASE_ADDRESSES.UniswapV3Factory,
        abi: factoryAbi,
        functionName: 'getPool',
        args: [s.token, USDC, 3000],
      })
      if (ticker === 'SPCXc') {
        // Registered, never minted, no pool (the devnet's one unminted ticker).
        expect(s).toMatchObject({
          minted: false,
          pool: null,
          tradable: false,
          notTradableReason: 'not_minted',
        })
        expect(pool).toBe('0x0000000000000000000000000000000000000000')
      } else {
        expect(s).toMatchObject({ minted: true, pool, tradable: true, notTradableReason: null })
      }
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(100_000n - PRICE_ATOMIC)
  })

  test('behavior: the whole catalog is one RPC request (one multicall)', async () => {
    const { client, counter } = countingClient()
    const stocks = await getStocks(client, Date.now())
    expect(stocks).toHaveLength(13)
    expect(counter.requests).toBe(1)
  })

  test('behavior: a paused token and a stale feed are not tradable, each with its reason; a paused one gets no quote', async () => {
    const nvda = TOKENIZED_STOCKS.NVDAc
    const tsla = TOKENIZED_STOCKS.TSLAc
    const [, tslaAnswer] = await sw.chain.readContract({
      address: tsla.feed,
      abi: feedAbi,
      functionName: 'latestRoundData',
    })
    const staleAt = BigInt(Math.floor(Date.now() / 1000) - 2 * 86_400)
    await asAdmin(nvda.token, 'setPaused', [true])
    await asAdmin(tsla.feed, 'setAnswerAt', [tslaAnswer, staleAt])
    try {
      const { who, pay } = await payer()
      // A new instance: the catalog's chain state is cached for 5 s, and this change is newer than that.
      const fresh = await sw.instance()
      const stocks = await catalog(pay, fresh)
      expect(stocks.find((s) => s.ticker === 'NVDAc')).toMatchObject({
        minted: true,
        tradable: false,
        notTradableReason: 'paused',
      })
      const stale = stocks.find((s) => s.ticker === 'TSLAc')
      expect(stale).toMatchObject({ minted: true, tradable: false, notTradableReason: 'feed_stale' })
      expect(stale?.feedAgeSec).toBeGreaterThanOrEqual(2 * 86_400)
      const before = await sw.usdcBalance(who.account.address)
      const paused = await pay(`${fresh.url}/v1/stocks/price?sym=NVDAc&side=buy&amount=100`)
      expect(paused.status).toBe(409)
      expect(((await paused.json()) as { error: { code: string } }).error.code).toBe('stock_paused')
      expect(await sw.usdcBalance(who.account.address)).toBe(before)
    } finally {
      await asAdmin(nvda.token, 'setPaused', [false])
      await asAdmin(tsla.feed, 'setAnswerAt', [tslaAnswer, BigInt(Math.floor(Date.now() / 1000))])
    }
  })
})

describe('GET /v1/stocks/price', () => {
  /** A trader with USDC and gas, and its clients. */
  async function trader(usdc: bigint) {
    const wallet = await sw.freshWallet(usdc, 10n ** 18n)
    const account = privateKeyToAccount(wallet.privateKey as Hex)
    const client = createWalletClient({ account, chain: base, transport: headroomHttp(sw.world.rpcUrl) })
    const send = (hash: Hex) => expectMined(sw.chain, hash)
    return { address: account.address, client, send }
  }

  const balanceOf = (token: Address, owner: Address) =>
    sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

  test('default: a paid buy quote is exactly what the chosen pool fills, and selling those shares fills its quote too', async () => {
    const { who, pay } = await payer()
    const aapl = TOKENIZED_STOCKS.AAPLc
    const res = await pay(`${svc.url}/v1/stocks/price?sym=aaplc&side=buy&amount=1000`)
    expect(res.status, await res.clone().text()).toBe(200)
    const buy = (await res.json()) as Quote
    expect(buy).toMatchObject({ sym: 'AAPLc', side: 'buy', amountIn: '1000000000' })
    expect(await sw.usdcBalance(who.account.address)).toBe(100_000n - PRICE_ATOMIC)

    // The chosen pool is the factory's 0.3 % AAPLc/USDC pool (the only one), with its reserves.
    const pool = await sw.chain.readContract({
      address: BASE_ADDRESSES.UniswapV3Factory,
      abi: factoryAbi,
      functionName: 'getPool',
      args: [aapl.token, USDC, 3000],
    })
    expect(buy.pool.address).toBe(pool)
    expect(buy.pool.fee).toBe(3000)
    expect(buy.pool.usdc).toBe(Number(formatUnits(await balanceOf(USDC, pool), 6)))
    expect(buy.pool.shares).toBe(Number(formatUnits(await balanceOf(aapl.token, pool), 8)))
    // The feed, read directly, and the premium against it.
    const [, answer] = await sw.chain.readContract({
      address: aapl.feed,
      abi: feedAbi,
      functionName: 'latestRoundData',
    })
    expect(buy.feedUsd).toBe(Number(answer) / 1e8)
    const shares = Number(buy.amountOut) / 1e8
    expect(buy.pricePerShare).toBeCloseTo(1000 / shares, 6)
    expect(buy.vsFeedPct).toBeCloseTo((1000 / shares / (Number(answer) / 1e8) - 1) * 100, 3)
    // QuoterV2, asked directly, says the same.
    const result = await sw.chain.readContract({
      address: BASE_ADDRESSES.QuoterV2,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [
        { tokenIn: USDC, tokenOut: aapl.token, amountIn: 1_000_000_000n, fee: 3000, sqrtPriceLimitX96: 0n },
      ],
    })
    expect(result[0].toString()).toBe(buy.amountOut)

    // Executing the buy receives exactly amountOut.
    const t = await trader(1_000_000_000n)
    await t.send(
      await t.client.writeContract({
        address: USDC,
        abi: erc20Abi,
        functionName: 'approve',
        args: [BASE_ADDRESSES.SwapRouter02, maxUint256],
      }),
    )
    await t.send(
      await t.client.writeContract({
        address: BASE_ADDRESSES.SwapRouter02,
        abi: swapRouter02Abi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn: USDC,
            tokenOut: aapl.token,
            fee: buy.pool.fee,
            recipient: t.address,
            amountIn: BigInt(buy.amountIn),
            amountOutMinimum: BigInt(buy.amountOut),
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
    )
    const received = await balanceOf(aapl.token, t.address)
    expect(received.toString()).toBe(buy.amountOut)

    // Sell exactly those shares: the quote is in shares (8 decimals) and fills exactly too.
    const sellRes = await pay(
      `${svc.url}/v1/stocks/price?sym=AAPLc&side=sell&amount=${formatUnits(received, 8)}`,
    )
    expect(sellRes.status).toBe(200)
    const sell = (await sellRes.json()) as Quote
    expect(sell).toMatchObject({ sym: 'AAPLc', side: 'sell', amountIn: received.toString() })
    // A round trip pays the fee twice: the sell fills below the buy, each priced against the same feed.
    expect(sell.pricePerShare).toBeLessThan(buy.pricePerShare)
    expect(sell.pricePerShare).toBeCloseTo(Number(sell.amountOut) / 1e6 / (Number(received) / 1e8), 6)
    expect(sell.vsFeedPct).toBeCloseTo((sell.pricePerShare / (sell.feedUsd ?? 0) - 1) * 100, 3)
    await t.send(
      await t.client.writeContract({
        address: aapl.token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [BASE_ADDRESSES.SwapRouter02, received],
      }),
    )
    await t.send(
      await t.client.writeContract({
        address: BASE_ADDRESSES.SwapRouter02,
        abi: swapRouter02Abi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn: aapl.token,
            tokenOut: USDC,
            fee: sell.pool.fee,
            recipient: t.address,
            amountIn: received,
            amountOutMinimum: BigInt(sell.amountOut),
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
    )
    expect((await balanceOf(USDC, t.address)).toString()).toBe(sell.amountOut)
  })

  test('behavior: one RPC request per quote (state, reserves and every tier’s QuoterV2 call in one multicall)', async () => {
    const { client, counter } = countingClient()
    const quote = await getStockPrice(client, { sym: 'MSFTc', side: 'buy', amount: '250.5' }, Date.now())
    expect(quote.amountIn).toBe('250500000')
    expect(counter.requests).toBe(1)
  })

  test('error: the unminted ticker is a 409 stock_not_minted, an unknown one a 404, too many decimals a 400; none charged', async () => {
    const { who, pay } = await payer(10_000n)
    const unminted = await pay(`${svc.url}/v1/stocks/price?sym=SPCXc&side=buy&amount=100`)
    expect(unminted.status).toBe(409)
    expect(((await unminted.json()) as { error: { code: string; field: string } }).error).toMatchObject({
      code: 'stock_not_minted',
      field: 'sym',
    })
    const unknown = await pay(`${svc.url}/v1/stocks/price?sym=ZZZc&side=buy&amount=100`)
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('unknown_stock')
    const fine = await pay(`${svc.url}/v1/stocks/price?sym=AAPLc&side=buy&amount=1.0000001`)
    expect(fine.status).toBe(400)
    expect(((await fine.json()) as { error: { field: string } }).error.field).toBe('amount')
    expect(await sw.usdcBalance(who.account.address)).toBe(10_000n)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
  })
})
