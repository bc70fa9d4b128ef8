import { decodeFunctionData, erc20Abi, type Hex, parseAbi, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import type { BurnAction } from '../../src/builders/burn.js'
import type { BuilderIssues } from '../../src/builders/txStep.js'
import { DEAD_ADDRESS, DEVNET_UTIL_TOKEN } from '../../src/chain/addresses.js'
import { broadcast, builderClient, expectEnvelope, ownerWallet, selectorOf } from '../helpers/builderCalls.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The UTIL burn builder, paid with the official x402 client, broadcast from demo accounts and checked
// against UTIL's onchain balances and supply.
const UTIL = DEVNET_UTIL_TOKEN
/** The devnet UtilToken's own view (contracts/UtilToken.sol): totalSupply − balanceOf(dead). */
const circulatingAbi = parseAbi(['function circulatingSupply() view returns (uint256)'])

const sw = useWorld()
const svc = useInstance(sw)
const client = builderClient(sw, svc)

const utilOf = (who: Hex) =>
  sw.chain.readContract({ address: UTIL, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
const totalSupply = () => sw.chain.readContract({ address: UTIL, abi: erc20Abi, functionName: 'totalSupply' })
const circulating = () =>
  sw.chain.readContract({ address: UTIL, abi: circulatingAbi, functionName: 'circulatingSupply' })

async function burnAndCheck(index: number, amount: bigint) {
  const owner = ownerWallet(sw, index)
  const me = owner.account.address
  const [supplyBefore, deadBefore] = await Promise.all([totalSupply(), utilOf(DEAD_ADDRESS)])
  const answer = await client.post<BurnAction>('/v1/tx/burn', { amount: amount.toString(), owner: me })
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  expect(answer.charged).toBeGreaterThan(0n)
  const built = answer.body
  expectEnvelope(built, me)
  expect(built.steps).toHaveLength(1)
  expect(built.steps[0]?.to).toBe(UTIL)
  expect(selectorOf(built.steps[0]?.data as string)).toBe('0xa9059cbb')
  const call = decodeFunctionData({ abi: erc20Abi, data: built.walletSendCalls.calls[0]?.data as Hex })
  expect(call).toEqual({ functionName: 'transfer', args: [DEAD_ADDRESS, amount] })
  expect(built.issues).toEqual({ balance: null, allowance: null })
  expect(built.action).toEqual({
    type: 'burn',
    token: UTIL,
    burnAddress: DEAD_ADDRESS,
    amount: amount.toString(),
    totalSupply: supplyBefore.toString(),
    burnedAfter: (deadBefore + amount).toString(),
    supplyAfter: (supplyBefore - deadBefore - amount).toString(),
  })
  expect(built.simulation.balanceChanges).toEqual([
    expect.objectContaining({ token: UTIL, delta: (-amount).toString() }),
  ])

  const ownerBefore = await utilOf(me)
  await broadcast(sw.chain, owner, built)
  const [ownerAfter, deadAfter, supplyAfter, circulatingAfter] = await Promise.all([
    utilOf(me),
    utilOf(DEAD_ADDRESS),
    totalSupply(),
    circulating(),
  ])
  expect(ownerBefore - ownerAfter).toBe(amount)
  expect(deadAfter - deadBefore).toBe(amount)
  // totalSupply does not move on a burn; the circulating supply reported is what the chain now says.
  expect(supplyAfter).toBe(supplyBefore)
  expect(BigInt(built.action.burnedAfter)).toBe(deadAfter)
  expect(BigInt(built.action.supplyAfter)).toBe(supplyAfter - deadAfter)
  expect(BigInt(built.action.supplyAfter)).toBe(circulatingAfter)
  return built
}

describe('burn builder (UTIL to the dead address)', () => {
  test('behavior: a burn moves exactly the amount to the dead address and reports the supply after it', async () => {
    await burnAndCheck(2, parseUnits('250000', 18))
  })

  test('behavior: burns accumulate: the next burn’s supplyAfter counts every burn before it', async () => {
    const first = await burnAndCheck(3, parseUnits('1000', 18))
    const second = await burnAndCheck(4, 1n)
    expect(BigInt(first.action.supplyAfter) - BigInt(second.action.supplyAfter)).toBe(1n)
  })

  test('error: a shortfall, the dead address as owner and bad bodies are refused, uncharged', async () => {
    const me = ownerWallet(sw, 5).account.address
    const holding = await utilOf(me)
    const [short, dead, zero, fraction, missing, extra] = await Promise.all([
      client.post('/v1/tx/burn', { amount: (holding + 1n).toString(), owner: me }),
      client.post('/v1/tx/burn', { amount: '1', owner: DEAD_ADDRESS }),
      client.post('/v1/tx/burn', { amount: '0', owner: me }),
      client.post('/v1/tx/burn', { amount: '1.5', owner: me }),
      client.post('/v1/tx/burn', { amount: '1' }),
      client.post('/v1/tx/burn', { amount: '1', owner: me, to: DEAD_ADDRESS }),
    ])
    expect(short.status).toBe(422)
    expect(short.body.error).toMatchObject({ code: 'insufficient_balance', field: 'amount' })
    expect(short.body.error?.details?.issues as BuilderIssues).toEqual({
      balance: { token: UTIL, actual: holding.toString(), expected: (holding + 1n).toString() },
      allowance: null,
    })
    expect(dead.status).toBe(422)
    expect(dead.body.error).toMatchObject({ code: 'owner_is_burn_address', field: 'owner' })
    for (const [bad, field] of [
      [zero, 'amount'],
      [fraction, 'amount'],
      [missing, 'owner'],
      [extra, 'to'],
    ] as const) {
      expect(bad.status, JSON.stringify(bad.body)).toBe(400)
      expect(bad.body.error?.field).toBe(field)
    }
    for (const a of [short, dead, zero, fraction, missing, extra]) expect(a.charged).toBe(0n)
    expect(await utilOf(me)).toBe(holding)
  })

  test('error: on a profile without UTIL the burn is 501 util_not_deployed, uncharged', async () => {
    // A second instance whose config has no UTIL token, as on a network where UTIL_TOKEN is unset.
    const bare = await sw.instance()
    bare.services.deps.config.utilToken = null
    const answer = await builderClient(sw, bare).post('/v1/tx/burn', {
      amount: '1',
      owner: ownerWallet(sw, 6).account.address,
    })
    expect(answer.status).toBe(501)
    expect(answer.body.error?.code).toBe('util_not_deployed')
    expect(answer.charged).toBe(0n)
  })
})
