import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  type TransactionReceipt,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { assertSimulatedOutcome, type SwapAction } from '../../src/builders/swap/swap.js'
import type { SwapRequest } from '../../src/builders/swap/swapState.js'
import { checkZeroExQuote } from '../../src/builders/swap/swapZeroEx.js'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../src/chain/addresses.js'
import { DEVNET_ADDRESSES } from '../../src/devnet/addresses.js'
import { UpstreamError } from '../../src/errors.js'
import type { ZeroExFirmQuote } from '../../src/market/upstreams/zeroEx.js'
import {
  broadcast,
  builderClient,
  devnetBook,
  expectEnvelope,
  ownerWallet,
  type PaidAnswer,
  selectorOf,
} from '../helpers/builderCalls.js'
import { expectMined } from '../helpers/expectMined.js'
import { dumpWethOnAerodrome } from '../helpers/poolTruth.js'
import { type Instance, useWorld } from '../helpers/serviceWorld.js'

// POST /v1/tx/swap, paid with the official x402 client, broadcast from demo accounts and checked against
// the pools read here directly (QuoterV2, the Aerodrome router), the 0x simulator's own answers and the
// owners' balances onchain. Test order matters: the Aerodrome test makes that pool the best USDC → WETH
// venue for the tests after it (the 0x simulator routes through the same pools).
const { USDC, WETH, cbBTC } = BASE_ADDRESSES
const ALLOWANCE_HOLDER = getAddress('0x0000000000001fF3684f28c67538d4D072C22734')
const APPROVE = '0x095ea7b3'
const ROUTER_MULTICALL = '0x5ae401dc'
const AERO_SWAP = '0xcac88ea9'

// The venues' ABIs, written out here so the truth does not lean on the service's own definitions.
const quoterAbi = parseAbi([
  'struct P { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(P params) returns (uint256 amountOut, uint160, uint32, uint256 gasEstimate)',
])
const routerAbi = parseAbi([
  'struct E { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(E params) payable returns (uint256 amountOut)',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[])',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
])
const aeroAbi = parseAbi([
  'struct Route { address from; address to; bool stable; address factory; }',
  'function getAmountsOut(uint256 amountIn, Route[] routes) view returns (uint256[] amounts)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, Route[] routes, address to, uint256 deadline) returns (uint256[] amounts)',
])
const wethAbi = parseAbi(['function deposit() payable'])

const sw = useWorld()
let onchain: Instance
let zeroEx: Instance
let client: ReturnType<typeof builderClient>
let zeroExClient: ReturnType<typeof builderClient>
const servers: Server[] = []

beforeAll(async () => {
  onchain = await sw.instance()
  zeroEx = await sw.instance({ ZEROX_API_KEY: 'test' })
  client = builderClient(sw, onchain)
  zeroExClient = builderClient(sw, zeroEx)
}, 120_000)

afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r))
})

const balanceOf = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
const allowance = (token: Address, who: Address, spender: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [who, spender] })
const ethOf = (who: Address) => sw.chain.getBalance({ address: who })
const gasPaid = (receipts: TransactionReceipt[]) =>
  receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n)
const floorSlippage = (amount: bigint, bps: number) => (amount * BigInt(10_000 - bps)) / 10_000n

interface Truth {
  venue: 'Uniswap_V3' | 'Aerodrome_V2'
  amountOut: bigint
  fee?: number
}

/** Every venue's output for a single hop, read here from QuoterV2 (each tier) and the Aerodrome router. */
async function poolTruths(sell: Address, buy: Address, amountIn: bigint): Promise<Truth[]> {
  const truths: Truth[] = []
  for (const fee of [100, 500, 3000, 10_000]) {
    try {
      const { result } = await sw.chain.simulateContract({
        address: BASE_ADDRESSES.QuoterV2,
        abi: quoterAbi,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn: sell, tokenOut: buy, amountIn, fee, sqrtPriceLimitX96: 0n }],
      })
      truths.push({ venue: 'Uniswap_V3', amountOut: result[0], fee })
    } catch {
      // no pool at this tier
    }
  }
  try {
    const amounts = await sw.chain.readContract({
      address: BASE_ADDRESSES.AerodromeRouter,
      abi: aeroAbi,
      functionName: 'getAmountsOut',
      args: [
        amountIn,
        [{ from: sell, to: buy, stable: false, factory: BASE_ADDRESSES.AerodromePoolFactory }],
      ],
    })
    if ((amounts.at(-1) ?? 0n) > 0n) truths.push({ venue: 'Aerodrome_V2', amountOut: amounts.at(-1) ?? 0n })
  } catch {
    // no volatile pool
  }
  return truths
}

/** The best output among `venues`. */
async function bestTruth(
  sell: Address,
  buy: Address,
  amountIn: bigint,
  venues = ['Uniswap_V3', 'Aerodrome_V2'],
) {
  const truths = (await poolTruths(sell, buy, amountIn)).filter((t) => venues.includes(t.venue))
  const best = truths.reduce((a, b) => (b.amountOut > a.amountOut ? b : a))
  expect(best.amountOut).toBeGreaterThan(0n)
  return best
}

/** The SwapRouter02 step's calldata, decoded: the deadline and each inner call. */
function decodeRouterStep(data: Hex) {
  const outer = decodeFunctionData({ abi: routerAbi, data })
  expect(outer.functionName).toBe('multicall')
  const [deadline, calls] = outer.args as readonly [bigint, readonly Hex[]]
  return { deadline, calls: calls.map((c) => decodeFunctionData({ abi: routerAbi, data: c })) }
}

const ROUTERS = {
  Uniswap_V3: BASE_ADDRESSES.SwapRouter02,
  Aerodrome_V2: BASE_ADDRESSES.AerodromeRouter,
} as const

/** The swap step's bare calldata, decoded against the venue that won: every argument as quoted. */
function expectSwapCalldata(
  built: { expiresAt: number; walletSendCalls: { calls: { data: string }[] } },
  index: number,
  truth: Truth,
  p: { from: Address; to: Address; amountIn: bigint; minOut: bigint; owner: Address },
) {
  const data = built.walletSendCalls.calls[index]?.data as Hex
  if (truth.venue === 'Aerodrome_V2') {
    expect(selectorOf(data)).toBe(AERO_SWAP)
    expect(decodeFunctionData({ abi: aeroAbi, data }).args).toEqual([
      p.amountIn,
      p.minOut,
      [{ from: p.from, to: p.to, stable: false, factory: BASE_ADDRESSES.AerodromePoolFactory }],
      p.owner,
      BigInt(built.expiresAt),
    ])
    return
  }
  expect(selectorOf(data)).toBe(ROUTER_MULTICALL)
  const swap = decodeRouterStep(data)
  expect(swap.deadline).toBe(BigInt(built.expiresAt))
  expect(swap.calls).toHaveLength(1)
  expect(swap.calls[0]?.functionName).toBe('exactInputSingle')
  expect(swap.calls[0]?.args[0]).toEqual({
    tokenIn: p.from,
    tokenOut: p.to,
    fee: truth.fee,
    recipient: p.owner,
    amountIn: p.amountIn,
    amountOutMinimum: p.minOut,
    sqrtPriceLimitX96: 0n,
  })
}

const swapBody = (
  fromToken: Address,
  toToken: Address,
  fromAmount: bigint,
  taker: Address,
  slippageBps = 100,
) => ({
  fromToken,
  toToken,
  fromAmount: fromAmount.toString(),
  taker,
  slippageBps,
})

function expectOk(answer: PaidAnswer<SwapAction>) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  expect(answer.charged).toBeGreaterThan(0n)
  return answer.body
}

const deltaOf = (
  built: { simulation: { balanceChanges: { token: string; delta: string }[] } },
  token: Address,
) => built.simulation.balanceChanges.find((c) => c.token === token)?.delta

/**
 * Demo account 7 moves the WETH price up on both venues (buys WETH with USDC): a quote taken before it
 * delivers less after it.
 */
let moverReady = false
async function moveMarket() {
  const mover = ownerWallet(sw, 7)
  const me = mover.account.address
  const send = async (hash: Hex) => expectMined(sw.chain, hash)
  if (!moverReady) {
    for (const spender of [BASE_ADDRESSES.SwapRouter02, BASE_ADDRESSES.AerodromeRouter])
      await send(
        await mover.writeContract({
          address: USDC,
          abi: erc20Abi,
          functionName: 'approve',
          args: [spender, maxUint256],
        }),
      )
    moverReady = true
  }
  await send(
    await mover.writeContract({
      address: BASE_ADDRESSES.SwapRouter02,
      abi: routerAbi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: USDC,
          tokenOut: WETH,
          fee: 500,
          recipient: me,
          amountIn: parseUnits('50000', 6),
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    }),
  )
  await send(
    await mover.writeContract({
      address: BASE_ADDRESSES.AerodromeRouter,
      abi: aeroAbi,
      functionName: 'swapExactTokensForTokens',
      args: [
        parseUnits('5000', 6),
        0n,
        [{ from: USDC, to: WETH, stable: false, factory: BASE_ADDRESSES.AerodromePoolFactory }],
        me,
        maxUint256,
      ],
    }),
  )
}

/**
 * A loopback proxy in front of `upstream` that, once armed, moves the market after the request
 * `trigger` picks and before it answers (0x: after quoting; the RPC: before the bundle's eth_simulateV1).
 * It records every request line it forwards and every answer.
 */
async function marketMovingProxy(
  upstream: string,
  trigger: (url: string, body: string) => boolean,
): Promise<{ url: string; seen: string[]; answers: string[]; arm(): void; fired(): boolean }> {
  let armed = false
  let fired = false
  const seen: string[] = []
  const answers: string[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const url = req.url ?? '/'
      seen.push(url)
      const hit = armed && trigger(url, body)
      try {
        const headers: Record<string, string> = {}
        for (const h of ['content-type', '0x-api-key', '0x-version', 'accept']) {
          const v = req.headers[h]
          if (typeof v === 'string') headers[h] = v
        }
        // The RPC: move first, then simulate. 0x: quote first, then move.
        if (hit && req.method === 'POST') {
          armed = false
          await moveMarket()
          fired = true
        }
        const answer = await fetch(`${upstream}${url}`, {
          method: req.method,
          headers,
          ...(req.method === 'POST' ? { body } : {}),
        })
        const text = await answer.text()
        answers.push(text)
        if (hit && req.method === 'GET') {
          armed = false
          await moveMarket()
          fired = true
        }
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
        })
        res.end(text)
      } catch (err) {
        res.writeHead(502).end(String(err))
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  servers.push(server)
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    answers,
    arm: () => {
      armed = true
    },
    fired: () => fired,
  }
}

describe('swap builder, onchain path (no 0x API key)', () => {
  test('behavior: USDC → WETH approves exactly fromAmount to the best venue’s router, swaps by the deadline, and the chain moves what the simulation and the quote said', async () => {
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    const amountIn = parseUnits('1500', 6)
    const truth = await bestTruth(USDC, WETH, amountIn)
    const router = ROUTERS[truth.venue]
    const allowed = await allowance(USDC, me, router)
    const built = expectOk(
      await client.post<SwapAction>('/v1/tx/swap', swapBody(USDC, WETH, amountIn, me, 30)),
    )
    expectEnvelope(built, me)
    expect(built.steps.map((s) => s.to)).toEqual([USDC, router])
    expect(built.issues.allowance).toEqual({
      token: USDC,
      spender: router,
      actual: allowed.toString(),
      expected: amountIn.toString(),
    })
    const minOut = floorSlippage(truth.amountOut, 30)
    expect(built.action).toEqual({
      type: 'swap',
      quotedBy: 'onchain',
      expectedOut: truth.amountOut.toString(),
      minOut: minOut.toString(),
      route: [{ source: truth.venue, from: USDC, to: WETH, proportionBps: 10_000 }],
      zid: null,
      signingPayload: null,
    })
    // The calldata says what the action says: the pool, the owner as recipient, minOut, the deadline.
    const approve = decodeFunctionData({ abi: erc20Abi, data: built.walletSendCalls.calls[0]?.data as Hex })
    expect(approve.args).toEqual([router, amountIn])
    expectSwapCalldata(built, 1, truth, { from: USDC, to: WETH, amountIn, minOut, owner: me })
    expect(deltaOf(built, USDC)).toBe((-amountIn).toString())
    expect(deltaOf(built, WETH)).toBe(built.action.expectedOut)

    const [usdcBefore, wethBefore] = await Promise.all([balanceOf(USDC, me), balanceOf(WETH, me)])
    await broadcast(sw.chain, owner, built)
    const [usdcAfter, wethAfter] = await Promise.all([balanceOf(USDC, me), balanceOf(WETH, me)])
    expect(usdcBefore - usdcAfter).toBe(amountIn)
    const received = wethAfter - wethBefore
    expect(received).toBeGreaterThanOrEqual(minOut)
    // Nothing moved the pool between the build and the broadcast: exactly the quote, as simulated.
    expect(received.toString()).toBe(deltaOf(built, WETH))
    expect(received).toBe(truth.amountOut)
    // An exact approval: nothing is left approved once the swap pulled it.
    expect(await allowance(USDC, me, router)).toBe(0n)
  })

  test('behavior: once the approve step is mined, building again has no approve step (cbBTC → USDC through SwapRouter02)', async () => {
    // cbBTC trades on Uniswap only: SwapRouter02's multicall(deadline, [exactInputSingle]) for sure.
    const owner = ownerWallet(sw, 3)
    const me = owner.account.address
    const amountIn = parseUnits('0.2', 8)
    const body = swapBody(cbBTC, USDC, amountIn, me)
    const first = expectOk(await client.post<SwapAction>('/v1/tx/swap', body))
    expect(first.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, ROUTER_MULTICALL])
    expect(first.issues.allowance).toMatchObject({ token: cbBTC, spender: BASE_ADDRESSES.SwapRouter02 })
    // Broadcast only the approve; the caller then rebuilds (say the quote expired).
    await broadcast(sw.chain, owner, { ...first, steps: first.steps.slice(0, 1) })
    expect(await allowance(cbBTC, me, BASE_ADDRESSES.SwapRouter02)).toBe(amountIn)
    const second = expectOk(await client.post<SwapAction>('/v1/tx/swap', body))
    expectEnvelope(second, me)
    expect(second.steps.map((s) => selectorOf(s.data))).toEqual([ROUTER_MULTICALL])
    expect(second.issues.allowance).toBeNull()
    const truth = await bestTruth(cbBTC, USDC, amountIn)
    expect(truth.venue).toBe('Uniswap_V3')
    const minOut = floorSlippage(truth.amountOut, 100)
    expect(second.action).toMatchObject({
      expectedOut: truth.amountOut.toString(),
      minOut: minOut.toString(),
    })
    expectSwapCalldata(second, 0, truth, { from: cbBTC, to: USDC, amountIn, minOut, owner: me })
    const [btcBefore, usdcBefore] = await Promise.all([balanceOf(cbBTC, me), balanceOf(USDC, me)])
    await broadcast(sw.chain, owner, second)
    expect(btcBefore - (await balanceOf(cbBTC, me))).toBe(amountIn)
    expect(((await balanceOf(USDC, me)) - usdcBefore).toString()).toBe(second.action.expectedOut)
    expect(await allowance(cbBTC, me, BASE_ADDRESSES.SwapRouter02)).toBe(0n)
  })

  test('error: a minimum the pool can no longer meet (the price moved between the quote and the simulation) is 422 simulation_reverted with the router’s reason, uncharged', async () => {
    // The service's RPC goes through a proxy that moves the WETH price up just before the bundle's
    // eth_simulateV1, i.e. after the plan's multicall quoted it: with slippageBps 0 the minimum is the
    // quote itself, which the moved pools can no longer pay.
    const rpc = await marketMovingProxy(sw.world.rpcUrl, (_url, body) => body.includes('"eth_simulateV1"'))
    const svc = await sw.instance({ RPC_URL: rpc.url })
    const me = ownerWallet(sw, 3).account.address
    const amountIn = parseUnits('900', 6)
    const { venue } = await bestTruth(USDC, WETH, amountIn)
    rpc.arm()
    const answer = await builderClient(sw, svc).post<SwapAction>(
      '/v1/tx/swap',
      swapBody(USDC, WETH, amountIn, me, 0),
    )
    expect(rpc.fired()).toBe(true)
    expect(answer.status, JSON.stringify(answer.body)).toBe(422)
    // SwapRouter02 reverts with a string, the Aerodrome router with its custom error.
    const reason = venue === 'Uniswap_V3' ? 'Error(Too little received)' : 'InsufficientOutputAmount()'
    expect(answer.body.error).toMatchObject({
      code: 'simulation_reverted',
      details: { stepIndex: 1, reason, to: ROUTERS[venue] },
    })
    expect(answer.charged).toBe(0n)
  })

  test('behavior: when Aerodrome pays more it is the venue: approve to its router, swapExactTokensForTokens by the deadline, exactly expectedOut', async () => {
    // Demo 7 dumps WETH into Aerodrome's WETH/USDC pool: WETH is then cheaper there than on Uniswap.
    await dumpWethOnAerodrome(sw.chain, ownerWallet(sw, 7), parseEther('30'))
    const owner = ownerWallet(sw, 4)
    const me = owner.account.address
    const amountIn = parseUnits('1500', 6)
    const truth = await bestTruth(USDC, WETH, amountIn)
    expect(truth.venue).toBe('Aerodrome_V2')
    const built = expectOk(
      await client.post<SwapAction>('/v1/tx/swap', swapBody(USDC, WETH, amountIn, me, 75)),
    )
    expectEnvelope(built, me)
    expect(built.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, AERO_SWAP])
    expect(built.issues.allowance).toMatchObject({ spender: BASE_ADDRESSES.AerodromeRouter })
    expect(built.action).toMatchObject({
      expectedOut: truth.amountOut.toString(),
      minOut: floorSlippage(truth.amountOut, 75).toString(),
      route: [{ source: 'Aerodrome_V2', from: USDC, to: WETH, proportionBps: 10_000 }],
    })
    const swap = decodeFunctionData({ abi: aeroAbi, data: built.walletSendCalls.calls[1]?.data as Hex })
    expect(swap.args).toEqual([
      amountIn,
      floorSlippage(truth.amountOut, 75),
      [{ from: USDC, to: WETH, stable: false, factory: BASE_ADDRESSES.AerodromePoolFactory }],
      me,
      BigInt(built.expiresAt),
    ])
    const [usdcBefore, wethBefore] = await Promise.all([balanceOf(USDC, me), balanceOf(WETH, me)])
    await broadcast(sw.chain, owner, built)
    expect(usdcBefore - (await balanceOf(USDC, me))).toBe(amountIn)
    expect(((await balanceOf(WETH, me)) - wethBefore).toString()).toBe(built.action.expectedOut)
    expect(deltaOf(built, WETH)).toBe(built.action.expectedOut)
    expect(await allowance(USDC, me, BASE_ADDRESSES.AerodromeRouter)).toBe(0n)
  })

  test('behavior: native ETH round trip: ETH in rides as value, ETH out is unwrapped to the owner; ETH ⇄ WETH is a WETH9 wrap', async () => {
    const owner = ownerWallet(sw, 5)
    const me = owner.account.address
    const ethStart = await ethOf(me)
    const wethStart = await balanceOf(WETH, me)

    // ETH → USDC: no approve, one SwapRouter02 step carrying the ETH (Uniswap only with ETH on a side).
    const sellEth = parseEther('1')
    const truthIn = await bestTruth(WETH, USDC, sellEth, ['Uniswap_V3'])
    const ethIn = expectOk(
      await client.post<SwapAction>('/v1/tx/swap', swapBody(NATIVE_SENTINEL, USDC, sellEth, me, 50)),
    )
    expectEnvelope(ethIn, me)
    expect(ethIn.steps.map((s) => [selectorOf(s.data), s.value])).toEqual([
      [ROUTER_MULTICALL, sellEth.toString()],
    ])
    expect(ethIn.issues.allowance).toBeNull()
    expect(ethIn.action).toMatchObject({
      expectedOut: truthIn.amountOut.toString(),
      minOut: floorSlippage(truthIn.amountOut, 50).toString(),
      route: [{ source: 'Uniswap_V3', from: NATIVE_SENTINEL, to: USDC, proportionBps: 10_000 }],
    })
    const inCall = decodeRouterStep(ethIn.walletSendCalls.calls[0]?.data as Hex)
    expect(inCall.deadline).toBe(BigInt(ethIn.expiresAt))
    expect(inCall.calls[0]?.args[0]).toMatchObject({
      tokenIn: WETH,
      tokenOut: USDC,
      recipient: me,
      amountIn: sellEth,
    })
    expect(deltaOf(ethIn, NATIVE_SENTINEL)).toBe((-sellEth).toString())
    expect(deltaOf(ethIn, USDC)).toBe(ethIn.action.expectedOut)
    const usdcBefore = await balanceOf(USDC, me)
    const r1 = await broadcast(sw.chain, owner, ethIn)
    const bought = (await balanceOf(USDC, me)) - usdcBefore
    expect(bought.toString()).toBe(ethIn.action.expectedOut)
    expect(await ethOf(me)).toBe(ethStart - sellEth - gasPaid(r1))

    // USDC → ETH: sell what was bought; the router receives WETH and unwraps it to the owner.
    const truthOut = await bestTruth(USDC, WETH, bought, ['Uniswap_V3'])
    const ethOut = expectOk(
      await client.post<SwapAction>('/v1/tx/swap', swapBody(USDC, NATIVE_SENTINEL, bought, me, 50)),
    )
    expectEnvelope(ethOut, me)
    expect(ethOut.steps.map((s) => [selectorOf(s.data), s.value])).toEqual([
      [APPROVE, '0'],
      [ROUTER_MULTICALL, '0'],
    ])
    const minOut = floorSlippage(truthOut.amountOut, 50)
    expect(ethOut.action).toMatchObject({
      expectedOut: truthOut.amountOut.toString(),
      route: [{ source: 'Uniswap_V3', from: USDC, to: NATIVE_SENTINEL, proportionBps: 10_000 }],
    })
    const outCall = decodeRouterStep(ethOut.walletSendCalls.calls[1]?.data as Hex)
    expect(outCall.deadline).toBe(BigInt(ethOut.expiresAt))
    expect(outCall.calls.map((c) => c.functionName)).toEqual(['exactInputSingle', 'unwrapWETH9'])
    expect(outCall.calls[0]?.args[0]).toMatchObject({
      tokenIn: USDC,
      tokenOut: WETH,
      recipient: '0x0000000000000000000000000000000000000002', // the router itself
      amountOutMinimum: minOut,
    })
    expect(outCall.calls[1]?.args).toEqual([minOut, me])
    expect(deltaOf(ethOut, NATIVE_SENTINEL)).toBe(ethOut.action.expectedOut)
    const ethBefore = await ethOf(me)
    const r2 = await broadcast(sw.chain, owner, ethOut)
    expect(await balanceOf(USDC, me)).toBe(usdcBefore)
    const gotEth = (await ethOf(me)) - ethBefore + gasPaid(r2)
    expect(gotEth.toString()).toBe(ethOut.action.expectedOut)
    expect(gotEth).toBeGreaterThanOrEqual(minOut)
    // Nothing was left as WETH with the owner or the router.
    expect(await balanceOf(WETH, me)).toBe(wethStart)
    expect(await balanceOf(WETH, BASE_ADDRESSES.SwapRouter02)).toBe(0n)
    expect(await ethOf(BASE_ADDRESSES.SwapRouter02)).toBe(0n)

    // ETH → WETH: WETH9's deposit with the ETH as value, 1:1.
    const wrapAmount = parseEther('0.25')
    const wrap = expectOk(
      await client.post<SwapAction>('/v1/tx/swap', swapBody(NATIVE_SENTINEL, WETH, wrapAmount, me)),
    )
    expectEnvelope(wrap, me)
    expect(wrap.steps.map((s) => [s.to, s.value])).toEqual([[WETH, wrapAmount.toString()]])
    expect(
      decodeFunctionData({ abi: wethAbi, data: wrap.walletSendCalls.calls[0]?.data as Hex }).functionName,
    ).toBe('deposit')
    expect(wrap.action).toMatchObject({ expectedOut: wrapAmount.toString(), route: [{ source: 'WETH' }] })
    await broadcast(sw.chain, owner, wrap)
    expect(await balanceOf(WETH, me)).toBe(wethStart + wrapAmount)
  })

  test('error: bad bodies are 400 naming the field; a shortfall, an unlisted or non-token address are 422; none is charged', async () => {
    const me = ownerWallet(sw, 6).account.address
    const holding = await balanceOf(USDC, me)
    const ok = swapBody(USDC, WETH, 1_000_000n, me)
    const unlisted = getAddress('0x1111111111111111111111111111111111111111')
    const answers = await Promise.all([
      client.post('/v1/tx/swap', { ...ok, slippageBps: 5001 }),
      client.post('/v1/tx/swap', { ...ok, recipient: me }),
      client.post('/v1/tx/swap', { ...ok, fromAmount: '0' }),
      client.post('/v1/tx/swap', { ...ok, toToken: USDC }),
      client.post('/v1/tx/swap', { ...ok, fromAmount: (holding + 1n).toString() }),
      client.post('/v1/tx/swap', { ...ok, toToken: unlisted }),
      client.post('/v1/tx/swap', { ...ok, fromToken: unlisted }),
      client.post('/v1/tx/swap', { ...ok, toToken: BASE_ADDRESSES.SwapRouter02 }),
    ])
    const [slippage, extra, zero, same, short, badTo, badFrom, notToken] = answers
    expect(slippage?.status).toBe(400)
    expect(slippage?.body.error?.field).toBe('slippageBps')
    expect(extra?.status).toBe(400)
    expect(extra?.body.error?.field).toBe('recipient')
    expect(zero?.status).toBe(400)
    expect(zero?.body.error?.field).toBe('fromAmount')
    expect(same?.status).toBe(400)
    expect(same?.body.error?.field).toBe('toToken')
    expect(short?.status).toBe(422)
    expect(short?.body.error).toMatchObject({ code: 'insufficient_balance', field: 'fromAmount' })
    expect(short?.body.error?.details).toEqual({
      issues: {
        balance: { token: USDC, actual: holding.toString(), expected: (holding + 1n).toString() },
        allowance: null,
      },
    })
    expect(badTo?.status).toBe(422)
    expect(badTo?.body.error).toMatchObject({ code: 'unlisted_target', field: 'toToken' })
    expect(badFrom?.status).toBe(422)
    expect(badFrom?.body.error).toMatchObject({ code: 'unlisted_target', field: 'fromToken' })
    expect(notToken?.status).toBe(422)
    expect(notToken?.body.error).toMatchObject({ code: 'not_a_token', field: 'toToken' })
    for (const a of answers) expect(a?.charged).toBe(0n)
  })
})

/** What the 0x simulator answers, asked directly with the headers 0x requires. */
async function zeroExQuote(query: Record<string, string>) {
  const q = new URLSearchParams({ chainId: '8453', ...query })
  const res = await fetch(`${zeroEx.config.upstreams.zeroEx}/swap/allowance-holder/quote?${q}`, {
    headers: { '0x-api-key': 'test', '0x-version': 'v2' },
  })
  expect(res.status).toBe(200)
  return (await res.json()) as {
    buyAmount: string
    minBuyAmount: string
    issues: { allowance: { actual: string; spender: Address } | null }
    route: { fills: { source: string; from: string; to: string; proportionBps: string }[] }
    transaction: { to: Address; data: Hex; value: string }
  }
}

describe('swap builder, 0x path (ZEROX_API_KEY set)', () => {
  test('behavior: approve exactly fromAmount to AllowanceHolder, then the quote’s transaction as quoted; the owner receives the quoted amount onchain', async () => {
    const owner = ownerWallet(sw, 6)
    const me = owner.account.address
    const amountIn = parseUnits('2000', 6)
    const built = expectOk(
      await zeroExClient.post<SwapAction>('/v1/tx/swap', swapBody(USDC, WETH, amountIn, me)),
    )
    expectEnvelope(built, me)
    expect(built.steps.map((s) => s.to)).toEqual([USDC, ALLOWANCE_HOLDER])
    expect(selectorOf(built.steps[0]?.data as string)).toBe(APPROVE)
    expect(built.issues.allowance).toEqual({
      token: USDC,
      spender: ALLOWANCE_HOLDER,
      actual: '0',
      expected: amountIn.toString(),
    })
    expect(
      decodeFunctionData({ abi: erc20Abi, data: built.walletSendCalls.calls[0]?.data as Hex }).args,
    ).toEqual([ALLOWANCE_HOLDER, amountIn])
    // The simulator, asked the same question now, quotes the same amounts and route (its zid is new).
    const truth = await zeroExQuote({
      sellToken: USDC,
      buyToken: WETH,
      sellAmount: amountIn.toString(),
      taker: me,
    })
    expect(truth.issues.allowance?.spender).toBe(ALLOWANCE_HOLDER)
    const pools = await bestTruth(USDC, WETH, amountIn)
    expect(built.action).toMatchObject({
      type: 'swap',
      quotedBy: '0x',
      expectedOut: truth.buyAmount,
      minOut: truth.minBuyAmount,
      route: truth.route.fills.map((f) => ({ ...f, proportionBps: Number(f.proportionBps) })),
      signingPayload: null,
    })
    expect(built.action.expectedOut).toBe(pools.amountOut.toString())
    expect(built.action.minOut).toBe(floorSlippage(pools.amountOut, 100).toString())
    expect(built.action.zid).toMatch(/^0x[0-9a-f]{24}$/)
    // The swap step is the quote's transaction: same target and value, calldata equal but for the zid.
    const sent = built.walletSendCalls.calls[1]
    expect(sent?.to).toBe(truth.transaction.to)
    expect(sent?.data.length).toBe(truth.transaction.data.length)
    expect(BigInt(sent?.value as Hex)).toBe(0n)
    expect(deltaOf(built, USDC)).toBe((-amountIn).toString())
    expect(deltaOf(built, WETH)).toBe(built.action.expectedOut)

    const [usdcBefore, wethBefore] = await Promise.all([balanceOf(USDC, me), balanceOf(WETH, me)])
    await broadcast(sw.chain, owner, built)
    expect(usdcBefore - (await balanceOf(USDC, me))).toBe(amountIn)
    const received = (await balanceOf(WETH, me)) - wethBefore
    expect(received).toBeGreaterThanOrEqual(BigInt(built.action.minOut))
    expect(received.toString()).toBe(built.action.expectedOut)
    expect(await allowance(USDC, me, ALLOWANCE_HOLDER)).toBe(0n)
    for (const holder of [ALLOWANCE_HOLDER, DEVNET_ADDRESSES.ZEROX_SETTLER]) {
      expect(await balanceOf(USDC, holder)).toBe(0n)
      expect(await balanceOf(WETH, holder)).toBe(0n)
    }
  })

  test('behavior: selling ETH through 0x is one step carrying the ETH, no approve', async () => {
    const owner = ownerWallet(sw, 6)
    const me = owner.account.address
    const sellEth = parseEther('0.4')
    const built = expectOk(
      await zeroExClient.post<SwapAction>('/v1/tx/swap', swapBody(NATIVE_SENTINEL, USDC, sellEth, me)),
    )
    expectEnvelope(built, me)
    expect(built.steps.map((s) => [s.to, s.value])).toEqual([[ALLOWANCE_HOLDER, sellEth.toString()]])
    expect(built.issues.allowance).toBeNull()
    expect(built.action.expectedOut).toBe((await bestTruth(WETH, USDC, sellEth)).amountOut.toString())
    const [usdcBefore, ethBefore] = await Promise.all([balanceOf(USDC, me), ethOf(me)])
    const receipts = await broadcast(sw.chain, owner, built)
    expect(((await balanceOf(USDC, me)) - usdcBefore).toString()).toBe(built.action.expectedOut)
    expect(await ethOf(me)).toBe(ethBefore - sellEth - gasPaid(receipts))
  })

  test('error: a quote the market has moved past (slippageBps 0) is 422 simulation_reverted with the Settler’s TooMuchSlippage decoded, uncharged; signerAddress reaches 0x as txOrigin', async () => {
    // 0x is reached through a proxy that, after the simulator quoted, moves the WETH price up before the
    // service sees the quote: the Settler's final check then refuses the output in the simulation.
    const proxy = await marketMovingProxy(zeroEx.config.upstreams.zeroEx, (url) =>
      url.startsWith('/swap/allowance-holder/quote'),
    )
    const svc = await sw.instance({ ZEROX_API_KEY: 'test', ZEROX_API_URL: proxy.url })
    const me = ownerWallet(sw, 2).account.address
    const signer = ownerWallet(sw, 3).account.address
    proxy.arm()
    const answer = await builderClient(sw, svc).post<SwapAction>('/v1/tx/swap', {
      ...swapBody(USDC, WETH, parseUnits('700', 6), me, 0),
      signerAddress: signer,
    })
    expect(proxy.fired()).toBe(true)
    const quoted = proxy.seen.find((u) => u.startsWith('/swap/allowance-holder/quote')) ?? ''
    const query = new URLSearchParams(quoted.split('?')[1])
    expect(query.get('txOrigin')).toBe(signer)
    expect(query.get('taker')).toBe(me)
    expect(query.get('slippageBps')).toBe('0')
    expect(answer.status, JSON.stringify(answer.body)).toBe(422)
    expect(answer.body.error).toMatchObject({
      code: 'simulation_reverted',
      details: { stepIndex: 1, to: ALLOWANCE_HOLDER },
    })
    const reason = String(answer.body.error?.details?.reason)
    const m = /^TooMuchSlippage\((0x[0-9a-fA-F]{40}), (\d+), (\d+)\)$/.exec(reason)
    expect(m, reason).not.toBeNull()
    expect(m?.[1]).toBe(WETH)
    // The Settler wanted the quote's minimum (with slippage 0, its buyAmount) and the moved pool paid less.
    const quote = JSON.parse(proxy.answers[proxy.seen.indexOf(quoted)] ?? '{}') as {
      buyAmount: string
      minBuyAmount: string
    }
    expect(m?.[2]).toBe(quote.minBuyAmount)
    expect(quote.minBuyAmount).toBe(quote.buyAmount)
    expect(BigInt(m?.[3] ?? '0')).toBeLessThan(BigInt(m?.[2] ?? '0'))
    expect(answer.charged).toBe(0n)
  })
})

describe('swap builder, 0x quote guards (pure)', () => {
  const SETTLER = DEVNET_ADDRESSES.ZEROX_SETTLER
  const OLD_SETTLER = getAddress('0x5e77e75e77e75e77e75e77e75e77e75e77e75e77')
  const EVIL = getAddress('0x000000000000000000000000000000000000e111')
  // AllowanceHolder.exec as 0x-settler declares it, written out here rather than taken from the service.
  const execAbi = parseAbi([
    'function exec(address operator, address token, uint256 amount, address target, bytes data) payable returns (bytes)',
  ])
  // Settler.execute (taker-submitted) with its AllowedSlippage, likewise written out here.
  const settlerAbi = parseAbi([
    'struct AllowedSlippage { address recipient; address buyToken; uint256 minAmountOut; }',
    'function execute(AllowedSlippage slippage, bytes[] actions, bytes32 zid) payable returns (bool)',
  ])
  const OWNER = getAddress('0x000000000000000000000000000000000000a11c')
  const execute = (slippage: { recipient: Address; buyToken: Address; minAmountOut: bigint }): Hex =>
    encodeFunctionData({
      abi: settlerAbi,
      functionName: 'execute',
      args: [slippage, ['0x1234'], `0x${'00'.repeat(32)}`],
    })
  const honestSlippage: { recipient: Address; buyToken: Address; minAmountOut: bigint } = {
    recipient: OWNER,
    buyToken: WETH,
    minAmountOut: 990_000n,
  }
  const exec = (
    operator: Address,
    token: Address,
    amount: bigint,
    target: Address,
    slippage = honestSlippage,
  ): Hex =>
    encodeFunctionData({
      abi: execAbi,
      functionName: 'exec',
      args: [operator, token, amount, target, execute(slippage)],
    })
  const quote: ZeroExFirmQuote = {
    zid: '0x0123456789abcdef01234567',
    blockNumber: 1n,
    buyAmount: 1_000_000n,
    minBuyAmount: 990_000n,
    allowanceSpender: ALLOWANCE_HOLDER,
    transaction: { to: ALLOWANCE_HOLDER, data: exec(SETTLER, USDC, 5_000n, SETTLER), value: 0n, gas: null },
    aggregatorFee: null,
    route: [],
  }
  const ethQuote: ZeroExFirmQuote = {
    ...quote,
    allowanceSpender: null,
    transaction: {
      ...quote.transaction,
      data: exec(SETTLER, NATIVE_SENTINEL, 5_000n, SETTLER),
      value: 5_000n,
    },
  }
  const req = { owner: OWNER, fromToken: USDC, toToken: WETH, amountIn: 5_000n, slippageBps: 100 }
  const ethReq = { ...req, fromToken: NATIVE_SENTINEL }
  const erc20 = { from: { address: USDC, erc20: USDC, native: false, symbol: 'USDC', decimals: 6 } }
  const eth = { from: { address: NATIVE_SENTINEL, erc20: WETH, native: true, symbol: 'ETH', decimals: 18 } }
  const withData = (data: Hex, q = quote): ZeroExFirmQuote => ({
    ...q,
    transaction: { ...q.transaction, data },
  })
  const refusal = (q: ZeroExFirmQuote, native = false, settlers: readonly Address[] = [SETTLER]) => {
    try {
      checkZeroExQuote(q, native ? ethReq : req, native ? eth : erc20, devnetBook, settlers)
      return null
    } catch (err) {
      return err
    }
  }

  test('behavior: a quote to AllowanceHolder whose exec lets a known Settler pull exactly the sold amount of the sold token (ETH: the sentinel), with the ETH sold and a minimum within slippageBps, passes', () => {
    expect(refusal(quote)).toBeNull()
    expect(refusal({ ...quote, allowanceSpender: null })).toBeNull()
    expect(refusal(ethQuote, true)).toBeNull()
    // The registry's previous Settler is still 0x's own (quotes priced just before a rollover name it).
    const previous = withData(exec(OLD_SETTLER, USDC, 5_000n, OLD_SETTLER))
    expect(refusal(previous, false, [SETTLER, OLD_SETTLER])).toBeNull()
  })

  test('error: another spender, a target outside the book, stray ETH or a looser minimum are refused as 502', () => {
    const unlisted = getAddress('0x1111111111111111111111111111111111111111')
    for (const bad of [
      refusal({ ...quote, allowanceSpender: DEVNET_ADDRESSES.ZEROX_SETTLER }),
      refusal({ ...quote, transaction: { ...quote.transaction, to: unlisted } }),
      refusal({ ...quote, transaction: { ...quote.transaction, value: 1n } }),
      refusal({ ...ethQuote, transaction: { ...ethQuote.transaction, value: 0n } }, true),
      refusal({ ...quote, minBuyAmount: 989_999n }),
    ]) {
      expect(bad).toBeInstanceOf(UpstreamError)
      expect(bad).toMatchObject({ status: 502, details: { upstream: '0x Swap API' } })
    }
  })

  test('error: an exec that lets anything but a known Settler pull anything but the sold amount of the sold token is refused as 502', () => {
    const cases: [string, unknown, RegExp][] = [
      ['not an exec', refusal(withData('0x2213bc0b')), /not AllowanceHolder\.exec/],
      [
        'a token transfer',
        refusal(withData(encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [EVIL, 1n] }))),
        /not AllowanceHolder\.exec/,
      ],
      [
        'a third token',
        refusal(withData(exec(SETTLER, WETH, 5_000n, SETTLER))),
        /pull 0x4200.*not the 0x8335.* sold/,
      ],
      [
        'more than sold',
        refusal(withData(exec(SETTLER, USDC, 5_001n, SETTLER))),
        /allows 5001, not the 5000 sold/,
      ],
      [
        'less than sold',
        refusal(withData(exec(SETTLER, USDC, 4_999n, SETTLER))),
        /allows 4999, not the 5000 sold/,
      ],
      [
        'an evil operator',
        refusal(withData(exec(EVIL, USDC, 5_000n, SETTLER))),
        /operator 0x0+E111 is not its target/i,
      ],
      [
        'operator and target swapped',
        refusal(withData(exec(SETTLER, USDC, 5_000n, EVIL))),
        /is not its target/,
      ],
      [
        'an evil Settler',
        refusal(withData(exec(EVIL, USDC, 5_000n, EVIL))),
        /target 0x0+E111 is not 0x's Settler/i,
      ],
      [
        'a Settler the registry no longer names',
        refusal(withData(exec(OLD_SETTLER, USDC, 5_000n, OLD_SETTLER))),
        /not 0x's Settler/,
      ],
      [
        'ETH sold, WETH pulled',
        refusal(withData(exec(SETTLER, WETH, 5_000n, SETTLER), ethQuote), true),
        /pull 0x4200/,
      ],
      // The Settler's own slippage check (issue 22's second review): the only onchain guarantee.
      [
        'a Settler call that is not execute',
        refusal(
          withData(
            encodeFunctionData({
              abi: execAbi,
              functionName: 'exec',
              args: [SETTLER, USDC, 5_000n, SETTLER, '0x1234'],
            }),
          ),
        ),
        /not execute\(AllowedSlippage/,
      ],
      [
        'no onchain minimum',
        refusal(withData(exec(SETTLER, USDC, 5_000n, SETTLER, { ...honestSlippage, minAmountOut: 0n }))),
        /enforces 0, below the minBuyAmount 990000/,
      ],
      [
        'a minimum below the stated one',
        refusal(
          withData(exec(SETTLER, USDC, 5_000n, SETTLER, { ...honestSlippage, minAmountOut: 989_999n })),
        ),
        /enforces 989999/,
      ],
      [
        'the output paid to someone else',
        refusal(withData(exec(SETTLER, USDC, 5_000n, SETTLER, { ...honestSlippage, recipient: EVIL }))),
        /pays 0x0+E111, not the owner/i,
      ],
      [
        'the check on another token',
        refusal(withData(exec(SETTLER, USDC, 5_000n, SETTLER, { ...honestSlippage, buyToken: USDC }))),
        /checks 0x8335.*not the 0x4200/,
      ],
    ]
    for (const [name, err, message] of cases) {
      expect(err, name).toBeInstanceOf(UpstreamError)
      expect(err, name).toMatchObject({ status: 502, details: { upstream: '0x Swap API' } })
      expect((err as UpstreamError).message, name).toMatch(message)
    }
  })
})

describe('swap builder, the simulated outcome (pure)', () => {
  const req: SwapRequest = {
    owner: WETH,
    signer: null,
    fromToken: USDC,
    toToken: WETH,
    amountIn: 5_000n,
    slippageBps: 50,
    expiresAt: 0,
  }
  const change = (delta: bigint) => ({ token: USDC, before: '0', after: '0', delta: delta.toString() })
  const plan = { minOut: 100n, quotedBy: '0x' as const }
  const refusal = (spent: bigint, received: bigint) => {
    try {
      assertSimulatedOutcome([change(-spent), change(received)], req, plan)
      return null
    } catch (err) {
      return (err as Error).message
    }
  }
  test('behavior: exactly the amount sold (±1 wei) and at least minOut pass', () => {
    expect(refusal(5_000n, 100n)).toBeNull()
    expect(refusal(5_001n, 150n)).toBeNull()
    expect(refusal(4_999n, 100n)).toBeNull()
  })
  test('error: spending more or less than sold, or receiving less than minOut, is refused as 502 from the source', () => {
    expect(refusal(5_002n, 100n)).toMatch(/takes 5002 .* more than fromAmount 5000/)
    expect(refusal(2_500n, 100n)).toMatch(/takes 2500 .* not the fromAmount 5000 sold/)
    expect(refusal(5_000n, 99n)).toMatch(/pays the taker 99 .* less than minOut 100/)
  })
})
