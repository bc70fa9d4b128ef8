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
