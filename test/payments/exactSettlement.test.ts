import { decodePaymentResponseHeader } from '@x402/core/http'
import { ERC_8021_MARKER } from '@x402/extensions/builder-code'
import { decodeFunctionData, type Hex, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { pay } from '../helpers/attackKit.js'
import { challengeOf, type ServiceWorld, signChallenge, startServiceWorld } from '../helpers/serviceWorld.js'

// The `exact` settlement of a plain EOA payer (issue 24): sent directly, one signed
// transferWithAuthorization(v, r, s) with a learned gas limit, and a payer that is the payTo refused.

const PRICES = '/v1/prices?symbols=BTC'
const PRICE = 1_000n
const TRANSFER = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
])

let sw: ServiceWorld

beforeAll(async () => {
  sw = await startServiceWorld()
  // Base's blocks: each settlement is answered when a 200 ms block includes it.
  await sw.world.setBlockTime(0.2)
}, 120_000)
afterAll(async () => {
  await sw?.stop()
})

describe('exact settlement of a plain EOA', () => {
  test('behavior: each paid call settles in one transferWithAuthorization(v, r, s) to USDC carrying the builder-code suffix and the same learned gas limit, and pays exactly the price', async () => {
    const svc = await sw.instance()
    try {
      const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
      const payTo = svc.config.payTo
      const payToBefore = await sw.usdcBalance(payTo)
      const limits: bigint[] = []
      for (let i = 0; i < 3; i++) {
        const who = await sw.freshWallet(10n * PRICE)
        const res = await pay(
          `${svc.url}${PRICES}`,
          await signChallenge(who, await challengeOf(`${svc.url}${PRICES}`)),
        )
        expect(res.status).toBe(200)
        const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') as string)
        expect(receipt.success).toBe(true)
        const tx = await sw.chain.getTransaction({ hash: receipt.transaction as Hex })
        const mined = await sw.chain.getTransactionReceipt({ hash: tx.hash })
        expect(mined.status).toBe('success')
        expect(tx.from.toLowerCase()).toBe(relayer.toLowerCase())
        expect(tx.to?.toLowerCase()).toBe(USDC.toLowerCase())
        const call = decodeFunctionData({ abi: TRANSFER, data: tx.input })
        expect(call.args[0].toLowerCase()).toBe(who.account.address.toLowerCase())
        expect(call.args[2]).toBe(PRICE)
        expect(tx.input.endsWith(ERC_8021_MARKER)).toBe(true)
        expect(mined.gasUsed).toBeLessThan(tx.gas)
        limits.push(tx.gas)
        expect(await sw.usdcBalance(who.account.address)).toBe(9n * PRICE)
      }
      // Learned once (one capped estimate, 25% margin), then reused: no estimate per settlement.
      expect(new Set(limits).size).toBe(1)
      expect(limits[0]).toBeLessThanOrEqual(svc.config.payments.settlementGasLimit)
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore + 3n * PRICE)
    } finally {
      await svc.stop()
    }
  })

  test('attack: a payment whose payer is the payTo address is refused (402 payment_self_payment), broadcasts nothing and moves nothing', async () => {
    const owner = await sw.freshWallet(10n * PRICE)
    const svc = await sw.instance({ PAY_TO: owner.account.address })
    try {
      const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
      const nonceBefore = await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' })
      const challenge = await challengeOf(`${svc.url}${PRICES}`)
      expect(challenge.accepts[0]?.payTo.toLowerCase()).toBe(owner.account.address.toLowerCase())
      const res = await pay(`${svc.url}${PRICES}`, await signChallenge(owner, challenge))
      expect([res.status, res.code]).toEqual([402, 'payment_self_payment'])
      expect(await sw.usdcBalance(owner.account.address)).toBe(10n * PRICE)
      expect(await sw.chain.getTransactionCount({ address: relayer, blockTag: 'pending' })).toBe(nonceBefore)
      expect(await svc.services.deps.ledger.byPayer(owner.account.address)).toEqual([])
    } finally {
      await svc.stop()
    }
  })
})
