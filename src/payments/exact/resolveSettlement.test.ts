import type { SettleResponse } from '@x402/core/types'
import { describe, expect, test } from 'vitest'
import { resolveSettlement } from './resolveSettlement.js'

const NETWORK = 'eip155:8453'
const refused = (errorReason: string, transaction = ''): SettleResponse =>
  ({ success: false, errorReason, transaction, network: NETWORK }) as SettleResponse

describe('resolveSettlement', () => {
  test('error: a used-nonce refusal whose chain check cannot be read is unknown (not served, row kept pending), never a throw', async () => {
    const outcome = await resolveSettlement(
      async () => refused('invalid_exact_evm_nonce_already_used'),
      async () => {
        throw new Error('the RPC refused the batch')
      },
    )
    expect(outcome).toEqual({ kind: 'unknown', reason: 'settlement_check_failed' })
  })

  test('behavior: a used-nonce refusal the chain shows paid us is paid with that transaction', async () => {
    const outcome = await resolveSettlement(
      async () => refused('invalid_exact_evm_nonce_already_used'),
      async () => ({ kind: 'paid', txHash: '0xabc' }),
    )
    expect(outcome).toEqual({ kind: 'paid', transaction: '0xabc' })
  })
})

describe('resolveSettlement: a reported success is checked against the chain', () => {
  const success = { success: true, transaction: '0xaaa', network: NETWORK } as SettleResponse

  test('error: a success whose transaction did not use this authorization (a cached answer for another) is refused, not served', async () => {
    const outcome = await resolveSettlement(
      async () => success,
      async () => ({ kind: 'unpaid', reason: 'settlement_reverted', txHash: '0xaaa' }),
    )
    expect(outcome).toEqual({
      kind: 'refused',
      code: 'payment_settlement_failed',
      keepClaim: false,
      transaction: '0xaaa',
      payerAtFault: false,
    })
  })

  test('behavior: a success the chain confirms is paid; one our node cannot see yet is pending, booked later from the chain', async () => {
    const paid = await resolveSettlement(
      async () => success,
      async () => ({ kind: 'paid', txHash: '0xaaa' }),
    )
    expect(paid).toEqual({ kind: 'paid', transaction: '0xaaa' })
    const pending = await resolveSettlement(
      async () => success,
      async () => ({ kind: 'pending' }),
    )
    expect(pending).toEqual({ kind: 'pending', transaction: '0xaaa' })
  })

  test('behavior: the receipt the facilitator waited for is handed to the chain check (no second read)', async () => {
    const receipt = { transactionHash: '0xaaa' } as never
    let seen: unknown
    await resolveSettlement(
      async () => ({ ...success, receipt }),
      async (_hash, r) => {
        seen = r
        return { kind: 'paid', txHash: '0xaaa' }
      },
    )
    expect(seen).toBe(receipt)
  })

  test('error: a mined settlement that reverted puts the payer at fault; a gas-limit refusal too', async () => {
    const reverted = await resolveSettlement(
      async () => refused('invalid_exact_evm_transaction_failed', '0xbbb'),
      async () => ({ kind: 'unpaid', reason: 'settlement_reverted', txHash: '0xbbb' }),
    )
    expect(reverted).toMatchObject({ kind: 'refused', payerAtFault: true })
    const gas = await resolveSettlement(
      async () => refused('agentdesk_settlement_gas_limit'),
      async () => ({ kind: 'pending' }),
    )
    expect(gas).toMatchObject({ kind: 'refused', code: 'payment_gas_limit_exceeded', payerAtFault: true })
  })

  test('behavior: a failure before any broadcast is a certain, free refusal, not an unknown outcome', async () => {
    const outcome = await resolveSettlement(
      async () => refused('agentdesk_settlement_not_broadcast'),
      async () => ({ kind: 'pending' }),
    )
    expect(outcome).toMatchObject({ kind: 'refused', code: 'payment_settlement_failed', payerAtFault: false })
    const generic = await resolveSettlement(
      async () => refused('invalid_exact_evm_transaction_failed'),
      async () => ({ kind: 'pending' }),
    )
    expect(generic).toEqual({ kind: 'unknown', reason: 'invalid_exact_evm_transaction_failed' })
  })
})
