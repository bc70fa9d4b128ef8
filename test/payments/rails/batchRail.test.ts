import { encodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types'
import { keccak256, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { NETWORK, USDC } from '../../../src/chain/network.js'
import { loadConfig } from '../../../src/config.js'
import type { BatchRail } from '../../../src/payments/batch/batchRail.js'
import type { GateOutcome } from '../../../src/payments/gate/gateOutcome.js'
import { createPaymentGate } from '../../../src/payments/gate/paymentGate.js'
import { getPricesRoute } from '../../../src/routes/prices/getPrices.js'
import { gateRequest, type RailKit, railKit } from '../../helpers/railKit.js'

const URL_ = 'http://127.0.0.1/v1/prices?symbols=ETH'
const ZERO = '0x0000000000000000000000000000000000000000'

/**
 * The batch rail's side of x402's resource server, faked: what our rail asks of @x402/evm's server scheme
 * (verify a voucher, commit its charge, release its reservation), recorded. The official scheme itself runs
 * in the devnet tests (test/payments/batchSettlement.test.ts and the batch attack files).
 */
function fakeBatch(payTo: `0x${string}`) {
  const calls = { verify: 0, settle: 0, cancel: 0, claimSoon: [] as string[] }
  let verdict: { isValid: boolean; invalidReason?: string; extra?: Record<string, unknown> } = {
    isValid: true,
  }
  const entry = (amount: bigint): PaymentRequirements => ({
    scheme: 'batch-settlement',
    network: NETWORK,
    asset: USDC,
    amount: amount.toString(),
    payTo,
    maxTimeoutSeconds: 120,
    extra: { receiverAuthorizer: payTo, withdrawDelay: 86_400 },
  })
  const rail = {
    requirements: async (amount: bigint) => entry(amount),
    server: {
      verifyPayment: async () => {
        calls.verify++
        return verdict
      },
      settlePayment: async (payload: PaymentPayload): Promise<SettleResponse> => {
        calls.settle++
        const voucher = (payload.payload as { voucher: { channelId: string; maxClaimableAmount: string } })
          .voucher
        return {
          success: true,
          transaction: '',
          network: NETWORK,
          extra: {
            channelState: {
              channelId: voucher.channelId,
              chargedCumulativeAmount: voucher.maxClaimableAmount,
            },
          },
        }
      },
      createPaymentCancellationDispatcher: () => ({
        cancel: async () => {
          calls.cancel++
        },
      }),
    },
    scheme: {
      getStorage: () => ({ updateChannel: async () => undefined, get: async () => undefined }),
      enrichPaymentRequiredResponse: async () => undefined,
    },
    claimSoon: (id: string) => calls.claimSoon.push(id),
    noteRefundClaim: () => undefined,
  } as unknown as BatchRail
  return { rail, calls, verdictIs: (v: typeof verdict) => (verdict = v) }
}

/** A voucher header for a channel of `payer`, signed (as far as this fake cares) by `authorizer`. */
function voucherHeader(kit: RailKit, payer: `0x${string}`, authorizer: `0x${string}`, cumulative = 1_000n) {
  const payTo = kit.config.payTo
  const channelId = keccak256(toHex(`channel-${payer}-${authorizer}`))
  return encodePaymentSignatureHeader({
    x402Version: 2,
    accepted: {
      scheme: 'batch-settlement',
      network: NETWORK,
      asset: USDC,
      amount: '1000',
      payTo,
      maxTimeoutSeconds: 120,
      extra: {},
    },
    payload: {
      type: 'voucher',
      channelConfig: {
        payer,
        payerAuthorizer: authorizer,
        receiver: payTo,
        receiverAuthorizer: payTo,
        token: USDC,
        withdrawDelay: 86_400,
        salt: keccak256(toHex('salt')),
      },
      voucher: { channelId, maxClaimableAmount: cumulative.toString(), signature: `0x${'11'.repeat(65)}` },
    },
  })
}

async function setup() {
  const batch = fakeBatch(loadConfig({}).payTo)
  const kit = await railKit({ batch: batch.rail })
  const gate = createPaymentGate(getPricesRoute, kit.services)
  const payer = privateKeyToAccount(generatePrivateKey()).address
  return { kit, batch, gate, payer }
}

/** The refusal's code, as the 402 body names it (`error`). */
const codeOf = (outcome: GateOutcome) =>
  outcome.kind === 'refuse' ? (JSON.parse(outcome.challenge.body) as { error?: string }).error : outcome.kind

describe('the batch-settlement rail: admit (the voucher verified, its channel reserved), then conclude', () => {
  test('behavior: a verified voucher runs the route once for its payer, then its charge is committed once', async () => {
    const { batch, gate, payer, kit } = await setup()
    const request = gateRequest(URL_, voucherHeader(kit, payer, payer))
    const outcome = await gate.admit(request)
    expect(outcome).toMatchObject({ kind: 'serve', receipt: { success: true, payer } })
    expect(request.runs).toEqual([payer])
    expect(batch.calls).toMatchObject({ verify: 1, settle: 1, cancel: 0 })
  })

  test('behavior: a failed route (500) or a thrown one releases the reservation and commits nothing', async () => {
    const { batch, gate, payer, kit } = await setup()
    expect(
      (await gate.admit(gateRequest(URL_, voucherHeader(kit, payer, payer), { status: 500 }))).kind,
    ).toBe('pass')
    const thrown = await gate.admit(
      gateRequest(URL_, voucherHeader(kit, payer, payer), { throws: new Error('handler blew up') }),
    )
    expect(thrown.kind).toBe('error')
    expect(batch.calls).toMatchObject({ verify: 2, settle: 0, cancel: 2 })
  })

  test('attack: a channel whose vouchers another key signs runs the route for no proven wallet', async () => {
    const { gate, payer, kit } = await setup()
    const other = privateKeyToAccount(generatePrivateKey()).address
    const request = gateRequest(URL_, voucherHeader(kit, payer, other))
    expect((await gate.admit(request)).kind).toBe('serve')
    expect(request.runs).toEqual([undefined])
  })

  test('attack: a zero payerAuthorizer is refused before the scheme verifies anything; the route never runs', async () => {
    const { batch, gate, payer, kit } = await setup()
    const request = gateRequest(URL_, voucherHeader(kit, payer, ZERO))
    const outcome = await gate.admit(request)
    expect(codeOf(outcome)).toBe('payment_channel_authorizer_required')
    expect(request.runs).toEqual([])
    expect(batch.calls.verify).toBe(0)
  })

  test('error: a channel with a withdrawal pending is refused, its reservation released, its claim asked at once', async () => {
    const { batch, gate, payer, kit } = await setup()
    batch.verdictIs({ isValid: true, extra: { withdrawRequestedAt: 1_700_000_000 } })
    const request = gateRequest(URL_, voucherHeader(kit, payer, payer))
    const outcome = await gate.admit(request)
    expect(codeOf(outcome)).toBe('payment_channel_withdrawing')
    expect(request.runs).toEqual([])
    expect(batch.calls).toMatchObject({ settle: 0, cancel: 1 })
    expect(batch.calls.claimSoon).toHaveLength(1)
  })

  test('error: a voucher the scheme refuses is a 402 with its code; nothing runs or commits', async () => {
    const { batch, gate, payer, kit } = await setup()
    batch.verdictIs({ isValid: false, invalidReason: 'invalid_batch_settlement_evm_voucher_signature' })
    const request = gateRequest(URL_, voucherHeader(kit, payer, payer))
    expect(codeOf(await gate.admit(request))).toBe('payment_invalid_signature')
    expect(request.runs).toEqual([])
    expect(batch.calls).toMatchObject({ settle: 0 })
  })
})
