import { encodeFunctionData, erc20Abi, type Hex, parseAbi, parseEther } from 'viem'
import { describe, expect, test } from 'vitest'
import type { BuildPlan } from '../../src/builders/builderEngine.js'
import { SimulationRevertedError, UnlistedTargetError } from '../../src/builders/builderErrors.js'
import type { VaultDepositAction } from '../../src/builders/earn/vaultDeposit.js'
import type { VaultWithdrawAction } from '../../src/builders/earn/vaultWithdraw.js'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../src/chain/addresses.js'
import {
  BASE_LENDING_CATALOG,
  DEVNET_VAULTS,
  REQUEST_WITHDRAWAL_VAULTS,
} from '../../src/chain/lendingCatalog.js'
import { broadcast, builderClient, expectEnvelope, ownerWallet, selectorOf } from '../helpers/builderCalls.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// ERC-4626 deposit and withdraw builders, paid with the official x402 client, broadcast from a demo
// account, and checked against the vaults' and tokens' onchain state.
const vaultAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function maxWithdraw(address) view returns (uint256)',
  'function convertToAssets(uint256) view returns (uint256)',
])
const APPROVE = '0x095ea7b3'
const USDC = BASE_ADDRESSES.USDC

const sw = useWorld()
const svc = useInstance(sw)
const client = builderClient(sw, svc)

const read = (address: Hex, functionName: 'balanceOf' | 'maxWithdraw', who: Hex) =>
  sw.chain.readContract({ address, abi: vaultAbi, functionName, args: [who] })
const usdcOf = (who: Hex) =>
  sw.chain.readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
const allowance = (owner: Hex, spender: Hex) =>
  sw.chain.readContract({ address: USDC, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] })

describe('vault builders (ERC-4626)', () => {
  test('behavior: a deposit approves exactly the assets, executes onchain and mints the quoted shares', async () => {
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    const vault = DEVNET_VAULTS.plainUsdc
    const assets = 1_250_000_000n
    const answer = await client.post<VaultDepositAction>('/v1/tx/earn/deposit', {
      vault,
      assets: assets.toString(),
      owner: me,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.charged).toBeGreaterThan(0n)
    const built = answer.body
    expectEnvelope(built, me)
    expect(built.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, '0x6e553f65'])
    expect(built.issues.allowance).toEqual({
      token: USDC,
      spender: vault,
      actual: '0',
      expected: assets.toString(),
    })
    // The simulation saw exactly what the chain then does.
    const usdcChange = built.simulation.balanceChanges.find((c) => c.token === USDC)
    expect(usdcChange?.delta).toBe((-assets).toString())
    const sharesChange = built.simulation.balanceChanges.find((c) => c.token === vault)
    expect(sharesChange?.delta).toBe(built.action.expectedShares)

    const [usdcBefore, sharesBefore] = await Promise.all([usdcOf(me), read(vault, 'balanceOf', me)])
    await broadcast(sw.chain, owner, built)
    const [usdcAfter, sharesAfter] = await Promise.all([usdcOf(me), read(vault, 'balanceOf', me)])
    expect(usdcBefore - usdcAfter).toBe(assets)
    expect(sharesAfter - sharesBefore).toBe(BigInt(built.action.expectedShares))
    // Exact approval: nothing is left approved after the bundle.
    expect(await allowance(me, vault)).toBe(0n)
  })

  test('behavior: once the approve step is mined, building again has no approve step', async () => {
    const owner = ownerWallet(sw, 3)
    const me = owner.account.address
    const vault = DEVNET_VAULTS.metaMorphoUsdc
    const body = { vault, assets: '400000000', owner: me }
    const first = await client.post<VaultDepositAction>('/v1/tx/earn/deposit', body)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.steps).toHaveLength(2)
    // Broadcast only the approve; the caller then rebuilds (say the quote expired).
    await broadcast(sw.chain, owner, { ...first.body, steps: first.body.steps.slice(0, 1) })
    expect(await allowance(me, vault)).toBe(400_000_000n)
    const second = await client.post<VaultDepositAction>('/v1/tx/earn/deposit', body)
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expect(second.body.steps.map((s) => selectorOf(s.data))).toEqual(['0x6e553f65'])
    expect(second.body.issues.allowance).toBeNull()
    const sharesBefore = await read(vault, 'balanceOf', me)
    await broadcast(sw.chain, owner, second.body)
    const minted = (await read(vault, 'balanceOf', me)) - sharesBefore
    // MetaMorpho accrues interest between the quote and the block: at most the quoted shares, within 1e-6.
    const quoted = BigInt(second.body.action.expectedShares)
    expect(minted <= quoted && minted >= quoted - quoted / 1_000_000n).toBe(true)
  })

  test('behavior: a withdraw returns the assets to the owner and burns its shares', async () => {
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    const vault = DEVNET_VAULTS.plainUsdc
    const assets = 500_000_000n
    const answer = await client.post<VaultWithdrawAction>('/v1/tx/earn/withdraw', {
      vault,
      assets: assets.toString(),
      owner: me,
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expectEnvelope(answer.body, me)
    expect(answer.body.steps.map((s) => selectorOf(s.data))).toEqual(['0xb460af94'])
    const [usdcBefore, sharesBefore] = await Promise.all([usdcOf(me), read(vault, 'balanceOf', me)])
    await broadcast(sw.chain, owner, answer.body)
    const [usdcAfter, sharesAfter] = await Promise.all([usdcOf(me), read(vault, 'balanceOf', me)])
    expect(usdcAfter - usdcBefore).toBe(assets)
    const burned = sharesBefore - sharesAfter
    expect(answer.body.simulation.balanceChanges.find((c) => c.token === vault)?.delta).toBe(
      (-burned).toString(),
    )
  })

  test('error: a withdraw above maxWithdraw is a 422 naming it, and nothing is charged', async () => {
    const me = ownerWallet(sw, 2).account.address
    const max = await read(DEVNET_VAULTS.plainUsdc, 'maxWithdraw', me)
    const answer = await client.post('/v1/tx/earn/withdraw', {
      vault: DEVNET_VAULTS.plainUsdc,
      assets: (max + 1n).toString(),
      owner: me,
    })
    expect(answer.status).toBe(422)
    expect(answer.body.error).toMatchObject({ code: 'exceeds_max_withdraw', field: 'assets' })
    expect(answer.body.error?.details).toEqual({ maxWithdraw: max.toString() })
    expect(answer.charged).toBe(0n)
  })

  test('error: a gUSDC withdraw (request + epoch timelock on Base) is a 422 saying why, and nothing is charged', async () => {
    const me = ownerWallet(sw, 2).account.address
    const usdcBefore = await usdcOf(me)
    const answer = await client.post('/v1/tx/earn/withdraw', {
      vault: BASE_ADDRESSES.GtradeUsdcVault,
      assets: '1000000',
      owner: me,
    })
    expect(answer.status).toBe(422)
    expect(answer.body.error).toMatchObject({ code: 'withdraw_needs_request', field: 'vault' })
    expect(answer.body.error?.message).toMatch(/makeWithdrawRequest/)
    expect(answer.body.error?.message).toMatch(/withdrawEpochsTimelock/)
    expect(answer.charged).toBe(0n)
    expect(await usdcOf(me)).toBe(usdcBefore)
    // Base's catalog: gUSDC is the one vault without a plain ERC-4626 withdraw; the others are MetaMorpho.
    for (const v of BASE_LENDING_CATALOG.vaults)
      expect(v.kind === 'metamorpho' || REQUEST_WITHDRAWAL_VAULTS.includes(v.address), v.address).toBe(true)
    expect(REQUEST_WITHDRAWAL_VAULTS).toEqual([BASE_ADDRESSES.GtradeUsdcVault])
  })

  test('error: shortfalls, unlisted vaults and bad bodies are refused before simulating, uncharged', async () => {
    const me = ownerWallet(sw, 4).account.address
    const holding = await usdcOf(me)
    const [short, unlisted, bad, extra] = await Promise.all([
      client.post('/v1/tx/earn/deposit', {
        vault: DEVNET_VAULTS.plainUsdc,
        assets: (holding + 1n).toString(),
        owner: me,
      }),
      client.post('/v1/tx/earn/deposit', { vault: BASE_ADDRESSES.WETH, assets: '1', owner: me }),
      client.post('/v1/tx/earn/deposit', { vault: DEVNET_VAULTS.plainUsdc, assets: '-5', owner: me }),
      client.post('/v1/tx/earn/deposit', {
        vault: DEVNET_VAULTS.plainUsdc,
        assets: '5',
        owner: me,
        receiver: me,
      }),
    ])
    expect(short.status).toBe(422)
    expect(short.body.error).toMatchObject({ code: 'insufficient_balance', field: 'assets' })
    expect(short.body.error?.details).toEqual({
      issues: {
        balance: { token: USDC, actual: holding.toString(), expected: (holding + 1n).toString() },
        allowance: null,
      },
    })
    expect(unlisted.status).toBe(422)
    expect(unlisted.body.error).toMatchObject({ code: 'unlisted_target', field: 'vault' })
    expect(bad.status).toBe(400)
    expect(bad.body.error?.field).toBe('assets')
    expect(extra.status).toBe(400)
    expect(extra.body.error?.field).toBe('receiver')
    for (const a of [short, unlisted, bad, extra]) expect(a.charged).toBe(0n)
  })
})

describe('the builder engine, on crafted bundles', () => {
  const me = () => ownerWallet(sw, 5).account.address
  const plan = (steps: BuildPlan<null>['steps'], watch: Hex[] = []): BuildPlan<null> => ({
    owner: me(),
    steps,
    watch,
    issues: { balance: null, allowance: null },
    action: null,
    quotedAt: 1,
    expiresAt: 121,
  })
  const transfer = (amount: bigint) => ({
    to: USDC,
    data: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [BASE_ADDRESSES.WETH, amount],
    }),
    value: 0n,
    description: 'transfer',
  })

  test("behavior: native value and token moves are reported as the owner's balance changes", async () => {
    const value = parseEther('0.5')
    const built = await svc.services.deps.builders.finish(
      plan(
        [{ to: BASE_ADDRESSES.WETH, data: '0xd0e30db0', value, description: 'wrap' }, transfer(7n)],
        [NATIVE_SENTINEL, BASE_ADDRESSES.WETH, USDC],
      ),
    )
    const owner = me()
    const [eth, weth, usdc] = await Promise.all([
      sw.chain.getBalance({ address: owner }),
      sw.chain.readContract({
        address: BASE_ADDRESSES.WETH,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [owner],
      }),
      usdcOf(owner),
    ])
    expect(built.simulation.balanceChanges).toEqual([
      {
        token: NATIVE_SENTINEL,
        before: eth.toString(),
        after: (eth - value).toString(),
        delta: (-value).toString(),
      },
      {
        token: BASE_ADDRESSES.WETH,
        before: weth.toString(),
        after: (weth + value).toString(),
        delta: value.toString(),
      },
      { token: USDC, before: usdc.toString(), after: (usdc - 7n).toString(), delta: '-7' },
    ])
    expect(BigInt(built.simulation.gasUsed)).toBe(
      built.simulation.steps.reduce((sum, s) => sum + BigInt(s.gasUsed), 0n),
    )
  })

  test("error: the failing step's index and decoded reason; a step outside the address book never leaves", async () => {
    const holding = await usdcOf(me())
    const failed = await svc.services.deps.builders
      .finish(plan([transfer(1n), transfer(holding + 1n)]))
      .catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(SimulationRevertedError)
    expect((failed as SimulationRevertedError).details).toMatchObject({ stepIndex: 1, to: USDC })
    expect((failed as SimulationRevertedError).message).toMatch(/exceeds balance/)
    const stranger = { ...transfer(1n), to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const }
    await expect(svc.services.deps.builders.finish(plan([transfer(1n), stranger]))).rejects.toBeInstanceOf(
      UnlistedTargetError,
    )
  })
})
