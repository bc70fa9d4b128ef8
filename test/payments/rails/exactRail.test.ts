import { encodePaymentSignatureHeader } from '@x402/core/http'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { admitExact, type ExactAdmission } from '../../../src/payments/exact/admitExact.js'
import { challengeExtensions } from '../../../src/payments/gate/challengeExtensions.js'
import type { GateOutcome } from '../../../src/payments/gate/gateOutcome.js'
import { createPaymentGate } from '../../../src/payments/gate/paymentGate.js'
import type { PaymentError } from '../../../src/payments/paymentError.js'
import { getPricesRoute } from '../../../src/routes/prices/getPrices.js'
import { authorize } from '../../helpers/authorize.js'
import {
  exactAccepted,
  failed,
  gateRequest,
  type RailKit,
  railKit,
  refusedSettlement,
  served,
  threw,
} from '../../helpers/railKit.js'

const URL_ = 'http://127.0.0.1/v1/prices?symbols=ETH'
const PRICE = 1_000n

/** A signed `exact` payment of `amount` from a fresh key, as the header a client sends. */
async function signed(kit: RailKit, amount = PRICE) {
  const key = generatePrivateKey()
  const { payload } = await authorize(key, exactAccepted(kit.config, amount), { to: kit.config.payTo })
  return { header: encodePaymentSignatureHeader(payload), payload, payer: privateKeyToAccount(key).address }
}

/** The exact rail's first phase for one header, called as the gate calls it. */
function admission(kit: RailKit, header: string, request = gateRequest(URL_, header)) {
  const services = kit.services
  const challenge = () => ({ header: 'challenge', body: '{}' })
  const refuse = async (error: PaymentError): Promise<GateOutcome> => ({
    kind: 'refuse',
    challenge: { header: error.code, body: '{}' },
    discard: false,
  })
  const a: ExactAdmission = {
    services,
    decoded: JSON.parse(Buffer.from(header, 'base64').toString()),
    scope: 'GET /v1/prices',
    baseAmount: PRICE,
    currentAmount: PRICE,
    nowSec: Math.floor(Date.now() / 1000),
    ref: undefined,
    request,
    extensions: challengeExtensions(getPricesRoute, kit.config),
    retry: undefined,
    started: performance.now(),
    challenge: challenge as unknown as ExactAdmission['challenge'],
    refuse,
    retried: async () => ({ kind: 'pass' }),
  }
  return admitExact(a)
}

const settles = (kit: RailKit) => kit.facilitatorCalls.filter((c) => c.kind === 'settle').length
const refusedCode = (outcome: GateOutcome) =>
  outcome.kind === 'refuse' ? outcome.challenge.header : outcome.kind

describe('the exact rail: admit, then conclude with what the route did', () => {
  test('behavior: admitted for the signer with nothing settled; concluded served, it settles once and the authorization stays used', async () => {
    const kit = await railKit()
    const { header, payer } = await signed(kit)
    const admitted = await admission(kit, header)
    expect(admitted).toMatchObject({ kind: 'admitted', payer })
    expect(settles(kit)).toBe(0)
    if (admitted.kind !== 'admitted') return
    const outcome = await admitted.conclude(served)
    expect(outcome).toMatchObject({ kind: 'serve', receipt: { success: true, payer } })
    expect(settles(kit)).toBe(1)
    // The same authorization again: its claim is kept, money moved.
    const replay = await admission(kit, header)
    expect(replay.kind).toBe('decided')
    if (replay.kind === 'decided') expect(refusedCode(replay.result)).toBe('payment_replayed')
  })

  test('behavior: concluded with a failed route (500) or a thrown one, nothing settles and the same authorization pays again', async () => {
    const kit = await railKit()
    const { header, payer } = await signed(kit)
    for (const run of [failed, threw(new Error('handler blew up'))]) {
      const admitted = await admission(kit, header)
      expect(admitted).toMatchObject({ kind: 'admitted', payer })
      if (admitted.kind !== 'admitted') return
      const outcome = await admitted.conclude(run)
      expect(outcome.kind).toBe(run.ok ? 'pass' : 'error')
    }
    expect(settles(kit)).toBe(0)
    const again = await admission(kit, header)
    expect(again.kind).toBe('admitted')
    if (again.kind === 'admitted') expect((await again.conclude(served)).kind).toBe('serve')
    expect(settles(kit)).toBe(1)
  })

  test('error: a settlement the facilitator refuses is a 402 naming it, in place of the answer; the authorization is free again', async () => {
    const kit = await railKit()
    kit.settleWith(async () => refusedSettlement('invalid_exact_evm_payload_signature'))
    const { header } = await signed(kit)
    const admitted = await admission(kit, header)
    if (admitted.kind !== 'admitted') throw new Error('not admitted')
    const outcome = await admitted.conclude(served)
    expect(outcome).toMatchObject({ kind: 'refuse', discard: true })
    expect(settles(kit)).toBe(1)
  })

  test('error: an unfunded payer is decided at admission (payment_insufficient_funds), before the route', async () => {
    const kit = await railKit()
    kit.setBalance(PRICE - 1n)
    const { header } = await signed(kit)
    const decided = await admission(kit, header)
    expect(decided.kind).toBe('decided')
    if (decided.kind === 'decided') expect(refusedCode(decided.result)).toBe('payment_insufficient_funds')
    expect(kit.facilitatorCalls).toEqual([])
  })

  test('behavior: through the gate the route runs once, for the payer, between the two phases; a refused payment never runs it', async () => {
    const kit = await railKit()
    const gate = createPaymentGate(getPricesRoute, kit.services)
    const { header, payer } = await signed(kit)
    const paid = gateRequest(URL_, header)
    expect((await gate.admit(paid)).kind).toBe('serve')
    expect(paid.runs).toEqual([payer])

    const { payload } = await signed(kit)
    const wrongRecipient = encodePaymentSignatureHeader({
      ...payload,
      accepted: { ...payload.accepted, payTo: payer },
    })
    const refused = gateRequest(URL_, wrongRecipient)
    const outcome = await gate.admit(refused)
    expect(outcome.kind).toBe('refuse')
    expect(refused.runs).toEqual([])
    expect(settles(kit)).toBe(1)
  })
})
