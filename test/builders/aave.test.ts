import { decodeFunctionData, erc20Abi, type Hex, maxUint256, parseAbi, parseEther, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { aavePoolAbi } from '../../src/builders/earn/aavePool.js'
import type { AaveSupplyAction } from '../../src/builders/earn/aaveSupply.js'
import type { AaveWithdrawAction } from '../../src/builders/earn/aaveWithdraw.js'
import type { BuilderIssues } from '../../src/builders/txStep.js'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { broadcast, builderClient, expectEnvelope, ownerWallet, selectorOf } from '../helpers/builderCalls.js'
import { expectMined } from '../helpers/expectMined.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// Aave v3 supply and withdraw builders, paid with the official x402 client, broadcast from demo accounts
// and checked against the Pool's, the aTokens' and the assets' onchain state.
const POOL = BASE_ADDRESSES.AavePool
const USDC = BASE_ADDRESSES.USDC
const WETH = BASE_ADDRESSES.WETH
const A_USDC = BASE_ADDRESSES.aBasUSDC
const A_WETH = BASE_ADDRESSES.aBasWETH
const APPROVE = '0x095ea7b3'
const SUPPLY = '0x617ba037'
const WITHDRAW = '0x69328dec'
const borrowAbi = parseAbi([
  'function borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf)',
])

const sw = useWorld()
const svc = useInstance(sw)
const client = builderClient(sw, svc)

/** An ERC-20 (or aToken) balance, at a block when given: aToken balances grow with every block's time. */
const balanceOf = (token: Hex, who: Hex, blockNumber?: bigint) =>
  sw.chain.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [who],
    blockNumber,
  })
const allowance = (token: Hex, owner: Hex) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, POOL] })
const change = (built: { simulation: { balanceChanges: { token: string; delta: string }[] } }, token: Hex) =>
  BigInt(built.simulation.balanceChanges.find((c) => c.token === token)?.delta ?? 'NaN')
/** |a − b| ≤ tolerance. */
const near = (a: bigint, b: bigint, tolerance: bigint) => (a > b ? a - b : b - a) <= tolerance

/** Broadcasts and returns the block the last step was mined in, with the balances just before and at it. */
async function broadcastAndRead(
  owner: ReturnType<typeof ownerWallet>,
  built: Parameters<typeof broadcast>[2],
  tokens: readonly Hex[],
) {
  const me = owner.account.address
  const receipts = await broadcast(sw.chain, owner, built)
  const first = receipts[0]?.blockNumber as bigint
  const last = receipts.at(-1)?.blockNumber as bigint
  const before = await Promise.all(tokens.map((t) => balanceOf(t, me, first - 1n)))
  const after = await Promise.all(tokens.map((t) => balanceOf(t, me, last)))
  return { before, after, block: last }
}

describe('Aave v3 supply builder', () => {
  test('behavior: a USDC supply approves exactly the amount, executes onchain and mints the aTokens', async () => {
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    const amount = 1_000_000_000n
    const answer = await client.post<AaveSupplyAction>('/v1/tx/earn/aave/supply', {
      asset: USDC,
      amount: amount.toString(),
      owner: me,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.charged).toBeGreaterThan(0n)
    const built = answer.body
    expectEnvelope(built, me)
    expect(built.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, SUPPLY])
    expect(built.steps.map((s) => s.to)).toEqual([USDC, POOL])
    // The calldata is what the spec says: supply(asset, amount, onBehalfOf = owner, referralCode 0).
    const call = decodeFunctionData({ abi: aavePoolAbi, data: built.walletSendCalls.calls[1]?.data as Hex })
    expect(call).toEqual({ functionName: 'supply', args: [USDC, amount, me, 0] })
    expect(built.issues.allowance).toEqual({
      token: USDC,
      spender: POOL,
      actual: '0',
      expected: amount.toString(),
    })
    expect(built.action).toEqual({
      type: 'aaveSupply',
      asset: USDC,
      amount: amount.toString(),
      aToken: A_USDC,
      expectedATokenBalanceAfter: amount.toString(),
    })
    // The simulation saw the asset leave and the aTokens arrive (scaled balances: ±1 wei).
    expect(change(built, USDC)).toBe(-amount)
    expect(near(change(built, A_USDC), amount, 1n)).toBe(true)

    const { before, after } = await broadcastAndRead(owner, built, [USDC, A_USDC])
    expect((before[0] as bigint) - (after[0] as bigint)).toBe(amount)
    expect(before[1]).toBe(0n)
    expect(near(after[1] as bigint, amount, 1n)).toBe(true)
    expect(near(after[1] as bigint, BigInt(built.action.expectedATokenBalanceAfter), 1n)).toBe(true)
    // Exact approval: nothing is left approved after the bundle.
    expect(await allowance(USDC, me)).toBe(0n)
  })

  test('behavior: a WETH supply, once its approve is mined, is rebuilt without the approve and mints the aTokens', async () => {
    const owner = ownerWallet(sw, 3)
    const me = owner.account.address
    const amount = parseEther('2.5')
    const body = { asset: WETH, amount: amount.toString(), owner: me }
    const first = await client.post<AaveSupplyAction>('/v1/tx/earn/aave/supply', body)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, SUPPLY])
    // Broadcast only the approve; the caller then rebuilds (say the quote expired).
    await broadcast(sw.chain, owner, { ...first.body, steps: first.body.steps.slice(0, 1) })
    expect(await allowance(WETH, me)).toBe(amount)

    const second = await client.post<AaveSupplyAction>('/v1/tx/earn/aave/supply', body)
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expectEnvelope(second.body, me)
    expect(second.body.steps.map((s) => selectorOf(s.data))).toEqual([SUPPLY])
    expect(second.body.issues.allowance).toBeNull()
    expect(second.body.action.aToken).toBe(A_WETH)
    expect(change(second.body, WETH)).toBe(-amount)
    expect(near(change(second.body, A_WETH), amount, 1n)).toBe(true)

    const { before, after } = await broadcastAndRead(owner, second.body, [WETH, A_WETH])
    expect((before[0] as bigint) - (after[0] as bigint)).toBe(amount)
    expect(near((after[1] as bigint) - (before[1] as bigint), amount, 1n)).toBe(true)
    expect(near(after[1] as bigint, BigInt(second.body.action.expectedATokenBalanceAfter), 1n)).toBe(true)
    expect(await allowance(WETH, me)).toBe(0n)
  })

  test('error: a shortfall, an unlisted asset and bad bodies are refused before simulating, uncharged', async () => {
    const me = ownerWallet(sw, 4).account.address
    const holding = await balanceOf(USDC, me)
    const [short, unlisted, listedElsewhere, zero, extra] = await Promise.all([
      client.post('/v1/tx/earn/aave/supply', { asset: USDC, amount: (holding + 1n).toString(), owner: me }),
      // UTIL is in the address book (the burn builder's target) but is no Aave reserve of the catalog.
      client.post('/v1/tx/earn/aave/supply', { asset: svc.config.utilToken, amount: '1', owner: me }),
      // cbETH is listed on the Pool (a placeholder on the devnet) but not in the catalog.
      client.post('/v1/tx/earn/aave/supply', { asset: BASE_ADDRESSES.cbETH, amount: '1', owner: me }),
      client.post('/v1/tx/earn/aave/supply', { asset: USDC, amount: '0', owner: me }),
      client.post('/v1/tx/earn/aave/supply', { asset: USDC, amount: '5', owner: me, referralCode: 7 }),
    ])
    expect(short.status).toBe(422)
    expect(short.body.error).toMatchObject({ code: 'insufficient_balance', field: 'amount' })
    expect(short.body.error?.details).toEqual({
      issues: {
        balance: { token: USDC, actual: holding.toString(), expected: (holding + 1n).toString() },
        allowance: null,
      },
    })
    for (const a of [unlisted, listedElsewhere]) {
      expect(a.status).toBe(422)
      expect(a.body.error).toMatchObject({ code: 'unlisted_target', field: 'asset' })
    }
    expect(zero.status).toBe(400)
    expect(zero.body.error?.field).toBe('amount')
    expect(extra.status).toBe(400)
    expect(extra.body.error?.field).toBe('referralCode')
    for (const a of [short, unlisted, listedElsewhere, zero, extra]) expect(a.charged).toBe(0n)
  })
})

describe('Aave v3 withdraw builder', () => {
  test('behavior: withdrawing an amount returns exactly that amount and burns as many aTokens', async () => {
    // Account 2 supplied 1000 USDC above.
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    const amount = 400_000_000n
    const answer = await client.post<AaveWithdrawAction>('/v1/tx/earn/aave/withdraw', {
      asset: USDC,
      amount: amount.toString(),
      owner: me,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.charged).toBeGreaterThan(0n)
    const built = answer.body
    expectEnvelope(built, me)
    expect(built.steps.map((s) => selectorOf(s.data))).toEqual([WITHDRAW])
    const call = decodeFunctionData({ abi: aavePoolAbi, data: built.walletSendCalls.calls[0]?.data as Hex })
    expect(call).toEqual({ functionName: 'withdraw', args: [USDC, amount, me] })
    expect(built.action).toMatchObject({
      type: 'aaveWithdraw',
      asset: USDC,
      amount: amount.toString(),
      aToken: A_USDC,
      expectedAmount: amount.toString(),
    })
    expect(change(built, USDC)).toBe(amount)
    expect(near(change(built, A_USDC), -amount, 1n)).toBe(true)

    const quotedBalance = BigInt(built.action.expectedATokenBalanceAfter) + amount
    const { before, after } = await broadcastAndRead(owner, built, [USDC, A_USDC])
    expect((after[0] as bigint) - (before[0] as bigint)).toBe(amount)
    // The rest keeps earning between blocks: at most a millionth of it over a few seconds.
    const rest = (before[1] as bigint) - amount
    expect(after[1] as bigint).toBeGreaterThanOrEqual(rest - 1n)
    expect(after[1] as bigint).toBeLessThanOrEqual(rest + rest / 1_000_000n + 1n)
    expect(near(quotedBalance, before[1] as bigint, quotedBalance / 1_000_000n + 1n)).toBe(true)
  })

  test('behavior: withdrawing "max" returns the whole supply, interest included, and leaves 0 aTokens', async () => {
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    const answer = await client.post<AaveWithdrawAction>('/v1/tx/earn/aave/withdraw', {
      asset: USDC,
      amount: 'max',
      owner: me,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const built = answer.body
    expectEnvelope(built, me)
    const call = decodeFunctionData({ abi: aavePoolAbi, data: built.walletSendCalls.calls[0]?.data as Hex })
    expect(call).toEqual({ functionName: 'withdraw', args: [USDC, maxUint256, me] })
    expect(built.action).toMatchObject({ amount: 'max', aToken: A_USDC, expectedATokenBalanceAfter: '0' })
    const quoted = BigInt(built.action.expectedAmount)
    // 1000 supplied − 400 withdrawn, plus the interest earned since.
    expect(quoted).toBeGreaterThanOrEqual(600_000_000n - 1n)
    expect(change(built, USDC)).toBeGreaterThanOrEqual(quoted)
    expect(change(built, A_USDC)).toBe(-change(built, USDC))

    const { before, after } = await broadcastAndRead(owner, built, [USDC, A_USDC])
    expect(after[1]).toBe(0n)
    const received = (after[0] as bigint) - (before[0] as bigint)
    expect(received).toBeGreaterThanOrEqual(quoted)
    expect(received).toBeLessThanOrEqual(quoted + quoted / 1_000_000n + 1n)
    // Everything the aToken balance was worth just before came back.
    expect(received).toBeGreaterThanOrEqual(before[1] as bigint)
  })

  test('error: a withdraw above the aToken balance (or "max" of nothing) is a 422 naming amount, uncharged', async () => {
    const me = ownerWallet(sw, 3).account.address
    const supplied = await balanceOf(A_WETH, me)
    expect(supplied).toBeGreaterThan(0n)
    const above = supplied + parseEther('1')
    const [over, nothing, unlisted, bad] = await Promise.all([
      client.post('/v1/tx/earn/aave/withdraw', { asset: WETH, amount: above.toString(), owner: me }),
      client.post('/v1/tx/earn/aave/withdraw', {
        asset: USDC,
        amount: 'max',
        owner: ownerWallet(sw, 4).account.address,
      }),
      client.post('/v1/tx/earn/aave/withdraw', { asset: BASE_ADDRESSES.USDbC, amount: 'max', owner: me }),
      client.post('/v1/tx/earn/aave/withdraw', { asset: WETH, amount: 'all', owner: me }),
    ])
    expect(over.status).toBe(422)
    expect(over.body.error).toMatchObject({ code: 'insufficient_balance', field: 'amount' })
    const issues = over.body.error?.details?.issues as BuilderIssues | undefined
    expect(issues?.allowance).toBeNull()
    expect(issues?.balance).toMatchObject({ token: A_WETH, expected: above.toString() })
    // The balance at the quote: what was read just before, plus at most the interest of a few seconds.
    const actual = BigInt(issues?.balance?.actual ?? -1)
    expect(actual).toBeGreaterThanOrEqual(supplied)
    expect(actual).toBeLessThanOrEqual(supplied + supplied / 1_000_000n)
    expect(nothing.status).toBe(422)
    expect(nothing.body.error).toMatchObject({ code: 'nothing_to_withdraw', field: 'amount' })
    expect(unlisted.status).toBe(422)
    expect(unlisted.body.error).toMatchObject({ code: 'unlisted_target', field: 'asset' })
    expect(bad.status).toBe(400)
    expect(bad.body.error?.field).toBe('amount')
    for (const a of [over, nothing, unlisted, bad]) expect(a.charged).toBe(0n)
  })

  test('error: a withdraw that would leave a borrower under water fails the simulation with the Aave error named, uncharged', async () => {
    const owner = ownerWallet(sw, 5)
    const me = owner.account.address
    const supplied = await client.post<AaveSupplyAction>('/v1/tx/earn/aave/supply', {
      asset: WETH,
      amount: parseEther('1').toString(),
      owner: me,
    })
    expect(supplied.status, JSON.stringify(supplied.body)).toBe(200)
    await broadcast(sw.chain, owner, supplied.body)
    // The owner borrows against it (directly on the Pool: test setup, not a builder).
    await expectMined(
      sw.chain,
      await owner.writeContract({
        address: POOL,
        abi: borrowAbi,
        functionName: 'borrow',
        args: [USDC, parseUnits('1000', 6), 2n, 0, me],
      }),
    )
    const answer = await client.post('/v1/tx/earn/aave/withdraw', { asset: WETH, amount: 'max', owner: me })
    expect(answer.status).toBe(422)
    expect(answer.body.error?.code).toBe('simulation_reverted')
    expect(answer.body.error?.details).toMatchObject({
      stepIndex: 0,
      to: POOL,
      reason: 'Error(35): Aave HEALTH_FACTOR_LOWER_THAN_LIQUIDATION_THRESHOLD',
    })
    expect(answer.charged).toBe(0n)
    expect(await balanceOf(A_WETH, me)).toBeGreaterThanOrEqual(parseEther('1') - 1n)
  })
})
