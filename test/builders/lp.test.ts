import {
  type Address,
  decodeFunctionData,
  decodeFunctionResult,
  erc20Abi,
  getAddress,
  type Hex,
  parseAbi,
  parseEventLogs,
  parseUnits,
  type TransactionReceipt,
  toFunctionSelector,
} from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import type { AeroAddAction } from '../../src/builders/lp/lpAeroAdd.js'
import type { AeroRemoveAction } from '../../src/builders/lp/lpAeroRemove.js'
import type { UniAddAction } from '../../src/builders/lp/lpUniAdd.js'
import type { UniCollectAction } from '../../src/builders/lp/lpUniCollect.js'
import type { UniRemoveAction } from '../../src/builders/lp/lpUniRemove.js'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../src/chain/addresses.js'
import { broadcast, builderClient, expectEnvelope, ownerWallet, selectorOf } from '../helpers/builderCalls.js'
import { expectMined } from '../helpers/expectMined.js'
import { expectRefused } from '../helpers/expectRefused.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The liquidity builders, paid with the official x402 client, built for demo accounts no other builder
// test here relies on (#9 Uniswap LP, #6 Aerodrome LP, #4 the trader whose swaps pay the fees), broadcast,
// and checked against the contracts read here with ABIs written out independently of the service's.
const { USDC, WETH, cbBTC } = BASE_ADDRESSES
const NPM = BASE_ADDRESSES.NonfungiblePositionManager
const POOL_500 = BASE_ADDRESSES.UniswapV3WethUsdc500Pool
const ROUTER = BASE_ADDRESSES.AerodromeRouter
const FACTORY = BASE_ADDRESSES.AerodromePoolFactory
const APPROVE = '0x095ea7b3'
const MINT = '0x88316456'
const COLLECT = '0xfc6f7865'
const NPM_MULTICALL = '0xac9650d8'
const MAX128 = (1n << 128n) - 1n

const npmAbi = parseAbi([
  'function positions(uint256) view returns (uint96, address, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256, uint256, uint128 tokensOwed0, uint128 tokensOwed1)',
  'function ownerOf(uint256) view returns (address)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'struct C { uint256 tokenId; address recipient; uint128 amount0Max; uint128 amount1Max; }',
  'function collect(C params) returns (uint256 amount0, uint256 amount1)',
  'function multicall(bytes[] data) returns (bytes[] results)',
  'struct D { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }',
  'function decreaseLiquidity(D params) returns (uint256 amount0, uint256 amount1)',
  'struct M { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(M params) returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
])
const poolAbi = parseAbi([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
])
const swapAbi = parseAbi([
  'struct E { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(E params) payable returns (uint256 amountOut)',
])
const aeroAbi = parseAbi([
  'function getPool(address, address, bool) view returns (address)',
  'function quoteAddLiquidity(address tokenA, address tokenB, bool stable, address _factory, uint256 amountADesired, uint256 amountBDesired) view returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
  'function quoteRemoveLiquidity(address tokenA, address tokenB, bool stable, address _factory, uint256 liquidity) view returns (uint256 amountA, uint256 amountB)',
  'function addLiquidity(address tokenA, address tokenB, bool stable, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)',
])
const aeroEthAbi = parseAbi([
  'function addLiquidityETH(address token, bool stable, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256, uint256, uint256)',
  'function removeLiquidityETH(address token, bool stable, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) returns (uint256, uint256)',
])
/** ETH a wallet spent on gas over some receipts. */
const gasPaid = (receipts: readonly TransactionReceipt[]) =>
  receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n)

const sw = useWorld()
const svc = useInstance(sw)
const client = builderClient(sw, svc)
let uni: ReturnType<typeof ownerWallet>
let aero: ReturnType<typeof ownerWallet>
let trader: ReturnType<typeof ownerWallet>
/** The position #9 mints in the first test; the later Uniswap tests act on it. */
let tokenId = 0n

beforeAll(async () => {
  uni = ownerWallet(sw, 9)
  aero = ownerWallet(sw, 6)
  trader = ownerWallet(sw, 4)
}, 120_000)

const me = (w: ReturnType<typeof ownerWallet>) => w.account.address
const balanceOf = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
const balances = async (who: Address, tokens: readonly Address[]) =>
  Promise.all(tokens.map((t) => balanceOf(t, who)))
const position = (id: bigint) =>
  sw.chain.readContract({ address: NPM, abi: npmAbi, functionName: 'positions', args: [id] })
const slot0 = () => sw.chain.readContract({ address: POOL_500, abi: poolAbi, functionName: 'slot0' })
const floorSlippage = (amount: bigint, bps: number) => (amount * BigInt(10_000 - bps)) / 10_000n
/** A side's max: ceil(quote / (1 − bps/10⁴)), never above the ask. */
const grossed = (quote: bigint, ask: bigint, bps: number) => {
  const d = BigInt(10_000 - bps)
  const up = (quote * 10_000n + d - 1n) / d
  return up < ask ? up : ask
}
/** |a/b − 1| for an independent float recomputation of an exact figure. */
const relErr = (exact: bigint, approx: number) => Math.abs(Number(exact) / approx - 1)
/** sqrt(1.0001^tick) · 2^96, from the definition rather than TickMath's table. */
const sqrtAt = (tick: number) => Math.sqrt(1.0001 ** tick) * 2 ** 96

/** What the NPM's collect would pay `owner` now, as the chain itself answers (eth_call from the owner). */
async function collectable(id: bigint, owner: Address): Promise<[bigint, bigint]> {
  const { result } = await sw.chain.simulateContract({
    address: NPM,
    abi: npmAbi,
    functionName: 'collect',
    args: [{ tokenId: id, recipient: owner, amount0Max: MAX128, amount1Max: MAX128 }],
    account: owner,
  })
  return [result[0], result[1]]
}

/** Two swaps through the 0.05% pool from #4 (USDC → WETH, then WETH → USDC) so both sides earn fees. */
async function tradeThroughPool(): Promise<void> {
  const legs = [
    { tokenIn: USDC, tokenOut: WETH, amountIn: parseUnits('60000', 6) },
    { tokenIn: WETH, tokenOut: USDC, amountIn: parseUnits('20', 18) },
  ]
  for (const leg of legs) {
    await expectMined(
      sw.chain,
      await trader.writeContract({
        address: leg.tokenIn,
        abi: erc20Abi,
        functionName: 'approve',
        args: [BASE_ADDRESSES.SwapRouter02, leg.amountIn],
      }),
    )
    await expectMined(
      sw.chain,
      await trader.writeContract({
        address: BASE_ADDRESSES.SwapRouter02,
        abi: swapAbi,
        functionName: 'exactInputSingle',
        args: [
          {
            ...leg,
            fee: 500,
            recipient: me(trader),
            amountOutMinimum: 0n,
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
    )
  }
}

/** The owner's USDC and WETH: a refused call leaves them as they were. */
const holdingsOf = (owner: Address) => ({ read: () => balances(owner, [USDC, WETH]) })

describe('Uniswap v3 positions', () => {
  test('behavior: uni add mints a full-range position at the spacing-rounded ticks with the liquidity the amounts buy at slot0, exact approves first and none on a rebuild', async () => {
    const owner = me(uni)
    // tokenA/tokenB deliberately in the reverse of the pool's order: the builder sorts them.
    const body = {
      tokenA: USDC,
      tokenB: WETH,
      fee: 500,
      amountA: '3500000000',
      amountB: '1000000000000000000',
      owner,
      slippageBps: 100,
    }
    const first = await client.post<UniAddAction>('/v1/tx/lp/uni/add', body)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.charged).toBeGreaterThan(0n)
    expectEnvelope(first.body, owner)
    const approves = first.body.steps.slice(0, -1)
    expect(approves.map((s) => [getAddress(s.to), selectorOf(s.data)])).toEqual([
      [WETH, APPROVE],
      [getAddress(USDC), APPROVE],
    ])
    // Each approve is its side's max, to the NPM: the quote grossed up by the slippage (recomputed here as
    // ceil(amount / 0.99)), never above the ask; and the mint is given exactly those maxes as desired.
    const q = first.body.action
    const max0 = grossed(BigInt(q.amount0), 10n ** 18n, 100)
    const max1 = grossed(BigInt(q.amount1), 3_500_000_000n, 100)
    expect([q.amount0Max, q.amount1Max]).toEqual([max0.toString(), max1.toString()])
    expect(
      max0 < 10n ** 18n || max1 < 3_500_000_000n,
      'the side the price cuts is capped below the ask',
    ).toBe(true)
    for (const [step, amount] of [
      [approves[0], max0],
      [approves[1], max1],
    ] as const) {
      const { args } = decodeFunctionData({ abi: erc20Abi, data: step?.data.slice(0, 138) as Hex })
      expect(args).toEqual([NPM, amount])
    }
    const mintCall = decodeFunctionData({
      abi: npmAbi,
      data: first.body.steps.at(-1)?.data.slice(0, 10 + 64 * 11) as Hex,
    })
    expect(mintCall.functionName).toBe('mint')
    expect(mintCall.args?.[0]).toMatchObject({ amount0Desired: max0, amount1Desired: max1 })
    expect(first.body.issues.allowance).toMatchObject({ spender: NPM, actual: '0' })
    await broadcast(sw.chain, uni, { ...first.body, steps: approves })

    const rebuilt = await client.post<UniAddAction>('/v1/tx/lp/uni/add', body)
    expect(rebuilt.status).toBe(200)
    expect(rebuilt.body.steps.map((s) => selectorOf(s.data))).toEqual([MINT])
    expect(rebuilt.body.issues.allowance).toBeNull()
    const a = rebuilt.body.action
    expect(a).toMatchObject({
      type: 'uniAdd',
      pool: POOL_500,
      token0: WETH,
      token1: getAddress(USDC),
      tickLower: -887270,
      tickUpper: 887270,
      fullRange: true,
    })
    expect(a.amount0Min).toBe(floorSlippage(BigInt(a.amount0), 100).toString())
    expect(a.amount1Min).toBe(floorSlippage(BigInt(a.amount1), 100).toString())
    expect(rebuilt.body.expiresAt).toBeGreaterThan(rebuilt.body.quotedAt)

    const [sqrtP, tick] = await slot0()
    expect(a.sqrtPriceX96).toBe(sqrtP.toString())
    expect(a.tick).toBe(tick)
    const before = await balances(owner, [WETH, USDC])
    const [receipt] = (await broadcast(sw.chain, uni, rebuilt.body)) as [TransactionReceipt]
    const minted = parseEventLogs({
      abi: npmAbi,
      eventName: 'Transfer',
      logs: receipt.logs.filter((l) => getAddress(l.address) === NPM),
    })
    tokenId = minted[0]?.args.tokenId ?? 0n
    expect(tokenId).toBeGreaterThan(0n)
    expect(
      await sw.chain.readContract({ address: NPM, abi: npmAbi, functionName: 'ownerOf', args: [tokenId] }),
    ).toBe(owner)
    const p = await position(tokenId)
    expect([p[2], p[3], p[4], p[5], p[6]]).toEqual([WETH, getAddress(USDC), 500, -887270, 887270])
    // The chain minted exactly the liquidity the action announced, and pulled exactly its amounts.
    expect(p[7].toString()).toBe(a.liquidity)
    const after = await balances(owner, [WETH, USDC])
    expect((before[0] ?? 0n) - (after[0] ?? 0n)).toBe(BigInt(a.amount0))
    expect((before[1] ?? 0n) - (after[1] ?? 0n)).toBe(BigInt(a.amount1))
    // Independently: L = min(x · √P√B / (√B − √P), y / (√P − √A)) from slot0 and the amounts the mint is
    // given (the maxes).
    const sp = Number(sqrtP)
    const sa = sqrtAt(-887270)
    const sb = sqrtAt(887270)
    const l0 = (Number(a.amount0Max) * ((sp * sb) / 2 ** 96)) / (sb - sp)
    const l1 = (Number(a.amount1Max) * 2 ** 96) / (sp - sa)
    expect(relErr(p[7], Math.min(l0, l1))).toBeLessThan(1e-9)
  })

  test('behavior: after swaps through the pool, remove with liquidity 0 collects exactly the fees owed and leaves the liquidity', async () => {
    const owner = me(uni)
    await tradeThroughPool()
    const liquidity = (await position(tokenId))[7]
    const owed = await collectable(tokenId, owner)
    expect(owed[0]).toBeGreaterThan(0n)
    expect(owed[1]).toBeGreaterThan(0n)
    const res = await client.post<UniRemoveAction>('/v1/tx/lp/uni/remove', {
      tokenId: tokenId.toString(),
      liquidity: '0',
      owner,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectEnvelope(res.body, owner)
    expect(res.body.steps.map((s) => selectorOf(s.data))).toEqual([COLLECT])
    expect(res.body.action).toMatchObject({
      amount0: '0',
      amount1: '0',
      fees0: owed[0].toString(),
      fees1: owed[1].toString(),
      liquidityAfter: liquidity.toString(),
      burned: false,
    })
    const before = await balances(owner, [WETH, USDC])
    await broadcast(sw.chain, uni, res.body)
    const after = await balances(owner, [WETH, USDC])
    expect([(after[0] ?? 0n) - (before[0] ?? 0n), (after[1] ?? 0n) - (before[1] ?? 0n)]).toEqual(owed)
    const p = await position(tokenId)
    expect(p[7]).toBe(liquidity)
    expect([p[10], p[11]]).toEqual([0n, 0n])
  })

  test('behavior: collect pays the fees the chain owes and leaves the liquidity', async () => {
    const owner = me(uni)
    await tradeThroughPool()
    const liquidity = (await position(tokenId))[7]
    const owed = await collectable(tokenId, owner)
    const res = await client.post<UniCollectAction>('/v1/tx/lp/uni/collect', {
      tokenId: tokenId.toString(),
      owner,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectEnvelope(res.body, owner)
    expect(res.body.action).toMatchObject({
      type: 'uniCollect',
      token0: WETH,
      token1: getAddress(USDC),
      fees0: owed[0].toString(),
      fees1: owed[1].toString(),
    })
    // The simulation the engine ran reports the same balance changes.
    expect(res.body.simulation.balanceChanges.map((c) => c.delta)).toEqual(owed.map(String))
    const before = await balances(owner, [WETH, USDC])
    await broadcast(sw.chain, uni, res.body)
    const after = await balances(owner, [WETH, USDC])
    expect([(after[0] ?? 0n) - (before[0] ?? 0n), (after[1] ?? 0n) - (before[1] ?? 0n)]).toEqual(owed)
    expect((await position(tokenId))[7]).toBe(liquidity)
  })

  test('error: a refused remove (not the owner, unknown id, more than the position, burn without all of it, bad slippage) or collect is a named 422/400, charges nothing, moves nothing', async () => {
    const owner = me(uni)
    const stranger = me(trader)
    const liquidity = (await position(tokenId))[7]
    const id = tokenId.toString()
    const remove = (b: Record<string, unknown>) => client.post('/v1/tx/lp/uni/remove', b)
    await expectRefused(() => remove({ tokenId: id, liquidity: '1', owner: stranger }), {
      status: 422,
      code: 'not_position_owner',
      field: 'owner',
      untouched: [holdingsOf(stranger)],
    })
    await expectRefused(() => client.post('/v1/tx/lp/uni/collect', { tokenId: id, owner: stranger }), {
      status: 422,
      code: 'not_position_owner',
      field: 'owner',
      untouched: [holdingsOf(stranger)],
    })
    await expectRefused(() => remove({ tokenId: '999999', liquidity: '0', owner }), {
      status: 422,
      code: 'position_not_found',
      field: 'tokenId',
      untouched: [holdingsOf(owner)],
    })
    await expectRefused(() => remove({ tokenId: id, liquidity: (liquidity + 1n).toString(), owner }), {
      status: 422,
      code: 'exceeds_position_liquidity',
      field: 'liquidity',
      untouched: [holdingsOf(owner)],
    })
    await expectRefused(() => remove({ tokenId: id, liquidity: '1', owner, burn: true }), {
      status: 422,
      code: 'burn_needs_full_removal',
      field: 'burn',
      untouched: [holdingsOf(owner)],
    })
    await expectRefused(() => remove({ tokenId: id, liquidity: '1', owner, slippageBps: 5001 }), {
      status: 400,
      code: 'invalid_input',
      field: 'slippageBps',
      untouched: [holdingsOf(owner)],
    })
    expect((await position(tokenId))[7]).toBe(liquidity)
  })

  test('behavior: a full remove with burn returns the liquidity at the quoted amounts plus the fees and burns the NFT', async () => {
    const owner = me(uni)
    await tradeThroughPool()
    const [, , , , , , , liquidity] = await position(tokenId)
    const poolLiquidity = await sw.chain.readContract({
      address: POOL_500,
      abi: poolAbi,
      functionName: 'liquidity',
    })
    const res = await client.post<UniRemoveAction>('/v1/tx/lp/uni/remove', {
      tokenId: tokenId.toString(),
      liquidity: liquidity.toString(),
      owner,
      slippageBps: 50,
      burn: true,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectEnvelope(res.body, owner)
    expect(res.body.steps.map((s) => selectorOf(s.data))).toEqual([NPM_MULTICALL])
    const a = res.body.action
    expect(a).toMatchObject({ liquidityAfter: '0', burned: true })
    expect(a.amount0Min).toBe(floorSlippage(BigInt(a.amount0), 50).toString())
    // The chain's own answer to the step's calldata: [decreaseLiquidity, collect, burn] results.
    const call = res.body.walletSendCalls.calls[0]
    const { data } = await sw.chain.call({ account: owner, to: NPM, data: call?.data as Hex })
    const [results] = [decodeFunctionResult({ abi: npmAbi, functionName: 'multicall', data: data as Hex })]
    const decreased = decodeFunctionResult({
      abi: npmAbi,
      functionName: 'decreaseLiquidity',
      data: results[0] as Hex,
    })
    const collected = decodeFunctionResult({ abi: npmAbi, functionName: 'collect', data: results[1] as Hex })
    expect([a.amount0, a.amount1]).toEqual(decreased.map(String))
    expect([BigInt(a.amount0) + BigInt(a.fees0), BigInt(a.amount1) + BigInt(a.fees1)]).toEqual(collected)
    // And independently of the contracts: x = L(√B − √P)/(√P√B), y = L(√P − √A) at slot0.
    const sp = Number((await slot0())[0]) / 2 ** 96
    const sa = sqrtAt(-887270) / 2 ** 96
    const sb = sqrtAt(887270) / 2 ** 96
    expect(relErr(BigInt(a.amount0), (Number(liquidity) * (sb - sp)) / (sp * sb))).toBeLessThan(1e-9)
    expect(relErr(BigInt(a.amount1), Number(liquidity) * (sp - sa))).toBeLessThan(1e-9)

    const before = await balances(owner, [WETH, USDC])
    await broadcast(sw.chain, uni, res.body)
    const after = await balances(owner, [WETH, USDC])
    expect([(after[0] ?? 0n) - (before[0] ?? 0n), (after[1] ?? 0n) - (before[1] ?? 0n)]).toEqual(collected)
    await expect(position(tokenId)).rejects.toThrow()
    await expect(
      sw.chain.readContract({ address: NPM, abi: npmAbi, functionName: 'ownerOf', args: [tokenId] }),
    ).rejects.toThrow()
    expect(await sw.chain.readContract({ address: POOL_500, abi: poolAbi, functionName: 'liquidity' })).toBe(
      poolLiquidity - liquidity,
    )
  })

  test('default: a given range must sit on the spacing (400 naming the tick); an aligned one is minted as given', async () => {
    const owner = me(uni)
    const [, tick] = await slot0()
    const base = Math.floor(tick / 10) * 10
    const body = {
      tokenA: WETH,
      tokenB: USDC,
      fee: 500,
      amountA: '100000000000000000',
      amountB: '350000000',
      owner,
    }
    await expectRefused(
      () => client.post('/v1/tx/lp/uni/add', { ...body, tickLower: base - 1005, tickUpper: base + 1000 }),
      { status: 400, code: 'invalid_input', field: 'tickLower', untouched: [holdingsOf(owner)] },
    )
    const res = await client.post<UniAddAction>('/v1/tx/lp/uni/add', {
      ...body,
      tickLower: base - 1000,
      tickUpper: base + 1000,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.action).toMatchObject({
      tickLower: base - 1000,
      tickUpper: base + 1000,
      fullRange: false,
    })
    const [receipt] = (await broadcast(sw.chain, uni, res.body)).slice(-1) as [TransactionReceipt]
    const [minted] = parseEventLogs({
      abi: npmAbi,
      eventName: 'Transfer',
      logs: receipt.logs.filter((l) => getAddress(l.address) === NPM),
    })
    const p = await position(minted?.args.tokenId ?? 0n)
    expect([p[5], p[6], p[7].toString()]).toEqual([base - 1000, base + 1000, res.body.action.liquidity])
  })

  test('error: no pool at the fee tier, zero amounts, slippage out of range, native ETH: named 422/400, nothing charged or moved', async () => {
    const owner = me(uni)
    const body = {
      tokenA: WETH,
      tokenB: USDC,
      fee: 3000,
      amountA: '100000000000000000',
      amountB: '350000000',
      owner,
    }
    await expectRefused(() => client.post('/v1/tx/lp/uni/add', body), {
      status: 422,
      code: 'pool_not_found',
      field: 'fee',
      untouched: [holdingsOf(owner)],
    })
    await expectRefused(
      () => client.post('/v1/tx/lp/uni/add', { ...body, fee: 500, amountA: '0', amountB: '0' }),
      { status: 400, code: 'invalid_input', field: 'amountA', untouched: [holdingsOf(owner)] },
    )
    await expectRefused(() => client.post('/v1/tx/lp/uni/add', { ...body, fee: 500, slippageBps: 5001 }), {
      status: 400,
      code: 'invalid_input',
      field: 'slippageBps',
      untouched: [holdingsOf(owner)],
    })
    await expectRefused(
      () => client.post('/v1/tx/lp/uni/add', { ...body, fee: 500, tokenA: NATIVE_SENTINEL }),
      { status: 400, code: 'invalid_input', field: 'tokenA', untouched: [holdingsOf(owner)] },
    )
  })
})

describe('Aerodrome volatile pools', () => {
  test('behavior: aero add then remove round-trips within the pool’s rounding: exact approves, LP minted as quoted, LP approve to the pool on remove, LP balance back', async () => {
    const owner = me(aero)
    const pool = await sw.chain.readContract({
      address: FACTORY,
      abi: aeroAbi,
      functionName: 'getPool',
      args: [WETH, USDC, false],
    })
    const lpBefore = await balanceOf(pool, owner)
    // 1 WETH and twice its worth of USDC at the world's ETH price (any date's): the pool's ratio cuts the USDC.
    const askB = BigInt(Math.round(2 * sw.world.sim.spot('ETH') * 1e6))
    const body = {
      tokenA: WETH,
      tokenB: USDC,
      amountA: '1000000000000000000',
      amountB: askB.toString(),
      owner,
      slippageBps: 100,
    }
    const [quoteA, quoteB, quoteLp] = await sw.chain.readContract({
      address: ROUTER,
      abi: aeroAbi,
      functionName: 'quoteAddLiquidity',
      args: [WETH, USDC, false, FACTORY, 10n ** 18n, askB],
    })
    const add = await client.post<AeroAddAction>('/v1/tx/lp/aero/add', body)
    expect(add.status, JSON.stringify(add.body)).toBe(200)
    expectEnvelope(add.body, owner)
    expect(add.body.steps.map((s) => [getAddress(s.to), selectorOf(s.data)])).toEqual([
      [WETH, APPROVE],
      [getAddress(USDC), APPROVE],
      [ROUTER, '0x5a47ddc3'],
    ])
    // Each side's max is its quote grossed up by 100 bps (rounded up), at most the ask: the side the pool's
    // ratio cuts is capped below it, the other keeps its ask. Those maxes are approved and passed as desired.
    const maxA = grossed(quoteA, 10n ** 18n, 100)
    const maxB = grossed(quoteB, askB, 100)
    expect(maxB < askB).toBe(true)
    for (const [step, amount] of [
      [add.body.steps[0], maxA],
      [add.body.steps[1], maxB],
    ] as const) {
      const { args } = decodeFunctionData({ abi: erc20Abi, data: step?.data.slice(0, 138) as Hex })
      expect(args).toEqual([ROUTER, amount])
    }
    expect(add.body.action).toEqual({
      type: 'aeroAdd',
      pool,
      nativeSide: null,
      amountA: quoteA.toString(),
      amountB: quoteB.toString(),
      amountAMin: floorSlippage(quoteA, 100).toString(),
      amountBMin: floorSlippage(quoteB, 100).toString(),
      amountAMax: maxA.toString(),
      amountBMax: maxB.toString(),
      expectedLiquidity: quoteLp.toString(),
    })
    const addCall = decodeFunctionData({
      abi: aeroAbi,
      data: add.body.steps[2]?.data.slice(0, 10 + 64 * 9) as Hex,
    })
    expect(addCall.args?.slice(3, 5)).toEqual([maxA, maxB])
    // Twice the USDC the pool's ratio takes for 1 WETH: the USDC side is cut to the ratio, the WETH kept.
    expect(quoteB < askB).toBe(true)
    expect(quoteA).toBe(10n ** 18n)
    await broadcast(sw.chain, aero, { ...add.body, steps: add.body.steps.slice(0, 2) })
    const rebuilt = await client.post<AeroAddAction>('/v1/tx/lp/aero/add', body)
    expect(rebuilt.body.steps.map((s) => selectorOf(s.data))).toEqual(['0x5a47ddc3'])
    const before = await balances(owner, [WETH, USDC])
    await broadcast(sw.chain, aero, rebuilt.body)
    const mid = await balances(owner, [WETH, USDC])
    const lp = (await balanceOf(pool, owner)) - lpBefore
    expect(lp.toString()).toBe(rebuilt.body.action.expectedLiquidity)
    const paid = [(before[0] ?? 0n) - (mid[0] ?? 0n), (before[1] ?? 0n) - (mid[1] ?? 0n)]
    expect(paid).toEqual([BigInt(rebuilt.body.action.amountA), BigInt(rebuilt.body.action.amountB)])

    const [outA, outB] = await sw.chain.readContract({
      address: ROUTER,
      abi: aeroAbi,
      functionName: 'quoteRemoveLiquidity',
      args: [WETH, USDC, false, FACTORY, lp],
    })
    const remove = await client.post<AeroRemoveAction>('/v1/tx/lp/aero/remove', {
      tokenA: WETH,
      tokenB: USDC,
      liquidity: lp.toString(),
      owner,
      slippageBps: 100,
    })
    expect(remove.status, JSON.stringify(remove.body)).toBe(200)
    expectEnvelope(remove.body, owner, undefined, [pool])
    expect(remove.body.steps.map((s) => [getAddress(s.to), selectorOf(s.data)])).toEqual([
      [pool, APPROVE],
      [ROUTER, '0x0dede6c4'],
    ])
    const { args } = decodeFunctionData({
      abi: erc20Abi,
      data: remove.body.steps[0]?.data.slice(0, 138) as Hex,
    })
    expect(args).toEqual([ROUTER, lp])
    expect(remove.body.action).toEqual({
      type: 'aeroRemove',
      pool,
      nativeSide: null,
      amountA: outA.toString(),
      amountB: outB.toString(),
      amountAMin: floorSlippage(outA, 100).toString(),
      amountBMin: floorSlippage(outB, 100).toString(),
    })
    await broadcast(sw.chain, aero, remove.body)
    const after = await balances(owner, [WETH, USDC])
    expect(await balanceOf(pool, owner)).toBe(lpBefore)
    const back = [(after[0] ?? 0n) - (mid[0] ?? 0n), (after[1] ?? 0n) - (mid[1] ?? 0n)]
    expect(back).toEqual([outA, outB])
    // Round trip: what came back is what went in, less at most the pool's floor rounding (no swap between).
    for (const [i, p] of paid.entries()) {
      const b = back[i] ?? 0n
      expect(b).toBeLessThanOrEqual(p)
      expect(p - b).toBeLessThanOrEqual(p / 10n ** 9n + 1n)
    }
  })

  test('behavior: native ETH on one side goes through addLiquidityETH / removeLiquidityETH: ETH sent as value, the unused part refunded, LP minted as quoted, ETH paid back on remove', async () => {
    const owner = me(aero)
    const pool = await sw.chain.readContract({
      address: FACTORY,
      abi: aeroAbi,
      functionName: 'getPool',
      args: [WETH, USDC, false],
    })
    const lpBefore = await balanceOf(pool, owner)
    const ethDesired = 10n ** 18n
    const [quoteEth, quoteUsdc, quoteLp] = await sw.chain.readContract({
      address: ROUTER,
      abi: aeroAbi,
      functionName: 'quoteAddLiquidity',
      args: [WETH, USDC, false, FACTORY, ethDesired, 2_000_000_000n],
    })
    // 2000 USDC against 1 ETH: the pool's ratio cuts the ETH side, so the router must refund ETH.
    expect(quoteEth).toBeLessThan(ethDesired)
    const add = await client.post<AeroAddAction>('/v1/tx/lp/aero/add', {
      tokenA: NATIVE_SENTINEL,
      tokenB: USDC,
      amountA: ethDesired.toString(),
      amountB: '2000000000',
      owner,
      slippageBps: 100,
    })
    expect(add.status, JSON.stringify(add.body)).toBe(200)
    expectEnvelope(add.body, owner)
    const last = add.body.steps.at(-1)
    expect(add.body.steps.slice(0, -1).map((s) => [getAddress(s.to), selectorOf(s.data)])).toEqual(
      add.body.steps.length === 2 ? [[getAddress(USDC), APPROVE]] : [],
    )
    // The ETH sent is the quote grossed up by the slippage, not the whole ask; USDC binds, so keeps its ask.
    const ethMax = grossed(quoteEth, ethDesired, 100)
    expect(ethMax).toBeLessThan(ethDesired)
    expect([getAddress(last?.to ?? '0x'), selectorOf(last?.data ?? '0x'), last?.value]).toEqual([
      ROUTER,
      toFunctionSelector(aeroEthAbi[0]),
      ethMax.toString(),
    ])
    const { args } = decodeFunctionData({ abi: aeroEthAbi, data: last?.data as Hex })
    expect(args).toEqual([
      getAddress(USDC),
      false,
      grossed(quoteUsdc, 2_000_000_000n, 100),
      floorSlippage(quoteUsdc, 100),
      floorSlippage(quoteEth, 100),
      owner,
      BigInt(add.body.expiresAt),
    ])
    expect(add.body.action).toMatchObject({
      nativeSide: 'tokenA',
      pool,
      amountA: quoteEth.toString(),
      amountB: quoteUsdc.toString(),
      expectedLiquidity: quoteLp.toString(),
    })
    const ethBefore = await sw.chain.getBalance({ address: owner })
    const usdcBefore = await balanceOf(USDC, owner)
    const addReceipts = await broadcast(sw.chain, aero, add.body)
    const lp = (await balanceOf(pool, owner)) - lpBefore
    expect(lp).toBe(quoteLp)
    expect(usdcBefore - (await balanceOf(USDC, owner))).toBe(quoteUsdc)
    // Only what the pool took left the wallet (besides gas): the router refunded the rest of the value.
    expect(ethBefore - (await sw.chain.getBalance({ address: owner })) - gasPaid(addReceipts)).toBe(quoteEth)

    const [outEth, outUsdc] = await sw.chain.readContract({
      address: ROUTER,
      abi: aeroAbi,
      functionName: 'quoteRemoveLiquidity',
      args: [WETH, USDC, false, FACTORY, lp],
    })
    const remove = await client.post<AeroRemoveAction>('/v1/tx/lp/aero/remove', {
      tokenA: NATIVE_SENTINEL,
      tokenB: USDC,
      liquidity: lp.toString(),
      owner,
      slippageBps: 100,
    })
    expect(remove.status, JSON.stringify(remove.body)).toBe(200)
    expectEnvelope(remove.body, owner, undefined, [pool])
    expect(remove.body.steps.map((s) => [getAddress(s.to), selectorOf(s.data)])).toEqual([
      [pool, APPROVE],
      [ROUTER, toFunctionSelector(aeroEthAbi[1])],
    ])
    expect(remove.body.action).toMatchObject({
      nativeSide: 'tokenA',
      amountA: outEth.toString(),
      amountB: outUsdc.toString(),
    })
    const eth0 = await sw.chain.getBalance({ address: owner })
    const usdc0 = await balanceOf(USDC, owner)
    const removeReceipts = await broadcast(sw.chain, aero, remove.body)
    expect(await balanceOf(pool, owner)).toBe(lpBefore)
    expect((await balanceOf(USDC, owner)) - usdc0).toBe(outUsdc)
    expect((await sw.chain.getBalance({ address: owner })) - eth0 + gasPaid(removeReceipts)).toBe(outEth)
  })

  test('error: no pool for the pair, zero or unlisted amounts and tokens, LP the owner lacks, ETH against WETH: named 422/400, nothing charged or moved', async () => {
    const owner = me(aero)
    const body = { tokenA: WETH, tokenB: cbBTC, amountA: '100000000000000000', amountB: '100000', owner }
    await expectRefused(() => client.post('/v1/tx/lp/aero/add', body), {
      status: 422,
      code: 'pool_not_found',
      field: 'tokenB',
      untouched: [holdingsOf(owner)],
    })
    await expectRefused(() => client.post('/v1/tx/lp/aero/add', { ...body, tokenB: USDC, amountA: '0' }), {
      status: 400,
      code: 'invalid_input',
      field: 'amountA',
      untouched: [holdingsOf(owner)],
    })
    await expectRefused(
      () => client.post('/v1/tx/lp/aero/add', { ...body, tokenB: USDC, slippageBps: 9000 }),
      { status: 400, code: 'invalid_input', field: 'slippageBps', untouched: [holdingsOf(owner)] },
    )
    // Native ETH against WETH is one token twice (the ETH side trades as WETH in the pool).
    await expectRefused(
      () => client.post('/v1/tx/lp/aero/add', { ...body, tokenA: NATIVE_SENTINEL, tokenB: WETH }),
      { status: 400, code: 'invalid_input', field: 'tokenB', untouched: [holdingsOf(owner)] },
    )
    await expectRefused(
      () => client.post('/v1/tx/lp/aero/remove', { tokenA: WETH, tokenB: USDC, liquidity: '1000', owner }),
      { status: 422, code: 'insufficient_balance', field: 'liquidity', untouched: [holdingsOf(owner)] },
    )
  })

  test('attack: a token outside the address book is refused before any read, so a permissionless pool of it never becomes a target', async () => {
    const owner = me(aero)
    const junk = '0x1111111111111111111111111111111111111111'
    await expectRefused(
      () => client.post('/v1/tx/lp/aero/remove', { tokenA: junk, tokenB: USDC, liquidity: '1000', owner }),
      { status: 422, code: 'unlisted_target', field: 'tokenA', untouched: [holdingsOf(owner)] },
    )
    await expectRefused(
      () =>
        client.post('/v1/tx/lp/uni/add', {
          tokenA: WETH,
          tokenB: junk,
          fee: 500,
          amountA: '1',
          amountB: '1',
          owner,
        }),
      { status: 422, code: 'unlisted_target', field: 'tokenB', untouched: [holdingsOf(owner)] },
    )
  })
})
