import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentRequired } from '@x402/core/types'
import { toClientEvmSigner } from '@x402/evm'
import {
  BatchSettlementEvmScheme,
  computeChannelId,
  InMemoryClientChannelStorage,
} from '@x402/evm/batch-settlement/client'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import type { Hex, PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { NETWORK } from '../src/chain/network.js'

/**
 * A bench payer on x402's `batch-settlement` rail, with the official client only (@x402/fetch's
 * x402Client and @x402/evm's batch-settlement client scheme): the first call opens the channel with a
 * deposit, paid through wrapFetchWithPayment as an agent would; the calls after are vouchers, signed
 * ahead by the same scheme so that the bench times the service, not the payer's signing.
 */
export interface VoucherAgent {
  channelId: Hex
  /** The first paid call: deposits `deposit` into a new channel and pays the call from it. */
  open(url: string): Promise<void>
  /**
   * The PAYMENT-SIGNATURE headers of the next `count` calls, in order: cumulative amounts one price apart
   * from what the service has charged. They are valid only if sent in that order, one after another.
   */
  presign(challenge: PaymentRequired, count: number): Promise<string[]>
}

export function voucherAgent(key: Hex, chain: PublicClient, deposit: bigint): VoucherAgent {
  const account = privateKeyToAccount(key)
  const storage = new InMemoryClientChannelStorage()
  const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(account, chain), {
    storage,
    depositStrategy: () => deposit,
  })
  // Only batch-settlement registered: the client picks the challenge's batch entry, never `exact`.
  const client = new x402Client().register(NETWORK, scheme)
  const pay = wrapFetchWithPayment(fetch, client)
  let channelId: Hex | undefined
  const channelOf = (challenge: PaymentRequired): Hex => {
    const entry = challenge.accepts.find((a) => a.scheme === 'batch-settlement')
    if (entry === undefined) throw new Error('the challenge offers no batch-settlement entry')
    return computeChannelId(scheme.buildChannelConfig(entry), NETWORK)
  }
  return {
    get channelId() {
      if (channelId === undefined) throw new Error('channel not opened yet')
      return channelId
    },
    async open(url) {
      const res = await pay(url)
      const body = await res.text()
      if (res.status !== 200) throw new Error(`deposit call answered ${res.status}: ${body.slice(0, 300)}`)
      const receipt = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '')
      if (!receipt.success) throw new Error(`deposit not settled: ${receipt.errorReason}`)
    },
    async presign(challenge, count) {
      channelId = channelOf(challenge)
      const storageKey = channelId.toLowerCase()
      const headers: string[] = []
      for (let i = 0; i < count; i++) {
        const payload = await client.createPaymentPayload(challenge)
        if ((payload.payload as { type?: unknown }).type !== 'voucher') {
          throw new Error('the client asked for a top-up: the deposit does not cover the calls')
        }
        headers.push(encodePaymentSignatureHeader(payload))
        // What the client books from each 200 (processPaymentResponse), booked ahead: the next voucher
        // covers one more call.
        const state = await storage.get(storageKey)
        const charged = BigInt(state?.chargedCumulativeAmount ?? '0') + BigInt(payload.accepted.amount)
        await storage.set(storageKey, { ...state, chargedCumulativeAmount: charged.toString() })
      }
      return headers
    },
  }
}
