import { randomBytes } from 'node:crypto'
import { type Context, Hono } from 'hono'
import { type Address, concat, encodeFunctionData, getAddress, type Hex, isAddress, pad } from 'viem'
import { BASE_ADDRESSES, erc20Of, isNative, NATIVE_SENTINEL } from '../../chain/addresses.js'
import { aerodromeRouterAbi, swapRouter02Abi } from '../../chain/swapVenueAbis.js'
import { ZEROX_ADDRESSES, zeroExStandInAbi } from '../deploy/zeroEx.js'
import type { PoolFill, SwapLiquiditySource } from './swapLiquiditySource.js'
import { limitRate, type RateLimit } from './upstreamGuards.js'

/**
 * 0x Swap API v2, AllowanceHolder flow (api.0x.org, protocols.md §4): `GET /swap/allowance-holder/price`
 * and `GET /swap/allowance-holder/quote` with `chainId` (8453 only), `sellToken`, `buyToken`,
 * `sellAmount`, `taker` (required for quote) and `slippageBps` (default 100), behind the `0x-api-key`
 * and `0x-version: v2` headers. Answers in the wire format of @0x/swap-ts-sdk: amounts as decimal
 * strings, `liquidityAvailable: false` with only a `zid` when nothing can fill, and 400 `INPUT_INVALID`
 * ({name, message, data: {zid, details: [{field, reason}]}}) for bad parameters.
 *
 * Prices come from the devnet's pools (the best single hop among Uniswap v3's tiers and Aerodrome),
 * with no 0x fee. A quote's `transaction` is `AllowanceHolder.exec(settler, sellToken, sellAmount,
 * settler, Settler.execute(...))`: TRANSFER_FROM pulls the taker's tokens through AllowanceHolder (the
 * spender in `issues.allowance`), BASIC actions wrap ETH, swap through SwapRouter02 or the Aerodrome
 * router and unwrap WETH, and the Settler's final check sends at least `minBuyAmount` to the taker or
 * reverts. `gas` is eth_estimateGas of that transaction from the taker, null (and
 * `simulationIncomplete`) while it would revert (missing balance or allowance).
 *
 * UNCERTAIN: the body of a 401 for a missing key; 0x's source name for Aerodrome's v2 pools.
 */
export interface ZeroExAppOptions {
  liquidity: SwapLiquiditySource
  /** The one key accepted; undefined: any non-empty `0x-api-key`. */
  apiKey?: string
  /** Default: the free tier's documented 5 requests per second (fixed 1 s windows). */
  rateLimit?: RateLimit
}

/** 0x's free tier: about 5 requests per second across every endpoint, counted in fixed 1 s windows. */
export const ZEROX_RATE_LIMIT: RateLimit = { max: 5, windowMs: 1000 }

const CHAIN_ID = '8453'
const BPS = 10_000n
/** Offsets of the amount BASIC writes into each pool call's calldata (bytes). */
const AMOUNT_OFFSET_FIRST_ARG = 4n
/** exactInputSingle((tokenIn, tokenOut, fee, recipient, amountIn, …)): amountIn is the fifth word. */
const AMOUNT_OFFSET_EXACT_INPUT_SINGLE = 4n + 4n * 32n
/** How long a quote's Permit (TRANSFER_FROM) and router deadlines stay valid. */
const QUOTE_VALIDITY_SEC = 600n

const WETH_ABI = [
  { type: 'function', name: 'deposit', inputs: [], outputs: [], stateMutability: 'payable' },
  {
    type: 'function',
    name: 'withdraw',
    inputs: [{ name: 'wad', type: 'uint256' }],
    outputs: [],
    stateMutability: 'nonpayable',
  },
] as const

interface Params {
  sellToken: Address
  buyToken: Address
  sellAmount: bigint
  taker: Address | undefined
  slippageBps: bigint
}

type Detail = { field: string; reason: string }

function newZid(): Hex {
  return `0x${randomBytes(12).toString('hex')}`
}

export function createZeroExApp(options: ZeroExAppOptions): Hono {
  const { liquidity } = options
  const app = new Hono()
  app.notFound((c) => c.json({ name: 'NOT_FOUND', message: 'Not Found', data: { zid: newZid() } }, 404))
  // UNCERTAIN: the 429's body (0x documents the limit, not the answer).
  limitRate(app, options.rateLimit ?? ZEROX_RATE_LIMIT, (c) =>
    c.json({ name: 'RATE_LIMITED', message: 'Too many requests', data: { zid: newZid() } }, 429),
  )

  const invalid = (c: Context, zid: Hex, details: Detail[]) =>
    c.json({ name: 'INPUT_INVALID', message: 'The input is invalid', data: { zid, details } }, 400)

  /** Header and query checks shared by price and quote; a Response when the request is refused. */
  function parse(c: Context, zid: Hex, takerRequired: boolean): Params | Response {
    const key = c.req.header('0x-api-key')
    if (!key || (options.apiKey !== undefined && key !== options.apiKey)) {
      // The body third parties report (0x documents neither the status nor the body): UNCERTAIN.
      return c.json(
        {
          message:
            'No API key provided. Please visit https://0x.org/pricing to get a free API key or sign up to a paid plan',
          request_id: zid.slice(2),
        },
        401,
      )
    }
    if (c.req.header('0x-version') !== 'v2') {
      return invalid(c, zid, [{ field: '0x-version', reason: 'must be v2' }])
    }
    const q = c.req.query()
    const details: Detail[] = []
    const token = (field: string) => {
      const raw = q[field]
      if (raw === undefined || !isAddress(raw, { strict: false })) {
        details.push({ field, reason: raw === undefined ? 'required' : 'must be an address' })
        return undefined
      }
      return getAddress(raw)
    }
    if (q.chainId !== CHAIN_ID)
      details.push({ field: 'chainId', reason: 'this API serves chainId 8453 only' })
    const sellToken = token('sellToken')
    const buyToken = token('buyToken')
    const sellAmount = /^[1-9][0-9]*$/.test(q.sellAmount ?? '') ? BigInt(q.sellAmount as string) : undefined
    if (sellAmount === undefined) details.push({ field: 'sellAmount', reason: 'must be a positive integer' })
    const taker = q.taker === undefined && !takerRequired ? undefined : token('taker')
    const slippage = q.slippageBps ?? '100'
    const slippageBps = /^[0-9]+$/.test(slippage) && Number(slippage) <= 10_000 ? BigInt(slippage) : undefined
    if (slippageBps === undefined)
      details.push({ field: 'slippageBps', reason: 'must be an integer 0..10000' })
    if (sellToken !== undefined && buyToken !== undefined && sellToken === buyToken) {
      details.push({ field: 'buyToken', reason: 'buyToken and sellToken must differ' })
    }
    if (details.length > 0 || sellToken === undefined || buyToken === undefined)
      return invalid(c, zid, details)
    return {
      sellToken,
      buyToken,
      sellAmount: sellAmount as bigint,
      taker,
      slippageBps: slippageBps as bigint,
    }
  }

  /** The fill (null for a wrap or unwrap, which needs no pool), or undefined when nothing can fill it. */
  async function route(p: Params): Promise<PoolFill | null | undefined> {
    const sell = erc20Of(p.sellToken)
    const buy = erc20Of(p.buyToken)
    if (sell === buy) return null
    return (await liquidity.bestFill(sell, buy, p.sellAmount)) ?? undefined
  }

  /** AllowanceHolder.exec(...) around Settler.execute(...) for this fill, paying out to `taker`. */
  function transaction(
    p: Params,
    taker: Address,
    fill: PoolFill | null,
    minBuyAmount: bigint,
    zid: Hex,
    now: bigint,
  ) {
    const settler = ZEROX_ADDRESSES.settler
    const deadline = now + QUOTE_VALIDITY_SEC
    const actions: Hex[] = []
    const basic = (sellToken: Address, pool: Address, offset: bigint, data: Hex) =>
      encodeFunctionData({
        abi: zeroExStandInAbi,
        functionName: 'BASIC',
        args: [sellToken, BPS, pool, offset, data],
      })
    if (isNative(p.sellToken)) {
      // Wrap the attached ETH (the amount word after deposit()'s selector is ignored by WETH9).
      const deposit = concat([encodeFunctionData({ abi: WETH_ABI, functionName: 'deposit' }), pad('0x00')])
      actions.push(basic(NATIVE_SENTINEL, BASE_ADDRESSES.WETH, AMOUNT_OFFSET_FIRST_ARG, deposit))
    } else {
      actions.push(
        encodeFunctionData({
          abi: zeroExStandInAbi,
          functionName: 'TRANSFER_FROM',
          args: [
            settler,
            { permitted: { token: p.sellToken, amount: p.sellAmount }, nonce: 0n, deadline },
            '0x',
          ],
        }),
      )
    }
    if (fill?.venue === 'Uniswap_V3') {
      const swap = encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn: fill.sellToken,
            tokenOut: fill.buyToken,
            fee: fill.uniswapFee ?? 0,
            recipient: settler,
            amountIn: 0n,
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n,
          },
        ],
      })
      actions.push(basic(fill.sellToken, BASE_ADDRESSES.SwapRouter02, AMOUNT_OFFSET_EXACT_INPUT_SINGLE, swap))
    } else if (fill?.venue === 'Aerodrome_V2') {
      const swap = encodeFunctionData({
        abi: aerodromeRouterAbi,
        functionName: 'swapExactTokensForTokens',
        args: [
          0n,
          0n,
          [
            {
              from: fill.sellToken,
              to: fill.buyToken,
              stable: fill.aerodromeStable ?? false,
              factory: BASE_ADDRESSES.AerodromePoolFactory,
            },
          ],
          settler,
          deadline,
        ],
      })
      actions.push(basic(fill.sellToken, BASE_ADDRESSES.AerodromeRouter, AMOUNT_OFFSET_FIRST_ARG, swap))
    }
    if (isNative(p.buyToken)) {
      const withdraw = encodeFunctionData({ abi: WETH_ABI, functionName: 'withdraw', args: [0n] })
      actions.push(basic(BASE_ADDRESSES.WETH, BASE_ADDRESSES.WETH, AMOUNT_OFFSET_FIRST_ARG, withdraw))
    }
    const execute = encodeFunctionData({
      abi: zeroExStandInAbi,
      functionName: 'execute',
      args: [
        { recipient: taker, buyToken: p.buyToken, minAmountOut: minBuyAmount },
        actions,
        pad(zid, { dir: 'right' }),
      ],
    })
    return {
      to: ZEROX_ADDRESSES.allowanceHolder,
      data: encodeFunctionData({
        abi: zeroExStandInAbi,
        functionName: 'exec',
        args: [settler, p.sellToken, p.sellAmount, settler, execute],
      }),
      value: isNative(p.sellToken) ? p.sellAmount : 0n,
    }
  }

  async function answer(c: Context, kind: 'price' | 'quote') {
    const zid = newZid()
    const p = parse(c, zid, kind === 'quote')
    if (p instanceof Response) return p
    const fill = await route(p)
    if (fill === undefined) return c.json({ liquidityAvailable: false, zid })
    const buyAmount = fill === null ? p.sellAmount : fill.amountOut
    const minBuyAmount = (buyAmount * (BPS - p.slippageBps)) / BPS
    const [block, gasPrice, sellSymbol, buySymbol] = await Promise.all([
      liquidity.block(),
      liquidity.gasPrice(),
      isNative(p.sellToken) ? 'ETH' : liquidity.symbol(p.sellToken),
      isNative(p.buyToken) ? 'ETH' : liquidity.symbol(p.buyToken),
    ])

    // What the taker lacks, as 0x reports it; the AllowanceHolder is the spender for ERC-20 sells.
    const spender = ZEROX_ADDRESSES.allowanceHolder
    let allowance: { actual: string; spender: Address } | null = null
    let balance: { token: Address; actual: string; expected: string } | null = null
    if (p.taker !== undefined) {
      const held = isNative(p.sellToken)
        ? { balance: await liquidity.nativeBalance(p.taker), allowance: null }
        : await liquidity.erc20State(p.sellToken, p.taker, spender)
      if (held.allowance !== null && held.allowance < p.sellAmount) {
        allowance = { actual: held.allowance.toString(), spender }
      }
      if (held.balance < p.sellAmount) {
        balance = { token: p.sellToken, actual: held.balance.toString(), expected: p.sellAmount.toString() }
      }
    }
    const tx =
      p.taker === undefined ? undefined : transaction(p, p.taker, fill, minBuyAmount, zid, block.timestamp)
    const gas =
      tx === undefined || p.taker === undefined
        ? null
        : await liquidity.estimateGas({ from: p.taker, to: tx.to, data: tx.data, value: tx.value })
    const noTax = { buyTaxBps: '0', sellTaxBps: '0', transferTaxBps: '0' }
    const source = fill === null ? 'WETH' : fill.venue
    const common = {
      allowanceTarget: isNative(p.sellToken) ? null : spender,
      blockNumber: block.number.toString(),
      buyAmount: buyAmount.toString(),
      buyToken: p.buyToken,
      fees: { integratorFee: null, integratorFees: null, zeroExFee: null, gasFee: null },
      issues: { allowance, balance, simulationIncomplete: gas === null, invalidSourcesPassed: [] },
      liquidityAvailable: true,
      // Required by the contract since exact-out quotes came (`buyAmount`); ours are exact-in only.
      mode: 'exact-in',
      minBuyAmount: minBuyAmount.toString(),
      route: {
        fills: [{ from: p.sellToken, to: p.buyToken, source, proportionBps: '10000' }],
        tokens: [
          { address: p.sellToken, symbol: sellSymbol },
          { address: p.buyToken, symbol: buySymbol },
        ],
      },
      sellAmount: p.sellAmount.toString(),
      sellToken: p.sellToken,
      tokenMetadata: { buyToken: noTax, sellToken: noTax },
      totalNetworkFee: gas === null ? null : (gas * gasPrice).toString(),
      zid,
    }
    if (kind === 'price') {
      return c.json({ ...common, gas: gas === null ? null : gas.toString(), gasPrice: gasPrice.toString() })
    }
    const quoteTx = tx as NonNullable<typeof tx>
    return c.json({
      ...common,
      transaction: {
        to: quoteTx.to,
        data: quoteTx.data,
        gas: gas === null ? null : gas.toString(),
        gasPrice: gasPrice.toString(),
        value: quoteTx.value.toString(),
      },
    })
  }

  app.get('/swap/allowance-holder/price', (c) => answer(c, 'price'))
  app.get('/swap/allowance-holder/quote', (c) => answer(c, 'quote'))
  return app
}
