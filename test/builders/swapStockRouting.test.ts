import { wrapFetchWithPayment } from '@x402/fetch'
import { type Address, createTestClient, createWalletClient, erc20Abi, type Hex, http, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { aerodromeRouterAbi, quoterV2Abi } from '../../src/chain/swapVenueAbis.js'
import { isB20Token, TOKENIZED_STOCKS } from '../../src/chain/tokenizedStocks.js'
import { stockStandInAbi } from '../../src/devnet/deploy/stocks.js'
import { devnetDeployer } from '../../src/devnet/devnetAccounts.js'
import { broadcast, builderClient, expectEnvelope } from '../helpers/builderCalls.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { payer, useInstance, useWorld } from '../helpers/serviceWorld.js'

// Tokenized stocks are B20 precompiles: no bytecode on Base, and Aerodrome's Router and Pool require
// `token.code.length > 0` before every transfer. The devnet's Aerodrome stand-ins model that (they treat
// B20 addresses as codeless), and the swap builder and /v1/swap/price route stocks only through Uniswap v3,
// even when an Aerodrome pool would pay more: a test world seeds such a pool 10% above Uniswap.
const sw = useWorld()
const svc = useInstance(sw)
const client = builderClient(sw, svc)
const { USDC, AerodromePoolFactory: FACTORY, AerodromeRouter: ROUTER } = BASE_ADDRESSES
const STOCK = TOKENIZED_STOCKS.AAPLc.token
const ONE_SHARE = 10n ** 8n
const factoryAbi = parseAbi([
  'function createPool(address tokenA, address tokenB, bool stable) returns (address pool)',
  'function getPool(address tokenA, address tokenB, bool stable) view returns (address)',
])
const poolAbi = parseAbi(['function mint(address to) returns (uint256 liquidity)'])
const route = [{ from: STOCK, to: USDC, stable: false, factory: FACTORY }] as const

let trader: ReturnType<typeof walletOf>
let uniswapOut: bigint

const walletOf = (key: Hex) =>
  createWalletClient({
    account: privateKeyToAccount(key),
    chain: base,
    transport: headroomHttp(sw.world.rpcUrl),
  })

async function mined(hash: Hex) {
  expect((await pollReceipt(sw.chain, hash, RECEIPT)).status).toBe('success')
}

/** Stock shares minted by the stand-in's admin (the devnet deployer, impersonated). */
async function mintShares(to: Address, amount: bigint) {
  const chain = { ...base, rpcUrls: { default: { http: [sw.world.rpcUrl] } } }
  await createTestClient({ chain, mode: 'anvil', transport: http(sw.world.rpcUrl) }).impersonateAccount({
    address: devnetDeployer.address,
  })
  const admin = createWalletClient({
    chain,
    account: devnetDeployer.address,
    transport: http(sw.world.rpcUrl),
  })
  await mined(
    await admin.writeContract({
      address: STOCK,
      abi: stockStandInAbi,
      functionName: 'mint',
      args: [to, amount],
    }),
  )
}

const quoteUniswap = async (amountIn: bigint) =>
  (
    await sw.chain.readContract({
      address: BASE_ADDRESSES.QuoterV2,
      abi: quoterV2Abi,
      functionName: 'quoteExactInputSingle',
      args: [{ tokenIn: STOCK, tokenOut: USDC, amountIn, fee: 3000, sqrtPriceLimitX96: 0n }],
    })
  )[0]

beforeAll(async () => {
  const funded = await sw.freshWallet(1_000_000_000_000n, 10n ** 18n)
  trader = walletOf(funded.privateKey)
  const me = trader.account.address
  await mintShares(me, 1_000n * ONE_SHARE)
  uniswapOut = await quoteUniswap(ONE_SHARE)
  // An AAPLc/USDC Aerodrome pool quoting 10% above Uniswap, funded directly and minted (the router would
  // refuse to add a B20 token, as on Base).
  await mined(
    await trader.writeContract({
      address: FACTORY,
      abi: factoryAbi,
      functionName: 'createPool',
      args: [STOCK, USDC, false],
    }),
  )
  const pool = await sw.chain.readContract({
    address: FACTORY,
    abi: factoryAbi,
    functionName: 'getPool',
    args: [STOCK, USDC, false],
  })
  const shares = 500n * ONE_SHARE
  await mined(
    await trader.writeContract({
      address: STOCK,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [pool, shares],
    }),
  )
  const usdc = (500n * uniswapOut * 11n) / 10n
  await mined(
    await trader.writeContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [pool, usdc],
    }),
  )
  await mined(await trader.writeContract({ address: pool, abi: poolAbi, functionName: 'mint', args: [me] }))
}, 120_000)

describe('tokenized stocks are never routed through Aerodrome', () => {
  test('behavior: the stock address is a B20 precompile address; USDC and WETH are not', () => {
    expect(isB20Token(STOCK)).toBe(true)
    expect(isB20Token(USDC)).toBe(false)
    expect(isB20Token(BASE_ADDRESSES.WETH)).toBe(false)
  })

  test('behavior: the Aerodrome pool quotes more than Uniswap, yet its router refuses the stock as Base would', async () => {
    const [, aerodromeOut] = await sw.chain.readContract({
      address: ROUTER,
      abi: aerodromeRouterAbi,
      functionName: 'getAmountsOut',
      args: [ONE_SHARE, route],
    })
    expect(aerodromeOut).toBeGreaterThan((uniswapOut * 105n) / 100n)
    await mined(
      await trader.writeContract({
        address: STOCK,
        abi: erc20Abi,
        functionName: 'approve',
        args: [ROUTER, ONE_SHARE],
      }),
    )
    const now = BigInt(Math.floor(Date.now() / 1000)) + 3600n
    await expect(
      sw.chain.simulateContract({
        account: trader.account,
        address: ROUTER,
        abi: parseAbi([
          'struct Route { address from; address to; bool stable; address factory; }',
          'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, Route[] routes, address to, uint256 deadline) returns (uint256[] amounts)',
        ]),
        functionName: 'swapExactTokensForTokens',
        args: [ONE_SHARE, 0n, route, trader.account.address, now],
      }),
    ).rejects.toThrow(/revert/i)
  })

  test("behavior: /v1/swap/price quotes the stock through Uniswap v3, at the quoter's figure", async () => {
    const pay = wrapFetchWithPayment(fetch, payer(2).client)
    const query = new URLSearchParams({
      fromToken: STOCK,
      toToken: USDC,
      fromAmount: ONE_SHARE.toString(),
      taker: trader.account.address,
    })
    const res = await pay(`${svc.url}/v1/swap/price?${query}`)
    const body = (await res.json()) as { route: { source: string }[]; expectedOut: string }
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.route.map((r) => r.source)).toEqual(['Uniswap_V3'])
    expect(BigInt(body.expectedOut)).toBe(await quoteUniswap(ONE_SHARE))
  })

  test('behavior: POST /v1/tx/swap of the stock builds a Uniswap v3 swap, and it executes onchain', async () => {
    const me = trader.account.address
    const amount = 2n * ONE_SHARE
    const expected = await quoteUniswap(amount)
    const answer = await client.post<{ route: { source: string }[]; minOut: string }>('/v1/tx/swap', {
      fromToken: STOCK,
      toToken: USDC,
      fromAmount: amount.toString(),
      taker: me,
      slippageBps: 100,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectEnvelope(answer.body, me)
    expect(answer.body.action.route.map((r) => r.source)).toEqual(['Uniswap_V3'])
    expect(answer.body.steps.every((s) => s.to !== ROUTER)).toBe(true)
    const before = await sw.usdcBalance(me)
    await broadcast(sw.chain, trader, answer.body)
    expect((await sw.usdcBalance(me)) - before).toBe(expected)
  })
})
