import type { PaymentPayload } from '@x402/core/types'
import { type Channel, InMemoryChannelStorage } from '@x402/evm/batch-settlement/server'
import { describe, expect, test } from 'vitest'
import type { OnchainChannel } from '../../chain/batchChannels.js'
import { createLogger } from '../../logger.js'
import type { Facilitator } from '../facilitator/createFacilitator.js'
import { type ClaimRoundDeps, claimRound, FROZEN } from './claimRound.js'

// The round's decisions against a facilitator that answers as x402's does for each kind of failure (the
// devnet tests in test/payments/batchClaims.attacks.test.ts run the real one; these pin the faults a devnet
// cannot make on demand: a node's 429 inside the simulation, a gas estimate that reverts, a node a block behind).
const PAY_TO = '0x00000000000000000000000000000000000000aa'
const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

function channel(n: number, charged: bigint): Channel {
  return {
    channelId: id(n),
    channelConfig: {
      payer: `0x${n.toString(16).padStart(40, '0')}`,
      payerAuthorizer: `0x${n.toString(16).padStart(40, '0')}`,
      receiver: PAY_TO,
      receiverAuthorizer: PAY_TO,
      token: PAY_TO,
      withdrawDelay: 900,
      salt: id(0) as `0x${string}`,
    },
    chargedCumulativeAmount: charged.toString(),
    signedMaxClaimable: charged.toString(),
    signature: '0x01',
    balance: '100000',
    totalClaimed: '0',
    withdrawRequestedAt: 0,
    refundNonce: 0,
    onchainSyncedAt: Date.now(),
    lastRequestTimestamp: Date.now(),
  }
}

/** A facilitator whose claim of a batch holding `poisoned` fails with `answer`; every other batch lands. */
function world(channels: Channel[], poisoned: string, answer: { errorReason: string; errorMessage: string }) {
  const storage = new InMemoryChannelStorage()
  const sent: number[] = []
  // What the contract holds as claimed, per channel: a claim that lands raises it.
  const claimedOnchain = new Map<string, bigint>()
  const facilitator = {
    settle: async (payload: PaymentPayload) => {
      type Claim = { voucher: { channel: { payer: string } }; totalClaimed: string }
      const claims = (payload.payload as { claims: Claim[] }).claims
      sent.push(claims.length)
      const ids = claims.map((c) => id(Number.parseInt(c.voucher.channel.payer, 16)))
      if (ids.includes(poisoned))
        return { success: false, transaction: '', network: 'eip155:8453', ...answer }
      for (const [i, c] of claims.entries()) claimedOnchain.set(ids[i] as string, BigInt(c.totalClaimed))
      return { success: true, transaction: `0x${'11'.repeat(32)}`, network: 'eip155:8453' }
    },
  } as unknown as Facilitator
  let reads = 0
  const onchain = (balance: (n: number) => bigint) => async (ids: readonly string[]) => {
    reads++
    return new Map<string, OnchainChannel>(
      ids.map((i) => [
        i.toLowerCase(),
        {
          balance: balance(Number.parseInt(i, 16)),
          totalClaimed: claimedOnchain.get(i.toLowerCase()) ?? 0n,
          withdrawInitiatedAt: 0,
        },
      ]),
    )
  }
  const closed: string[] = []
  const reopened: string[] = []
  const deps = (balance: (n: number) => bigint = () => 100_000n): ClaimRoundDeps => ({
    storage,
    facilitator,
    payTo: PAY_TO,
    maxClaimsPerBatch: 4,
    readChannels: onchain(balance),
    closeUnclaimed: async (channelId) => {
      closed.push(channelId)
      return 1
    },
    reopenClaimed: async (channelId) => {
      reopened.push(channelId)
      return 1
    },
    receiverAuthorizer: PAY_TO,
    logger: createLogger('silent'),
  })
  return {
    storage,
    sent,
    closed,
    reopened,
    deps,
    reads: () => reads,
    async load() {
      for (const c of channels) await storage.updateChannel(c.channelId, () => c)
    },
  }
}

describe('claimRound', () => {
  test('attack: a row whose claim transaction reverts at its gas estimate is isolated and frozen; the other seven are claimed in the round', async () => {
    const channels = Array.from({ length: 8 }, (_, i) => channel(i + 1, 1000n))
    const w = world(channels, id(3), {
      errorReason: 'invalid_batch_settlement_evm_claim_transaction_failed',
      errorMessage: 'Execution reverted with reason: custom error 0x8baa579f.',
    })
    await w.load()
    const round = await claimRound(w.deps())
    expect(round.dropped.map((d) => [d.channelId, d.reason])).toEqual([[id(3), 'claim_reverted']])
    expect(round.claims.reduce((n, c) => n + c.vouchers, 0)).toBe(7)
    expect((await w.storage.get(id(3)))?.onchainSyncedAt).toBe(FROZEN)
    expect((await w.storage.get(id(3)))?.balance).toBe('0')
    for (const n of [1, 2, 4, 5, 6, 7, 8]) expect((await w.storage.get(id(n)))?.totalClaimed).toBe('1000')
    expect(w.closed).toEqual([id(3)])
    // Frozen, it is tried again alone (the revert may have been a node's view) and fails alone: the next
    // round sends one claim, books nothing again, and holds no one back.
    const sentBefore = w.sent.length
    const next = await claimRound(w.deps())
    expect(next).toMatchObject({ claims: [], dropped: [], skipped: [id(3)] })
    expect(w.sent.slice(sentBefore)).toEqual([1])
    expect(w.closed).toEqual([id(3)])
  })

  test('attack: a lone claim that fails on a node’s 429 inside the simulation is skipped, never frozen', async () => {
    const w = world([channel(1, 5000n)], id(1), {
      errorReason: 'invalid_batch_settlement_evm_claim_simulation_failed',
      errorMessage: 'HTTP request failed. Status: 429',
    })
    await w.load()
    const round = await claimRound(w.deps(), [id(1)])
    expect(round).toMatchObject({ dropped: [], claims: [], skipped: [id(1)] })
    expect(await w.storage.get(id(1))).toMatchObject({ chargedCumulativeAmount: '5000', balance: '100000' })
    expect(w.closed).toEqual([])
  })

  test('error: a facilitator that is down ends the round; nothing is frozen', async () => {
    const w = world([channel(1, 1000n), channel(2, 1000n)], id(1), {
      errorReason: 'unexpected_settle_error',
      errorMessage: 'fetch failed',
    })
    await w.load()
    await expect(claimRound(w.deps())).rejects.toThrow(/unexpected_settle_error/)
    expect(w.closed).toEqual([])
  })

  test('attack: a node one block behind (a deposit not seen yet) does not freeze a channel: the second read must agree', async () => {
    const w = world([channel(1, 5000n)], id(99), { errorReason: '', errorMessage: '' })
    await w.load()
    let first = true
    // The first read shows less than the channel charged; the confirmation read shows the deposit.
    const deps = w.deps(() => {
      const balance = first ? 2000n : 100_000n
      first = false
      return balance
    })
    const round = await claimRound(deps)
    expect(round.dropped).toEqual([])
    expect(w.closed).toEqual([])
    expect((await w.storage.get(id(1)))?.onchainSyncedAt).not.toBe(FROZEN)
  })

  test('attack: a batch failing on a node’s fault at the send (no revert) is not halved into a storm: one attempt, every row left for the next round', async () => {
    const channels = Array.from({ length: 4 }, (_, i) => channel(i + 1, 1000n))
    const w = world(channels, id(2), {
      errorReason: 'invalid_batch_settlement_evm_claim_transaction_failed',
      errorMessage: 'HTTP request failed. Status: 429',
    })
    await w.load()
    const round = await claimRound(w.deps())
    expect(w.sent).toEqual([4])
    expect(round).toMatchObject({ claims: [], dropped: [] })
    expect(round.skipped).toHaveLength(4)
  })

  test('behavior: a frozen channel that comes to hold more is claimed after all: its calls settled again, unfrozen when whole', async () => {
    const w = world([{ ...channel(1, 5000n), balance: '0', onchainSyncedAt: FROZEN }], id(99), {
      errorReason: '',
      errorMessage: '',
    })
    await w.load()
    // Still holding what it held when frozen: left alone.
    expect((await claimRound(w.deps(() => 0n))).claims).toEqual([])
    // A deposit: it holds 100,000 now, and the round claims all 5,000 it was charged.
    const round = await claimRound(w.deps())
    expect(round.claims.map((c) => c.vouchers)).toEqual([1])
    expect(w.reopened).toEqual([id(1)])
    expect(await w.storage.get(id(1))).toMatchObject({ totalClaimed: '5000' })
    expect((await w.storage.get(id(1)))?.onchainSyncedAt).toBeUndefined()
  })

  test('behavior: a channel naming another receiverAuthorizer (a rotated key) is skipped and does not hold the others back', async () => {
    const other = { ...channel(1, 1000n) }
    other.channelConfig = {
      ...other.channelConfig,
      receiverAuthorizer: '0x00000000000000000000000000000000000000bb',
    }
    const w = world([other, channel(2, 1000n)], id(99), { errorReason: '', errorMessage: '' })
    await w.load()
    const round = await claimRound(w.deps())
    expect(round.skipped).toEqual([id(1)])
    expect(round.claims.map((c) => c.vouchers)).toEqual([1])
  })
})
