import { type Address, decodeFunctionData, getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../chain/addresses.js'
import { ZEROX_ADDRESSES, zeroExStandInAbi } from '../deploy/zeroEx.js'
import type { SwapLiquiditySource } from './swapLiquiditySource.js'
import { createZeroExApp } from './zeroExApp.js'

const { USDC, WETH } = BASE_ADDRESSES
const TAKER: Address = getAddress('0x2222222222222222222222222222222222222222')
const OUT = 400_000_000_000_000_000n

/** One Uniswap pool for USDC → WETH at 0.05 %; the taker holds 500 USDC and has approved nothing. */
const liquidity: SwapLiquiditySource = {
  bestFill: async (sell, buy, amount) =>
    sell === USDC && buy === WETH && amount <= 10n ** 12n
      ? { venue: 'Uniswap_V3', sellToken: sell, buyToken: buy, amountOut: OUT, uniswapFee: 500 }
      : null,
  block: async () => ({ number: 123n, timestamp: 1_795_000_000n }),
  gasPrice: async () => 10_000_000n,
  symbol: async (t) => (t === USDC ? 'USDC' : 'WETH'),
  erc20State: async () => ({ balance: 500_000_000n, allowance: 0n }),
  nativeBalance: async () => 10n ** 18n,
  estimateGas: async () => null,
}
// Shapes only: the documented rate limit is held in test/upstreams/*.contract.test.ts.
const ROOMY = { max: 1000, windowMs: 1000 }
const app = createZeroExApp({ liquidity, rateLimit: ROOMY })
const HEADERS = { '0x-api-key': 'k', '0x-version': 'v2' }

async function get(path: string, query: Record<string, string>, headers: Record<string, string> = HEADERS) {
  const res = await app.request(`${path}?${new URLSearchParams(query)}`, { headers })
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { data?: { details?: unknown } },
  }
}
const PRICE = '/swap/allowance-holder/price'
const QUOTE = '/swap/allowance-holder/quote'
const base = { chainId: '8453', sellToken: USDC, buyToken: WETH, sellAmount: '1000000000', taker: TAKER }

describe('0x simulator', () => {
  test('behavior: price in the v2 wire format: amounts as strings, minBuyAmount floors slippageBps, issues name the AllowanceHolder', async () => {
    const { status, body } = await get(PRICE, { ...base, slippageBps: '30' })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      liquidityAvailable: true,
      blockNumber: '123',
      sellToken: USDC,
      buyToken: WETH,
      sellAmount: '1000000000',
      buyAmount: OUT.toString(),
      minBuyAmount: ((OUT * 9970n) / 10_000n).toString(),
      allowanceTarget: ZEROX_ADDRESSES.allowanceHolder,
      gas: null,
      gasPrice: '10000000',
      totalNetworkFee: null,
      fees: { integratorFee: null, zeroExFee: null, gasFee: null },
      issues: {
        allowance: { actual: '0', spender: ZEROX_ADDRESSES.allowanceHolder },
        balance: { token: USDC, actual: '500000000', expected: '1000000000' },
        simulationIncomplete: true,
      },
      route: {
        fills: [{ from: USDC, to: WETH, source: 'Uniswap_V3', proportionBps: '10000' }],
        tokens: [
          { address: USDC, symbol: 'USDC' },
          { address: WETH, symbol: 'WETH' },
        ],
      },
    })
    expect(typeof body.zid).toBe('string')
  })

  test('behavior: a quote is AllowanceHolder.exec around Settler.execute, paying the taker at least minBuyAmount', async () => {
    const { status, body } = await get(QUOTE, base)
    expect(status).toBe(200)
    const tx = body.transaction as { to: Address; data: `0x${string}`; value: string }
    expect(tx.to).toBe(ZEROX_ADDRESSES.allowanceHolder)
    expect(tx.value).toBe('0')
    const exec = decodeFunctionData({ abi: zeroExStandInAbi, data: tx.data })
    expect(exec.functionName).toBe('exec')
    const [operator, token, amount, target, inner] = exec.args as [
      Address,
      Address,
      bigint,
      Address,
      `0x${string}`,
    ]
    expect([operator, token, amount, target]).toEqual([
      ZEROX_ADDRESSES.settler,
      USDC,
      1_000_000_000n,
      ZEROX_ADDRESSES.settler,
    ])
    const execute = decodeFunctionData({ abi: zeroExStandInAbi, data: inner })
    expect(execute.functionName).toBe('execute')
    const [slippage, actions] = execute.args as unknown as [
      { recipient: Address; buyToken: Address; minAmountOut: bigint },
      `0x${string}`[],
    ]
    expect(slippage).toEqual({ recipient: TAKER, buyToken: WETH, minAmountOut: (OUT * 9900n) / 10_000n })
    expect(actions.map((a) => decodeFunctionData({ abi: zeroExStandInAbi, data: a }).functionName)).toEqual([
      'TRANSFER_FROM',
      'BASIC',
    ])
  })

  test('behavior: selling native ETH needs no allowance and sends the amount as value; no pool is liquidityAvailable false', async () => {
    const eth = await get(PRICE, { ...base, sellToken: NATIVE_SENTINEL, buyToken: USDC, sellAmount: '10' })
    expect(eth.body).toMatchObject({ liquidityAvailable: false })
    expect(Object.keys(eth.body).sort()).toEqual(['liquidityAvailable', 'zid'])
    const wrap = await get(QUOTE, { ...base, sellToken: NATIVE_SENTINEL, buyToken: WETH, sellAmount: '10' })
    expect(wrap.body).toMatchObject({
      allowanceTarget: null,
      buyAmount: '10',
      issues: { allowance: null, balance: null },
      transaction: { value: '10' },
    })
  })

  test('error: a missing key is 401, a missing version or bad parameters are 400 INPUT_INVALID naming the fields', async () => {
    expect((await get(PRICE, base, {})).status).toBe(401)
    const noVersion = await get(PRICE, base, { '0x-api-key': 'k' })
    expect(noVersion.status).toBe(400)
    expect(noVersion.body.name).toBe('INPUT_INVALID')
    const bad = await get(QUOTE, {
      chainId: '1',
      sellToken: USDC,
      buyToken: USDC,
      sellAmount: '0',
      slippageBps: '10001',
    })
    expect(bad.status).toBe(400)
    const details = (bad.body.data?.details ?? []) as { field: string }[]
    expect(details.map((d) => d.field).sort()).toEqual([
      'buyToken',
      'chainId',
      'sellAmount',
      'slippageBps',
      'taker',
    ])
  })
})
