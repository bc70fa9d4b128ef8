import {
  type Abi,
  type Address,
  createTestClient,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  maxUint256,
  pad,
  parseAbi,
  parseEther,
  parseUnits,
  toEventSelector,
  toHex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { assertOutflows, type OutflowPolicy } from '../../src/builders/assertOutflows.js'
import { type BuildPlan, createBuilderEngine } from '../../src/builders/builderEngine.js'
import type { SimulatedLog } from '../../src/builders/simulateBundle.js'
import type { SwapAction } from '../../src/builders/swap/swap.js'
import type { TxStep } from '../../src/builders/txStep.js'
import { BASE_ADDRESSES, NATIVE_SENTINEL, ZEROX_SETTLER_REGISTRY } from '../../src/chain/addresses.js'
import { DEVNET_ADDRESSES } from '../../src/devnet/addresses.js'
import { zeroExStandInAbi } from '../../src/devnet/deploy/zeroEx.js'
import { UpstreamError } from '../../src/errors.js'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { builderClient, devnetBook, ownerWallet } from '../helpers/builderCalls.js'
import { testContracts } from '../helpers/compileSolidity.js'
import { expectMined } from '../helpers/expectMined.js'
import { expectRefused } from '../helpers/expectRefused.js'
import { type LyingZeroEx, lyingZeroEx, type Rewrite, type ZeroExQuoteJson } from '../helpers/lyingZeroEx.js'
import { type Instance, type ServiceWorld, startServiceWorld } from '../helpers/serviceWorld.js'

// The builders whose calldata comes from an upstream, attacked as a lying upstream would (issue 22, item 4):
// a 0x API (compromised, spoofed, or on a hijacked connection) whose `AllowanceHolder.exec` names its own
// contract as operator and target and a token the taker never sold, a correct exec with operator and target
// apart, an amount other than the one sold, a Settler that pulls less than it was allowed, 0x's registry
// reporting the Settler paused; and the engine's rule that nothing but what a plan declares leaves the
// owner, on real simulations and on the Midnight API's shapes. The money rules: every refusal is a 502
// naming the upstream, never charged, and nothing moves; the controls broadcast what the unfixed builder
// answered, to show each attack is real on the devnet.
const { USDC, WETH, cbBTC, MorphoMidnight: MIDNIGHT } = BASE_ADDRESSES
const ALLOWANCE_HOLDER = BASE_ADDRESSES.ZeroExAllowanceHolder
const SETTLER = DEVNET_ADDRESSES.ZEROX_SETTLER
const ZEROX = '0x Swap API'
const PRICE = usdToAtomic(0.01)
const STOLEN = parseEther('5')
const SOLD = parseUnits('100', 6)

let sw: ServiceWorld
/** The 0x path, reaching the devnet's 0x simulator through `hostile` (which may rewrite its quotes). */
let zx: Instance
let hostile: LyingZeroEx
let client: ReturnType<typeof builderClient>
/** The lying quote's contract, deployed from the test's own source, holding cbBTC and USDC to pay with. */
let evil: Address
let evilAbi: Abi

beforeAll(async () => {
  sw = await startServiceWorld()
  const plain = await sw.instance()
  hostile = await lyingZeroEx(plain.config.upstreams.zeroEx)
  zx = await sw.instance({ ZEROX_API_KEY: 'test', ZEROX_API_URL: hostile.url })
  client = builderClient(sw, zx)
  ;({ address: evil, abi: evilAbi } = await deployHostileTarget())
}, 120_000)

afterAll(async () => {
  await hostile?.close()
  await sw?.stop()
})

/** The hostile 0x target of test/contracts (compiled with the other test-only contracts). */
function compileHostileTarget(): { abi: Abi; bytecode: Hex } {
  const c = testContracts().get('HostileZeroExTarget')
  if (c === undefined) throw new Error('HostileZeroExTarget did not compile')
  return { abi: c.abi, bytecode: c.bytecode }
}

/** Deploys the hostile contract from demo account #6 and gives it 1 cbBTC and 1,000 USDC to pay with. */
async function deployHostileTarget(): Promise<{ address: Address; abi: Abi }> {
  const { abi, bytecode } = compileHostileTarget()
  const deployer = ownerWallet(sw, 6)
  const receipt = await expectMined(sw.chain, await deployer.deployContract({ abi, bytecode }))
  const address = getAddress(receipt.contractAddress ?? '0x')
  for (const [token, amount] of [
    [cbBTC, parseUnits('1', 8)],
    [USDC, parseUnits('1000', 6)],
  ] as const)
    await expectMined(
      sw.chain,
      await deployer.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [address, amount],
      }),
    )
  return { address, abi }
}

const balanceOf = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })

/** What a wallet holds of the three tokens, and its USDC allowance to AllowanceHolder. */
async function holdings(who: Address) {
  const [usdc, weth, btc, usdcToHolder] = await Promise.all([
    balanceOf(USDC, who),
    balanceOf(WETH, who),
    balanceOf(cbBTC, who),
    sw.chain.readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [who, ALLOWANCE_HOLDER],
    }),
  ])
  return { usdc, weth, btc, usdcToHolder }
}

/** A taker as a real user who once sold WETH through 0x: an unlimited standing WETH allowance to AllowanceHolder. */
async function takerWithStandingWethAllowance(index: number) {
  const owner = ownerWallet(sw, index)
  await expectMined(
    sw.chain,
    await owner.writeContract({
      address: WETH,
      abi: erc20Abi,
      functionName: 'approve',
      args: [ALLOWANCE_HOLDER, maxUint256],
    }),
  )
  return owner
}

/** `drain(token, amount, buyToken, payout)` on the hostile contract. */
const drain = (token: Address, amount: bigint, payout: bigint): Hex =>
  encodeFunctionData({ abi: evilAbi, functionName: 'drain', args: [token, amount, cbBTC, payout] })

const exec = (operator: Address, token: Address, amount: bigint, target: Address, data: Hex): Hex =>
  encodeFunctionData({
    abi: zeroExStandInAbi,
    functionName: 'exec',
    args: [operator, token, amount, target, data],
  })

/** The simulator's exec, decoded: its operator, token, amount, target and Settler.execute calldata. */
function decodeExec(q: ZeroExQuoteJson) {
  const call = decodeFunctionData({ abi: zeroExStandInAbi, data: q.transaction.data })
  if (call.functionName !== 'exec') throw new Error('the simulator quoted no exec')
  const [operator, token, amount, target, inner] = call.args
  return { operator, token, amount, target, inner }
}

const withData = (q: ZeroExQuoteJson, data: Hex): ZeroExQuoteJson => ({
  ...q,
  transaction: { ...q.transaction, data },
})

/** 100 USDC → cbBTC for `taker`. */
const swapBody = (taker: Address) => ({ fromToken: USDC, toToken: cbBTC, fromAmount: SOLD.toString(), taker })

/** Sends `steps` from `owner` as the unfixed builder would have answered them (the controls). */
async function broadcastAsAnswered(owner: ReturnType<typeof ownerWallet>, steps: readonly TxStep[]) {
  for (const step of steps)
    await expectMined(
      sw.chain,
      await owner.sendTransaction({ to: step.to, data: step.data, value: step.value }),
    )
}

const approveStep = (token: Address, spender: Address, amount: bigint): TxStep => ({
  to: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
  value: 0n,
  description: 'approve',
})

const quotedStep = (q: ZeroExQuoteJson): TxStep => ({
  to: q.transaction.to,
  data: q.transaction.data,
  value: BigInt(q.transaction.value),
  description: 'the quote’s transaction',
})

describe('attacks on the builders through their upstreams', () => {
  test('attack: a lying 0x quote whose exec lets its own contract pull the taker’s WETH (a standing allowance) and pays the minimum cbBTC itself is refused 502, free, nothing moves; broadcast as the unfixed builder answered it, it drains 5 WETH', async () => {
    const owner = await takerWithStandingWethAllowance(5)
    const me = owner.account.address
    hostile.set((q) =>
      withData(q, exec(evil, WETH, STOLEN, evil, drain(WETH, STOLEN, BigInt(q.minBuyAmount)))),
    )
    try {
      const before = await holdings(me)
      const evilBefore = await holdings(evil)
      expect(before.usdcToHolder).toBe(0n)
      const answer = await client.post<SwapAction>('/v1/tx/swap', swapBody(me))
      await expectRefused(answer, {
        status: 502,
        code: 'upstream_unavailable',
        details: { upstream: ZEROX },
        message: new RegExp(`exec lets its operator pull ${WETH}, not the ${USDC} sold`),
      })
      expect(await holdings(me)).toEqual(before)
      expect(await holdings(evil)).toEqual(evilBefore)

      // Control: before the fix the build answered 200 with the exact approve and the quote's transaction as
      // quoted (its simulation showed USDC 0 and cbBTC +minBuyAmount, passing both checks). Broadcast:
      const lie = hostile.last()
      await broadcastAsAnswered(owner, [approveStep(USDC, ALLOWANCE_HOLDER, SOLD), quotedStep(lie)])
      const after = await holdings(me)
      expect(after.weth).toBe(before.weth - STOLEN)
      expect(await balanceOf(WETH, evil)).toBe(evilBefore.weth + STOLEN)
      expect(after.usdc).toBe(before.usdc)
      expect(after.btc).toBe(before.btc + BigInt(lie.minBuyAmount))
      // …and the 100 USDC approval to AllowanceHolder stays behind.
      expect(after.usdcToHolder).toBe(SOLD)
    } finally {
      hostile.set(null)
    }
  })

  test('attack: the same drain past every quote check is caught by the engine’s rule that nothing else leaves the wallet: the simulated WETH Transfer out of the owner, a token the plan never watches', async () => {
    const owner = await takerWithStandingWethAllowance(3)
    const me = owner.account.address
    const engine = createBuilderEngine({ chain: sw.chain, book: devnetBook, suffix: null, clock: Date.now })
    const payout = parseUnits('0.001', 8)
    const quotedAt = engine.nowSec()
    const plan: BuildPlan<null> = {
      owner: me,
      steps: [
        approveStep(USDC, ALLOWANCE_HOLDER, SOLD),
        {
          to: ALLOWANCE_HOLDER,
          data: exec(evil, WETH, STOLEN, evil, drain(WETH, STOLEN, payout)),
          value: 0n,
          description: 'swap',
        },
      ],
      watch: [USDC, cbBTC],
      issues: { balance: null, allowance: null },
      action: null,
      quotedAt,
      expiresAt: quotedAt + 120,
    }
    const declared: OutflowPolicy = {
      mayLeave: [{ token: USDC, amount: SOLD }],
      mayApprove: [{ token: USDC, spender: ALLOWANCE_HOLDER, amount: SOLD }],
      source: ZEROX,
    }
    // What the watch list saw before the rule: a swap that sold nothing and bought the payout.
    const blind = await engine.finish(plan)
    expect(blind.simulation.balanceChanges.map((c) => [c.token, c.delta])).toEqual([
      [USDC, '0'],
      [cbBTC, payout.toString()],
    ])
    const evilWeth = await balanceOf(WETH, evil)
    const refused = engine.finish({ ...plan, outflows: declared })
    await expect(refused).rejects.toBeInstanceOf(UpstreamError)
    await expect(refused).rejects.toMatchObject({ status: 502, details: { upstream: ZEROX } })
    await expect(refused).rejects.toThrow(
      `takes ${STOLEN} of ${WETH} from the owner, a token the request never spends`,
    )
    // Nothing moved: the simulation is all that ran.
    expect(await balanceOf(WETH, evil)).toBe(evilWeth)

    // Approvals and ETH on real simulations: only the exact declared approve passes, any other grant or
    // undeclared ETH is refused; the declared ones pass.
    const bundle = (steps: TxStep[], outflows: OutflowPolicy) => engine.finish({ ...plan, steps, outflows })
    const deposit: TxStep = {
      to: WETH,
      data: encodeFunctionData({ abi: parseAbi(['function deposit() payable']), functionName: 'deposit' }),
      value: parseEther('1'),
      description: 'wrap',
    }
    await expect(bundle([approveStep(USDC, ALLOWANCE_HOLDER, SOLD)], declared)).resolves.toBeDefined()
    await expect(bundle([approveStep(USDC, ALLOWANCE_HOLDER, SOLD + 1n)], declared)).rejects.toThrow(
      `grants ${ALLOWANCE_HOLDER} an allowance of ${SOLD + 1n} of ${USDC}`,
    )
    await expect(bundle([approveStep(WETH, evil, 1n)], declared)).rejects.toThrow(
      `grants ${evil} an allowance of 1 of ${WETH}`,
    )
    await expect(bundle([deposit], declared)).rejects.toThrow(
      `takes ${parseEther('1')} of ${NATIVE_SENTINEL} from the owner, a token the request never spends`,
    )
    await expect(
      bundle([deposit], { ...declared, mayLeave: [{ token: NATIVE_SENTINEL, amount: parseEther('1') }] }),
    ).resolves.toBeDefined()
  })

  test('attack: a correct exec with operator and target apart, or through a contract that is not 0x’s Settler (even one that sells exactly the USDC and pays the minimum), is refused 502, free, nothing moves', async () => {
    const me = ownerWallet(sw, 4).account.address
    const rewrites: [string, Rewrite, RegExp][] = [
      [
        'operator not the Settler',
        (q) => {
          const e = decodeExec(q)
          return withData(q, exec(evil, e.token, e.amount, e.target, e.inner))
        },
        new RegExp(`exec operator ${evil} is not its target ${SETTLER}`),
      ],
      [
        'target not the Settler',
        (q) => {
          const e = decodeExec(q)
          return withData(
            q,
            exec(e.operator, e.token, e.amount, evil, drain(USDC, SOLD, BigInt(q.minBuyAmount))),
          )
        },
        new RegExp(`exec operator ${SETTLER} is not its target ${evil}`),
      ],
      [
        'both the hostile contract, selling the USDC asked',
        (q) => withData(q, exec(evil, USDC, SOLD, evil, drain(USDC, SOLD, BigInt(q.minBuyAmount)))),
        new RegExp(`exec target ${evil} is not 0x's Settler`),
      ],
    ]
    for (const [name, rewrite, message] of rewrites) {
      hostile.set(rewrite)
      try {
        const before = await holdings(me)
        const served = hostile.rewritten()
        const answer = await client.post<SwapAction>('/v1/tx/swap', swapBody(me))
        expect(hostile.rewritten(), name).toBe(served + 1)
        await expectRefused(answer, {
          status: 502,
          code: 'upstream_unavailable',
          details: { upstream: ZEROX },
          message: message,
        })
        expect(await holdings(me), name).toEqual(before)
      } finally {
        hostile.set(null)
      }
    }
  })

  test('attack: an exec allowing more or less than the amount sold is refused 502, free, nothing moves', async () => {
    const owner = ownerWallet(sw, 7)
    const me = owner.account.address
    // A standing unlimited USDC allowance: no approve step would cap what the exec lets the Settler pull.
    await expectMined(
      sw.chain,
      await owner.writeContract({
        address: USDC,
        abi: erc20Abi,
        functionName: 'approve',
        args: [ALLOWANCE_HOLDER, maxUint256],
      }),
    )
    for (const amount of [SOLD * 2n, SOLD + 1n, SOLD - 1n]) {
      hostile.set((q) => {
        const e = decodeExec(q)
        return withData(q, exec(e.operator, e.token, amount, e.target, e.inner))
      })
      try {
        const before = await holdings(me)
        const answer = await client.post<SwapAction>('/v1/tx/swap', swapBody(me))
        await expectRefused(answer, {
          status: 502,
          code: 'upstream_unavailable',
          details: { upstream: ZEROX },
          message: new RegExp(`exec allows ${amount}, not the ${SOLD} sold`),
        })
        expect(await holdings(me)).toEqual(before)
      } finally {
        hostile.set(null)
      }
    }
  })

  test('attack: a genuine exec whose Settler sells only half the USDC (the quote’s amounts halved to match) is refused 502 (its price is half the onchain pools’; the simulated spend would refuse it too), free; broadcast, it sells half and leaves half the approval standing', async () => {
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    hostile.set((q) => {
      const e = decodeExec(q)
      const execute = decodeFunctionData({ abi: zeroExStandInAbi, data: e.inner })
      if (execute.functionName !== 'execute') throw new Error('the simulator quoted no execute')
      const [slippage, actions, zid] = execute.args
      const pull = decodeFunctionData({ abi: zeroExStandInAbi, data: actions[0] as Hex })
      if (pull.functionName !== 'TRANSFER_FROM') throw new Error('the simulator pulled with no TRANSFER_FROM')
      const [recipient, permit, sig] = pull.args
      const halfPull = encodeFunctionData({
        abi: zeroExStandInAbi,
        functionName: 'TRANSFER_FROM',
        args: [recipient, { ...permit, permitted: { ...permit.permitted, amount: SOLD / 2n } }, sig],
      })
      const halfExecute = encodeFunctionData({
        abi: zeroExStandInAbi,
        functionName: 'execute',
        // The Settler's own minimum follows the half too, so the quote is consistent with itself.
        args: [{ ...slippage, minAmountOut: BigInt(q.buyAmount) / 2n }, [halfPull, ...actions.slice(1)], zid],
      })
      // The quote's own numbers follow the half (the minimum at the tightest, within any slippageBps); half
      // the USDC buys at least half the cbBTC through the same pool.
      const half = (BigInt(q.buyAmount) / 2n).toString()
      return {
        ...withData(q, exec(e.operator, e.token, e.amount, e.target, halfExecute)),
        buyAmount: half,
        minBuyAmount: half,
      }
    })
    try {
      const before = await holdings(me)
      const answer = await client.post<SwapAction>('/v1/tx/swap', swapBody(me))
      await expectRefused(answer, {
        status: 502,
        code: 'upstream_unavailable',
        details: { upstream: ZEROX },
        message: /the quote's buyAmount \d+ is more than 100 bps below the onchain pools' \d+/,
      })
      expect(await holdings(me)).toEqual(before)

      // Control: as the unfixed builder answered it.
      await broadcastAsAnswered(owner, [
        approveStep(USDC, ALLOWANCE_HOLDER, SOLD),
        quotedStep(hostile.last()),
      ])
      const after = await holdings(me)
      expect(after.usdc).toBe(before.usdc - SOLD / 2n)
      expect(after.usdcToHolder).toBe(SOLD / 2n)
      expect(after.btc).toBeGreaterThanOrEqual(before.btc + BigInt(hostile.last().minBuyAmount))
    } finally {
      hostile.set(null)
    }
  })

  test('attack: 0x’s Settler registry reporting the Settler paused (ownerOf reverts) refuses every 0x swap 502, free; restored, the honest quote builds and is charged once', async () => {
    const me = ownerWallet(sw, 4).account.address
    const anvil = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
    const code = await sw.chain.getCode({ address: ZEROX_SETTLER_REGISTRY })
    expect(code?.length ?? 0).toBeGreaterThan(2)
    await anvil.setCode({ address: ZEROX_SETTLER_REGISTRY, bytecode: '0x60006000fd' }) // revert(0, 0)
    try {
      const before = await holdings(me)
      const paused = await client.post<SwapAction>('/v1/tx/swap', swapBody(me))
      await expectRefused(paused, {
        status: 502,
        code: 'upstream_unavailable',
        details: { upstream: ZEROX },
        message: /Settler registry names no live taker-submitted Settler/,
      })
      expect(await holdings(me)).toEqual(before)
    } finally {
      await anvil.setCode({ address: ZEROX_SETTLER_REGISTRY, bytecode: code ?? '0x' })
    }
    const honest = await client.post<SwapAction>('/v1/tx/swap', swapBody(me))
    expect(honest.status, JSON.stringify(honest.body)).toBe(200)
    expect(honest.charged).toBe(PRICE)
  })

  test('attack: Midnight API offers whose takes would cost the owner another token, more loan token than paid, or an approval are refused 502 naming the Midnight API (the rule on the simulated logs, synthetic)', () => {
    // The devnet's Midnight moves only the market's loan token on a take (the offer's market must hash to
    // the market asked, and callbacks revert), so no API answer can reach another token there; the real
    // Midnight runs makers' callbacks. The rule is checked on the logs such a take would leave.
    const owner = getAddress('0x00000000000000000000000000000000000a11ce')
    const maker = getAddress('0x000000000000000000000000000000000000beef')
    const TRANSFER = toEventSelector('Transfer(address,address,uint256)')
    const APPROVAL = toEventSelector('Approval(address,address,uint256)')
    const word = (a: Address) => pad(a)
    const transfer = (token: Address, from: Address, to: Address, amount: bigint): SimulatedLog => ({
      address: token,
      topics: [TRANSFER, word(from), word(to)],
      data: toHex(amount, { size: 32 }),
    })
    const approval = (token: Address, spender: Address, amount: bigint): SimulatedLog => ({
      address: token,
      topics: [APPROVAL, word(owner), word(spender)],
      data: toHex(amount, { size: 32 }),
    })
    const paid = parseUnits('1000', 6)
    const fee = parseUnits('2', 6)
    const step: TxStep = { to: MIDNIGHT, data: '0x', value: 0n, description: 'take' }
    // A lend as fixedLend declares it: the loan token paid, and the exact approve to Midnight.
    const lend: OutflowPolicy = {
      mayLeave: [{ token: USDC, amount: paid }],
      mayApprove: [{ token: USDC, spender: MIDNIGHT, amount: paid }],
      source: 'Morpho Midnight',
    }
    const honestLend = [
      [approval(USDC, MIDNIGHT, paid)],
      [transfer(USDC, owner, MIDNIGHT, fee), transfer(USDC, owner, maker, paid - fee)],
    ]
    // A borrow with WETH collateral as fixedBorrow declares it: only the collateral supplied.
    const supplied = parseEther('1')
    const borrow: OutflowPolicy = {
      mayLeave: [{ token: WETH, amount: supplied }],
      mayApprove: [],
      source: 'Morpho Midnight',
    }
    const honestBorrow = [[transfer(WETH, owner, MIDNIGHT, supplied)], [transfer(USDC, maker, owner, paid)]]
    const outcome = (logs: SimulatedLog[][], policy: OutflowPolicy) => {
      try {
        assertOutflows(
          owner,
          logs.map(() => step),
          logs,
          policy,
        )
        return null
      } catch (err) {
        return err
      }
    }
    expect(outcome(honestLend, lend)).toBeNull()
    expect(outcome(honestBorrow, borrow)).toBeNull()
    const cases: [string, unknown, string][] = [
      [
        'lend + WETH to the maker',
        outcome([...honestLend, [transfer(WETH, owner, maker, STOLEN)]], lend),
        `takes ${STOLEN} of ${WETH} from the owner, a token the request never spends`,
      ],
      [
        'lend paying one more',
        outcome([...honestLend, [transfer(USDC, owner, maker, 1n)]], lend),
        `takes ${paid + 1n} of ${USDC} from the owner, more than the ${paid}`,
      ],
      [
        'lend + an approval of cbBTC',
        outcome([...honestLend, [approval(cbBTC, maker, maxUint256)]], lend),
        `grants ${maker} an allowance of ${maxUint256} of ${cbBTC}`,
      ],
      [
        'borrow costing loan token',
        outcome([...honestBorrow, [transfer(USDC, owner, maker, fee)]], borrow),
        `takes ${fee} of ${USDC} from the owner, a token the request never spends`,
      ],
      [
        'borrow taking more collateral',
        outcome([[transfer(WETH, owner, MIDNIGHT, supplied + 1n)]], borrow),
        `takes ${supplied + 1n} of ${WETH}`,
      ],
    ]
    for (const [name, err, message] of cases) {
      expect(err, name).toBeInstanceOf(UpstreamError)
      expect(err, name).toMatchObject({ status: 502, details: { upstream: 'Morpho Midnight' } })
      expect((err as UpstreamError).message, name).toContain(message)
    }
  })
})
