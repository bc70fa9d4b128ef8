import {
  type Address,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  parseAbi,
  parseEther,
  parseUnits,
  type TransactionReceipt,
  zeroAddress,
} from 'viem'
import { describe, expect, test } from 'vitest'
import type { AeroAddAction } from '../../src/builders/lp/lpAeroAdd.js'
import type { AeroRemoveAction } from '../../src/builders/lp/lpAeroRemove.js'
import type { UniAddAction } from '../../src/builders/lp/lpUniAdd.js'
import type { UniRemoveAction } from '../../src/builders/lp/lpUniRemove.js'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../src/chain/addresses.js'
import {
  bareStep,
  broadcast,
  builderClient,
  expectEnvelope,
  ownerWallet,
  rawPost,
  selectorOf,
} from '../helpers/builderCalls.js'
import { expectMined } from '../helpers/expectMined.js'
import { expectEachRefused } from '../helpers/expectRefused.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The liquidity builders (Uniswap v3 and Aerodrome) attacked as a hostile or careless caller would. The
// money rules under test: the ETH sent as value is what the owner must hold; deadlines are `expiresAt` and
// mins are floored on their own side; a pool of a listed non-token never gets built for; another wallet's
// NFT is refused; nothing is charged unless the answer is 200.
const { USDC, WETH } = BASE_ADDRESSES
const DIAMOND = BASE_ADDRESSES.GtradeDiamond
const NPM = BASE_ADDRESSES.NonfungiblePositionManager
const ROUTER = BASE_ADDRESSES.AerodromeRouter
const FACTORY = BASE_ADDRESSES.AerodromePoolFactory
/** The largest human price a uint64 ×1e10 field holds is 1844674407.3709551615. */

const npmAbi = parseAbi([
  'function ownerOf(uint256) view returns (address)',
  'function positions(uint256) view returns (uint96, address, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256, uint256, uint128, uint128)',
  'struct M { address token0; address token1; uint24 fee; int24 tickLower; int24 tickUpper; uint256 amount0Desired; uint256 amount1Desired; uint256 amount0Min; uint256 amount1Min; address recipient; uint256 deadline; }',
  'function mint(M params) returns (uint256 tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
  'struct D { uint256 tokenId; uint128 liquidity; uint256 amount0Min; uint256 amount1Min; uint256 deadline; }',
  'function decreaseLiquidity(D params) returns (uint256 amount0, uint256 amount1)',
  'function multicall(bytes[] data) returns (bytes[] results)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
])
const aeroAbi = parseAbi([
  'function getPool(address, address, bool) view returns (address)',
  'function createPool(address tokenA, address tokenB, bool stable) returns (address pool)',
  'function addLiquidityETH(address token, bool stable, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256, uint256, uint256)',
  'function removeLiquidityETH(address token, bool stable, uint256 liquidity, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) returns (uint256, uint256)',
])

const sw = useWorld()
const svc = useInstance(sw)
const client = builderClient(sw, svc)

const usdcOf = (who: Address) => sw.usdcBalance(who)
const balanceOf = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
const floorSlippage = (amount: bigint, bps: number) => (amount * BigInt(10_000 - bps)) / 10_000n
const gasPaid = (receipts: readonly TransactionReceipt[]) =>
  receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n)

describe('attacks on the liquidity builders', () => {
  test('attack: malformed liquidity bodies (ticks off the int24 range or fractional, fee as text, uint256+1, negative zero ticks) are 400 naming the field, free', async () => {
    const me = ownerWallet(sw, 2).account.address
    const uni = (patch: Record<string, unknown>) => ({
      tokenA: WETH,
      tokenB: USDC,
      fee: 500,
      amountA: '1000000000000000',
      amountB: '3000000',
      owner: me,
      ...patch,
    })
    const cases: { name: string; path: string; body: unknown; field: string }[] = [
      {
        name: 'tick fraction',
        path: 'uni/add',
        body: uni({ tickLower: -60.5, tickUpper: 60 }),
        field: 'tickLower',
      },
      {
        name: 'tick beyond int24',
        path: 'uni/add',
        body: uni({ tickLower: -(2 ** 23), tickUpper: 60 }),
        field: 'tickLower',
      },
      {
        name: 'tick 1e21',
        path: 'uni/add',
        body: uni({ tickLower: -60, tickUpper: 1e21 }),
        field: 'tickUpper',
      },
      { name: 'only one tick', path: 'uni/add', body: uni({ tickLower: -60 }), field: 'tickLower' },
      {
        name: 'ticks reversed',
        path: 'uni/add',
        body: uni({ tickLower: 60, tickUpper: -60 }),
        field: 'tickLower',
      },
      { name: 'fee as text', path: 'uni/add', body: uni({ fee: '500' }), field: 'fee' },
      { name: 'fee 0', path: 'uni/add', body: uni({ fee: 0 }), field: 'fee' },
      {
        name: 'amount uint256+1',
        path: 'uni/add',
        body: uni({ amountA: (2n ** 256n).toString() }),
        field: 'amountA',
      },
      { name: 'amount exponent', path: 'uni/add', body: uni({ amountA: '1e18' }), field: 'amountA' },
      { name: 'full range, one side 0', path: 'uni/add', body: uni({ amountB: '0' }), field: 'amountB' },
      { name: 'ETH on uni', path: 'uni/add', body: uni({ tokenA: NATIVE_SENTINEL }), field: 'tokenA' },
      {
        name: 'remove liquidity uint256+1',
        path: 'uni/remove',
        body: { tokenId: '1', liquidity: (2n ** 256n).toString(), owner: me },
        field: 'liquidity',
      },
      { name: 'tokenId 0', path: 'uni/collect', body: { tokenId: '0', owner: me }, field: 'tokenId' },
      { name: 'tokenId as number', path: 'uni/collect', body: { tokenId: 1, owner: me }, field: 'tokenId' },
      {
        name: 'burn as text',
        path: 'uni/remove',
        body: { tokenId: '1', liquidity: '0', owner: me, burn: 'true' },
        field: 'burn',
      },
      {
        name: 'aero ETH both sides',
        path: 'aero/add',
        body: { tokenA: NATIVE_SENTINEL, tokenB: NATIVE_SENTINEL, amountA: '1', amountB: '1', owner: me },
        field: 'tokenB',
      },
      {
        name: 'aero ETH against WETH',
        path: 'aero/remove',
        body: { tokenA: NATIVE_SENTINEL, tokenB: WETH, liquidity: '1', owner: me },
        field: 'tokenB',
      },
      {
        name: 'aero slippage 5001',
        path: 'aero/add',
        body: { tokenA: WETH, tokenB: USDC, amountA: '1', amountB: '1', owner: me, slippageBps: 5001 },
        field: 'slippageBps',
      },
      {
        name: 'aero pool given by the caller',
        path: 'aero/remove',
        body: { tokenA: WETH, tokenB: USDC, liquidity: '1', owner: me, pool: ROUTER },
        field: 'pool',
      },
    ]
    const answers = await Promise.all(cases.map((c) => client.post(`/v1/tx/lp/${c.path}`, c.body)))
    await expectEachRefused(
      answers,
      cases.map((c) => ({ name: c.name, status: 400, field: c.field })),
    )
    // -0 is a tick of 0: accepted as the tick 0 (not a 500), and encoded as 0.
    const negZero = await rawPost(
      sw,
      svc,
      '/v1/tx/lp/uni/add',
      JSON.stringify(uni({ tickUpper: 600 })).replace('}', ',"tickLower":-0}'),
    )
    expect([200, 422], JSON.stringify(negZero.body)).toContain(negZero.status)
    if (negZero.status === 200)
      expect((negZero.body as { action: UniAddAction }).action).toMatchObject({
        tickLower: 0,
        tickUpper: 600,
      })
    else expect(negZero.charged).toBe(0n)
  })

  test('attack: uni add with tokenA above tokenB sorts amounts, mins and approves to their own token; deadline = expiresAt (verified by broadcasting)', async () => {
    const wallet = ownerWallet(sw, 5)
    const me = wallet.account.address
    // USDC (0x8335…) sorts above WETH (0x4200…): tokenA is the pool's token1.
    const res = await client.post<UniAddAction>('/v1/tx/lp/uni/add', {
      tokenA: USDC,
      tokenB: WETH,
      fee: 500,
      amountA: '30000000',
      amountB: '100000000000000000',
      owner: me,
      slippageBps: 37,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectEnvelope(res.body, me)
    const a = res.body.action
    expect([a.token0, a.token1]).toEqual([WETH, getAddress(USDC)])
    const mint = res.body.steps.at(-1)
    expect(getAddress(mint?.to as Address)).toBe(NPM)
    expect(mint?.value).toBe('0')
    const { args } = decodeFunctionData({ abi: npmAbi, data: bareStep(res.body, -1) })
    const m = (args as readonly [Record<string, unknown>])[0]
    expect(m).toMatchObject({
      token0: WETH,
      token1: getAddress(USDC),
      amount0Desired: BigInt(a.amount0Max),
      amount1Desired: BigInt(a.amount1Max),
      amount0Min: floorSlippage(BigInt(a.amount0), 37),
      amount1Min: floorSlippage(BigInt(a.amount1), 37),
      recipient: me,
      deadline: BigInt(res.body.expiresAt),
    })
    // Each approve goes to the NPM for its own token's max (never above the ask), never more.
    expect(BigInt(a.amount0Max)).toBeLessThanOrEqual(100_000_000_000_000_000n)
    expect(BigInt(a.amount1Max)).toBeLessThanOrEqual(30_000_000n)
    for (const s of res.body.steps.slice(0, -1)) {
      const d = decodeFunctionData({ abi: erc20Abi, data: s.data.slice(0, 138) as Hex })
      const want = getAddress(s.to) === WETH ? BigInt(a.amount0Max) : BigInt(a.amount1Max)
      expect(d.args).toEqual([NPM, want])
    }
    const before = await Promise.all([balanceOf(WETH, me), balanceOf(USDC, me)])
    await broadcast(sw.chain, wallet, res.body)
    const after = await Promise.all([balanceOf(WETH, me), balanceOf(USDC, me)])
    expect([(before[0] ?? 0n) - (after[0] ?? 0n), (before[1] ?? 0n) - (after[1] ?? 0n)]).toEqual([
      BigInt(a.amount0),
      BigInt(a.amount1),
    ])
  })

  test('attack: another wallet’s position NFT is refused for remove, collect and burn; an unknown id is position_not_found; free, nothing moves', async () => {
    const holderWallet = ownerWallet(sw, 5)
    const holder = holderWallet.account.address
    // A position of #5's own, minted here so the test does not depend on the seed.
    const res = await client.post<UniAddAction>('/v1/tx/lp/uni/add', {
      tokenA: WETH,
      tokenB: USDC,
      fee: 500,
      amountA: '10000000000000000',
      amountB: '30000000',
      owner: holder,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const receipts = await broadcast(sw.chain, holderWallet, res.body)
    const mintLog = receipts.at(-1)?.logs.find((l) => getAddress(l.address) === NPM && l.topics.length === 4)
    const tokenId = BigInt(mintLog?.topics[3] as Hex)
    expect(
      await sw.chain.readContract({ address: NPM, abi: npmAbi, functionName: 'ownerOf', args: [tokenId] }),
    ).toBe(holder)
    const liquidity = (
      await sw.chain.readContract({ address: NPM, abi: npmAbi, functionName: 'positions', args: [tokenId] })
    )[7]
    const thief = ownerWallet(sw, 2).account.address
    const id = tokenId.toString()
    const cases: {
      name: string
      path: string
      body: unknown
      status: number
      field: string
      code: string
    }[] = [
      {
        name: 'remove all of another’s position',
        path: 'uni/remove',
        body: { tokenId: id, liquidity: liquidity.toString(), owner: thief },
        status: 422,
        field: 'owner',
        code: 'not_position_owner',
      },
      {
        name: 'burn another’s position',
        path: 'uni/remove',
        body: { tokenId: id, liquidity: liquidity.toString(), owner: thief, burn: true },
        status: 422,
        field: 'owner',
        code: 'not_position_owner',
      },
      {
        name: 'collect another’s fees',
        path: 'uni/collect',
        body: { tokenId: id, owner: thief },
        status: 422,
        field: 'owner',
        code: 'not_position_owner',
      },
      {
        name: 'remove 0 (fees) of another’s position',
        path: 'uni/remove',
        body: { tokenId: id, liquidity: '0', owner: thief },
        status: 422,
        field: 'owner',
        code: 'not_position_owner',
      },
      {
        name: 'the holder burns with one unit left',
        path: 'uni/remove',
        body: { tokenId: id, liquidity: (liquidity - 1n).toString(), owner: holder, burn: true },
        status: 422,
        field: 'burn',
        code: 'burn_needs_full_removal',
      },
      {
        name: 'the holder burns with liquidity 0 left in',
        path: 'uni/remove',
        body: { tokenId: id, liquidity: '0', owner: holder, burn: true },
        status: 422,
        field: 'burn',
        code: 'burn_needs_full_removal',
      },
      {
        name: 'unknown id',
        path: 'uni/collect',
        body: { tokenId: (tokenId + 1000n).toString(), owner: holder },
        status: 422,
        field: 'tokenId',
        code: 'position_not_found',
      },
      {
        name: 'id 2^256-1',
        path: 'uni/remove',
        body: { tokenId: (2n ** 256n - 1n).toString(), liquidity: '1', owner: holder },
        status: 422,
        field: 'tokenId',
        code: 'position_not_found',
      },
    ]
    const answers = await Promise.all(cases.map((c) => client.post(`/v1/tx/lp/${c.path}`, c.body)))
    await expectEachRefused(answers, cases)
    expect(
      (
        await sw.chain.readContract({ address: NPM, abi: npmAbi, functionName: 'positions', args: [tokenId] })
      )[7],
    ).toBe(liquidity)

    // The holder's own remove: deadline = expiresAt, mins floored from the quoted amounts, paid to the holder.
    const rm = await client.post<UniRemoveAction>('/v1/tx/lp/uni/remove', {
      tokenId: id,
      liquidity: liquidity.toString(),
      owner: holder,
      slippageBps: 13,
      burn: true,
    })
    expect(rm.status, JSON.stringify(rm.body)).toBe(200)
    const calls = decodeFunctionData({ abi: npmAbi, data: bareStep(rm.body, 0) }).args[0] as Hex[]
    const dec = decodeFunctionData({ abi: npmAbi, data: calls[0] as Hex })
    expect(dec.args[0]).toEqual({
      tokenId,
      liquidity,
      amount0Min: floorSlippage(BigInt(rm.body.action.amount0), 13),
      amount1Min: floorSlippage(BigInt(rm.body.action.amount1), 13),
      deadline: BigInt(rm.body.expiresAt),
    })
    await broadcast(sw.chain, holderWallet, rm.body)
    await expect(
      sw.chain.readContract({ address: NPM, abi: npmAbi, functionName: 'ownerOf', args: [tokenId] }),
    ).rejects.toThrow()
  })

  test('attack: native ETH sent as value must be held in full: ETH above the quote but below the value sent is 422 insufficient_balance, free', async () => {
    // 0.02 ETH: more than the ~0.0033 ETH that 10 USDC pairs with, less than the 1 ETH the step would send
    // (with slippageBps 0 the ask itself is the max sent as value).
    const fresh = await sw.freshWallet(parseUnits('50', 6), parseEther('0.02'))
    const me = fresh.account.address
    const answers = await Promise.all([
      client.post('/v1/tx/lp/aero/add', {
        tokenA: USDC,
        tokenB: NATIVE_SENTINEL,
        amountA: '10000000',
        amountB: parseEther('1').toString(),
        owner: me,
        slippageBps: 0,
      }),
      client.post('/v1/tx/lp/aero/add', {
        tokenA: NATIVE_SENTINEL,
        tokenB: USDC,
        amountA: parseEther('1').toString(),
        amountB: '10000000',
        owner: me,
        slippageBps: 0,
      }),
    ])
    await expectEachRefused(answers, [
      { name: 'ETH as tokenB', status: 422, field: 'amountB', code: 'insufficient_balance' },
      { name: 'ETH as tokenA', status: 422, field: 'amountA', code: 'insufficient_balance' },
    ])
    expect(answers[0]?.body.error?.details).toMatchObject({
      issues: { balance: { token: NATIVE_SENTINEL, expected: parseEther('1').toString() } },
    })
  })

  test('attack: aero add/remove with ETH as tokenB encode token/ETH mins on their own side, deadline = expiresAt, refund the unused ETH (verified by broadcasting)', async () => {
    const wallet = ownerWallet(sw, 5)
    const me = wallet.account.address
    const pool = await sw.chain.readContract({
      address: FACTORY,
      abi: aeroAbi,
      functionName: 'getPool',
      args: [WETH, USDC, false],
    })
    const ethDesired = parseEther('1')
    const add = await client.post<AeroAddAction>('/v1/tx/lp/aero/add', {
      tokenA: USDC,
      tokenB: NATIVE_SENTINEL,
      amountA: '20000000',
      amountB: ethDesired.toString(),
      owner: me,
      slippageBps: 29,
    })
    expect(add.status, JSON.stringify(add.body)).toBe(200)
    expectEnvelope(add.body, me)
    const a = add.body.action
    expect(a).toMatchObject({ pool, nativeSide: 'tokenB' })
    // USDC binds: the ETH side is cut to the pool's ratio, far under the 1 ETH sent.
    expect(BigInt(a.amountB)).toBeLessThan(ethDesired / 10n)
    const step = add.body.steps.at(-1)
    // The value sent is the ETH max: the quote grossed up by 29 bps (rounded up), far under the 1 ETH asked.
    expect(a.amountBMax).toBe(((BigInt(a.amountB) * 10_000n + 9_970n) / 9_971n).toString())
    expect(step?.value).toBe(a.amountBMax)
    expect(
      add.body.steps.slice(0, -1).every((s) => s.value === '0' && getAddress(s.to) === getAddress(USDC)),
    ).toBe(true)
    const { functionName, args } = decodeFunctionData({ abi: aeroAbi, data: bareStep(add.body, -1) })
    expect(functionName).toBe('addLiquidityETH')
    expect(args).toEqual([
      getAddress(USDC),
      false,
      20_000_000n,
      floorSlippage(BigInt(a.amountA), 29),
      floorSlippage(BigInt(a.amountB), 29),
      me,
      BigInt(add.body.expiresAt),
    ])
    const ethBefore = await sw.chain.getBalance({ address: me })
    const lpBefore = await balanceOf(pool, me)
    const receipts = await broadcast(sw.chain, wallet, add.body)
    const ethSpent = ethBefore - (await sw.chain.getBalance({ address: me })) - gasPaid(receipts)
    // Only what the pool took left the wallet: the rest of the value came back in the same transaction.
    expect(ethSpent).toBe(BigInt(a.amountB))
    const lp = (await balanceOf(pool, me)) - lpBefore
    expect(lp.toString()).toBe(a.expectedLiquidity)

    const rm = await client.post<AeroRemoveAction>('/v1/tx/lp/aero/remove', {
      tokenA: USDC,
      tokenB: NATIVE_SENTINEL,
      liquidity: lp.toString(),
      owner: me,
      slippageBps: 41,
    })
    expect(rm.status, JSON.stringify(rm.body)).toBe(200)
    expectEnvelope(rm.body, me, undefined, [pool])
    // The LP approve goes to the router, for exactly the LP burned; no step carries value.
    expect(rm.body.steps.every((s) => s.value === '0')).toBe(true)
    const approve = rm.body.steps.find((s) => selectorOf(s.data) === '0x095ea7b3')
    if (approve !== undefined) {
      expect(getAddress(approve.to)).toBe(pool)
      expect(decodeFunctionData({ abi: erc20Abi, data: approve.data.slice(0, 138) as Hex }).args).toEqual([
        ROUTER,
        lp,
      ])
    }
    const r = rm.body.action
    const dec = decodeFunctionData({ abi: aeroAbi, data: bareStep(rm.body, -1) })
    expect(dec.functionName).toBe('removeLiquidityETH')
    expect(dec.args).toEqual([
      getAddress(USDC),
      false,
      lp,
      floorSlippage(BigInt(r.amountA), 41),
      floorSlippage(BigInt(r.amountB), 41),
      me,
      BigInt(rm.body.expiresAt),
    ])
    const before = await Promise.all([sw.chain.getBalance({ address: me }), usdcOf(me)])
    const rr = await broadcast(sw.chain, wallet, rm.body)
    const after = await Promise.all([sw.chain.getBalance({ address: me }), usdcOf(me)])
    expect((after[0] ?? 0n) - (before[0] ?? 0n) + gasPaid(rr)).toBe(BigInt(r.amountB))
    expect((after[1] ?? 0n) - (before[1] ?? 0n)).toBe(BigInt(r.amountA))
    expect(await balanceOf(pool, me)).toBe(lpBefore)
  })

  test('attack: an empty Aerodrome pool an attacker creates for a listed pair is refused (no first deposit at the caller’s ratio); a listed non-token or an unlisted token never gets a pool built for; free', async () => {
    const me = ownerWallet(sw, 2).account.address
    const attacker = ownerWallet(sw, 7)
    const STRANGER = getAddress('0x000000000000000000000000000000000000bEEF')
    const { cbBTC } = BASE_ADDRESSES
    const getPool = (a: Address, b: Address) =>
      sw.chain.readContract({ address: FACTORY, abi: aeroAbi, functionName: 'getPool', args: [a, b, false] })
    // createPool is permissionless: the attacker makes an empty cbBTC/USDC pool the listed factory reports.
    if ((await getPool(cbBTC, USDC)) === zeroAddress)
      await expectMined(
        sw.chain,
        await attacker.writeContract({
          address: FACTORY,
          abi: aeroAbi,
          functionName: 'createPool',
          args: [cbBTC, USDC, false],
        }),
      )
    const pool = await getPool(cbBTC, USDC)
    expect(pool).not.toBe(zeroAddress)
    expect(await balanceOf(pool, pool)).toBe(0n)
    const before = await Promise.all([balanceOf(cbBTC, pool), balanceOf(USDC, pool)])
    expect(before).toEqual([0n, 0n])
    const cases: { name: string; path: string; body: unknown; field: string; code: string }[] = [
      {
        name: 'add to the empty cbBTC/USDC pool at a ratio of the caller’s',
        path: 'aero/add',
        body: { tokenA: cbBTC, tokenB: USDC, amountA: '100000', amountB: '1000000', owner: me },
        field: 'tokenB',
        code: 'pool_empty',
      },
      {
        name: 'remove from the empty pool',
        path: 'aero/remove',
        body: { tokenA: USDC, tokenB: cbBTC, liquidity: '1', owner: me },
        field: 'liquidity',
        code: 'insufficient_balance',
      },
      // The stand-in's pool reads its tokens' symbols, so no pool of the diamond can exist.
      {
        name: 'add to USDC/diamond',
        path: 'aero/add',
        body: { tokenA: USDC, tokenB: DIAMOND, amountA: '1000000', amountB: '1000000', owner: me },
        field: 'tokenB',
        code: 'pool_not_found',
      },
      {
        name: 'add to ETH/unlisted',
        path: 'aero/add',
        body: { tokenA: NATIVE_SENTINEL, tokenB: STRANGER, amountA: '1', amountB: '1', owner: me },
        field: 'tokenB',
        code: 'unlisted_target',
      },
      {
        name: 'remove from unlisted/ETH',
        path: 'aero/remove',
        body: { tokenA: STRANGER, tokenB: NATIVE_SENTINEL, liquidity: '1', owner: me },
        field: 'tokenA',
        code: 'unlisted_target',
      },
      {
        name: 'uni add of the diamond',
        path: 'uni/add',
        body: { tokenA: DIAMOND, tokenB: USDC, fee: 500, amountA: '1', amountB: '1', owner: me },
        field: 'fee',
        code: 'pool_not_found',
      },
    ]
    const answers = await Promise.all(cases.map((c) => client.post(`/v1/tx/lp/${c.path}`, c.body)))
    await expectEachRefused(
      answers,
      cases.map((c) => ({ ...c, status: 422 })),
    )
    expect(answers[0]?.body.error?.details).toEqual({ pool })
    expect(await Promise.all([balanceOf(cbBTC, pool), balanceOf(USDC, pool)])).toEqual([0n, 0n])
  })
})
