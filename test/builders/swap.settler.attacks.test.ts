import {
  type Abi,
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { SwapAction } from '../../src/builders/swap/swap.js'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { zeroExStandInAbi } from '../../src/devnet/deploy/zeroEx.js'
import { builderClient, ownerWallet } from '../helpers/builderCalls.js'
import { testContracts } from '../helpers/compileSolidity.js'
import { expectMined } from '../helpers/expectMined.js'
import { type LyingZeroEx, lyingZeroEx, type ZeroExQuoteJson } from '../helpers/lyingZeroEx.js'
import { type Instance, useWorld } from '../helpers/serviceWorld.js'

/**
 * The second independent review of issue 22 (lying 0x quotes that pass the exec check): the Settler's own
 * slippage check zeroed (a pool armed after the answer, or any price move, then takes everything), its
 * output paid elsewhere, and a quote priced at 1 unit. Each is refused (502, not charged) and moves
 * nothing; before the fix each was a 200 whose steps, broadcast, lost the 100 USDC sold.
 */
const { USDC, cbBTC } = BASE_ADDRESSES
const SOLD = parseUnits('100', 6)

const sw = useWorld()
let zx: Instance
let client: ReturnType<typeof builderClient>
let pool: Address
let poolAbi: Abi
let hostile: LyingZeroEx
type Q = {
  buyAmount: string
  minBuyAmount: string
  transaction: { data: Hex } & Record<string, unknown>
} & Record<string, unknown>
let rewrite: ((q: Q) => Q) | null = null

beforeAll(async () => {
  const plain = await sw.instance()
  hostile = await lyingZeroEx(plain.config.upstreams.zeroEx)
  // Each test sets `rewrite`; between tests the quotes pass through untouched.
  hostile.set((q) => (rewrite === null ? q : (rewrite(q as Q) as ZeroExQuoteJson)))
  zx = await sw.instance({ ZEROX_API_KEY: 'test', ZEROX_API_URL: hostile.url })
  client = builderClient(sw, zx)
  const c = testContracts().get('ArmedPool')
  if (c === undefined) throw new Error('no ArmedPool')
  poolAbi = c.abi
  const deployer = ownerWallet(sw, 6)
  const receipt = await expectMined(
    sw.chain,
    await deployer.deployContract({ abi: c.abi, bytecode: c.bytecode }),
  )
  pool = getAddress(receipt.contractAddress ?? '0x')
  await expectMined(
    sw.chain,
    await deployer.writeContract({
      address: cbBTC,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [pool, parseUnits('1', 8)],
    }),
  )
}, 180_000)

afterAll(async () => {
  await hostile?.close()
})

const bal = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })

/**
 * Keeps the genuine exec(Settler, USDC, SOLD, Settler, ·) and the genuine TRANSFER_FROM; replaces the rest of
 * Settler.execute with one BASIC through `pool` paying `payout`, and sets the Settler's onchain minimum to
 * `minAmountOut`. JSON fields optionally overridden.
 */
function routeThroughPool(payout: (q: Q) => bigint, minAmountOut: bigint, json: Partial<Q> = {}) {
  return (q: Q): Q => {
    const exec = decodeFunctionData({ abi: zeroExStandInAbi, data: q.transaction.data })
    if (exec.functionName !== 'exec') throw new Error('no exec')
    const [operator, token, amount, target, inner] = exec.args
    const execute = decodeFunctionData({ abi: zeroExStandInAbi, data: inner })
    if (execute.functionName !== 'execute') throw new Error('no execute')
    const [slippage, actions, zid] = execute.args
    const swapData = encodeFunctionData({
      abi: poolAbi,
      functionName: 'swap',
      args: [USDC, 0n, cbBTC, payout(q)],
    })
    const basic = encodeFunctionData({
      abi: zeroExStandInAbi,
      functionName: 'BASIC',
      args: [USDC, 10_000n, pool, 36n, swapData],
    })
    const newExecute = encodeFunctionData({
      abi: zeroExStandInAbi,
      functionName: 'execute',
      args: [{ ...slippage, minAmountOut }, [actions[0] as Hex, basic], zid],
    })
    const data = encodeFunctionData({
      abi: zeroExStandInAbi,
      functionName: 'exec',
      args: [operator, token, amount, target, newExecute],
    })
    return { ...q, ...json, transaction: { ...q.transaction, data } }
  }
}

describe('lying 0x quotes inside a genuine exec', () => {
  test('attack: the Settler’s minAmountOut zeroed and a pool that behaves in simulation (armed after the answer) is refused 502, free; nothing moves', async () => {
    const owner = ownerWallet(sw, 5)
    const me = owner.account.address
    const before = { usdc: await bal(USDC, me), btc: await bal(cbBTC, me) }
    // Unarmed, the pool pays exactly the quote's real buyAmount: the answer would look honest.
    rewrite = routeThroughPool((q) => BigInt(q.buyAmount), 0n)
    const answer = await client.post<SwapAction>('/v1/tx/swap', {
      fromToken: USDC,
      toToken: cbBTC,
      fromAmount: SOLD.toString(),
      taker: me,
      slippageBps: 50,
    })
    rewrite = null
    expect(answer.status, JSON.stringify(answer.body)).toBe(502)
    expect(answer.body.error?.message).toMatch(/Settler enforces 0, below the minBuyAmount/)
    expect(answer.charged).toBe(0n)
    expect({ usdc: await bal(USDC, me), btc: await bal(cbBTC, me) }).toEqual(before)
  })

  test('attack: the honest route with only the Settler’s minAmountOut zeroed is refused 502, free (a trade landing first would have paid far below the answered minOut)', async () => {
    const owner = ownerWallet(sw, 3)
    const me = owner.account.address
    rewrite = (q: Q): Q => {
      const exec = decodeFunctionData({ abi: zeroExStandInAbi, data: q.transaction.data })
      if (exec.functionName !== 'exec') throw new Error('no exec')
      const [operator, token, amount, target, inner] = exec.args
      const execute = decodeFunctionData({ abi: zeroExStandInAbi, data: inner })
      if (execute.functionName !== 'execute') throw new Error('no execute')
      const [slippage, actions, zid] = execute.args
      const newExecute = encodeFunctionData({
        abi: zeroExStandInAbi,
        functionName: 'execute',
        args: [{ ...slippage, minAmountOut: 0n }, actions, zid],
      })
      const data = encodeFunctionData({
        abi: zeroExStandInAbi,
        functionName: 'exec',
        args: [operator, token, amount, target, newExecute],
      })
      return { ...q, transaction: { ...q.transaction, data } }
    }
    const answer = await client.post<SwapAction>('/v1/tx/swap', {
      fromToken: USDC,
      toToken: cbBTC,
      fromAmount: SOLD.toString(),
      taker: me,
      slippageBps: 50,
    })
    rewrite = null
    expect(answer.status, JSON.stringify(answer.body)).toBe(502)
    expect(answer.body.error?.message).toMatch(/Settler enforces 0/)
    expect(answer.charged).toBe(0n)
  })

  test('attack: the Settler paying the attacker, or pulling a second token through a standing allowance, is refused, free', async () => {
    const owner = ownerWallet(sw, 2)
    const me = owner.account.address
    const attacker = getAddress('0x000000000000000000000000000000000000dEaD')
    const inner = (q: Q) => {
      const exec = decodeFunctionData({ abi: zeroExStandInAbi, data: q.transaction.data })
      if (exec.functionName !== 'exec') throw new Error('no exec')
      const execute = decodeFunctionData({ abi: zeroExStandInAbi, data: exec.args[4] })
      if (execute.functionName !== 'execute') throw new Error('no execute')
      return { exec: exec.args, execute: execute.args }
    }
    const wrap = (q: Q, e: ReturnType<typeof inner>, slippage: unknown, actions: Hex[]) => {
      const newExecute = encodeFunctionData({
        abi: zeroExStandInAbi,
        functionName: 'execute',
        args: [slippage as never, actions, e.execute[2]],
      })
      const [operator, token, amount, target] = e.exec
      const data = encodeFunctionData({
        abi: zeroExStandInAbi,
        functionName: 'exec',
        args: [operator, token, amount, target, newExecute],
      })
      return { ...q, transaction: { ...q.transaction, data } }
    }
    const body = { fromToken: USDC, toToken: cbBTC, fromAmount: SOLD.toString(), taker: me, slippageBps: 50 }
    rewrite = (q) => {
      const e = inner(q)
      return wrap(q, e, { ...e.execute[0], recipient: attacker }, [...e.execute[1]])
    }
    const a1 = await client.post<SwapAction>('/v1/tx/swap', body)
    expect(a1.status).toBe(502)
    expect(a1.body.error?.message).toMatch(/Settler pays 0x0+dEaD, not the owner/i)
    expect(a1.charged).toBe(0n)
    await expectMined(
      sw.chain,
      await owner.writeContract({
        address: BASE_ADDRESSES.WETH,
        abi: erc20Abi,
        functionName: 'approve',
        args: [BASE_ADDRESSES.ZeroExAllowanceHolder, 2n ** 256n - 1n],
      }),
    )
    rewrite = (q) => {
      const e = inner(q)
      const first = decodeFunctionData({ abi: zeroExStandInAbi, data: e.execute[1][0] as Hex })
      if (first.functionName !== 'TRANSFER_FROM') throw new Error('x')
      const [, permit, sig] = first.args
      const wethPull = encodeFunctionData({
        abi: zeroExStandInAbi,
        functionName: 'TRANSFER_FROM',
        args: [attacker, { ...permit, permitted: { token: BASE_ADDRESSES.WETH, amount: 10n ** 18n } }, sig],
      })
      return wrap(q, e, e.execute[0], [...e.execute[1], wethPull])
    }
    const a2 = await client.post<SwapAction>('/v1/tx/swap', body)
    rewrite = null
    expect(a2.status).not.toBe(200)
    expect(a2.charged).toBe(0n)
  })

  test('attack: a quote priced at 1 unit (its own buyAmount and minBuyAmount 1) through a pool of its choosing is refused 502 against the onchain pools’ price, free', async () => {
    const owner = ownerWallet(sw, 4)
    const me = owner.account.address
    const c = testContracts().get('ArmedPool')
    if (c === undefined) throw new Error('no ArmedPool')
    const deployer = ownerWallet(sw, 6)
    const r = await expectMined(sw.chain, await deployer.deployContract({ abi: c.abi, bytecode: c.bytecode }))
    pool = getAddress(r.contractAddress ?? '0x')
    await expectMined(
      sw.chain,
      await deployer.writeContract({
        address: cbBTC,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [pool, 10n],
      }),
    )
    const before = { usdc: await bal(USDC, me), btc: await bal(cbBTC, me) }
    rewrite = routeThroughPool(() => 1n, 1n, { buyAmount: '1', minBuyAmount: '1' })
    const answer = await client.post<SwapAction>('/v1/tx/swap', {
      fromToken: USDC,
      toToken: cbBTC,
      fromAmount: SOLD.toString(),
      taker: me,
      slippageBps: 50,
    })
    rewrite = null
    expect(answer.status, JSON.stringify(answer.body)).toBe(502)
    expect(answer.body.error?.message).toMatch(/buyAmount 1 is more than 100 bps below the onchain pools'/)
    expect(answer.charged).toBe(0n)
    expect({ usdc: await bal(USDC, me), btc: await bal(cbBTC, me) }).toEqual(before)
  })
})
