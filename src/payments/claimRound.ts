import type { PaymentRequirements } from '@x402/core/types'
import type { Channel, ChannelStorage } from '@x402/evm/batch-settlement/server'
import type { Hex } from 'viem'
import type { OnchainChannel } from '../chain/batchChannels.js'
import { NETWORK, USDC } from '../chain/network.js'
import type { Logger } from '../logger.js'
import type { Facilitator } from './createFacilitator.js'

/** x402's reason for a claim batch whose simulation reverted: some row in it cannot be claimed. */
const CLAIM_SIMULATION_FAILED = 'invalid_batch_settlement_evm_claim_simulation_failed'

/** Channels read per multicall. */
const READ_CHUNK = 200

/** The ledger's code for voucher calls served and never claimable. */
export const UNCLAIMABLE = 'voucher_unclaimable'

export interface ClaimRoundDeps {
  storage: ChannelStorage
  facilitator: Facilitator
  payTo: `0x${string}`
  maxClaimsPerBatch: number
  /** The channels' state onchain at one block; throws when the chain cannot say. */
  readChannels(ids: readonly Hex[]): Promise<Map<string, OnchainChannel>>
  /** Closes `unpaid` the channel's voucher calls beyond `claimed`. */
  closeUnclaimed(channelId: string, claimed: bigint, errorCode: string): Promise<number>
  logger: Logger
}

/** A channel the round stopped claiming: what it had charged, what it could claim, and why. */
export interface DroppedChannel {
  channelId: string
  charged: bigint
  claimed: bigint
  reason: 'withdrawn' | 'claim_reverted'
}

export interface ClaimRoundResult {
  /** One per claim transaction sent. */
  claims: { vouchers: number; transaction: string }[]
  dropped: DroppedChannel[]
}

interface Target {
  channel: Channel
  /** What the claim sets the channel's claimed total to: its charged total, or what it still holds if less. */
  claimTo: bigint
}

/**
 * One claim round over the stored channels that no channel can stop (issue 37 item 1). @x402/evm's channel
 * manager claims in fixed batches and gives up the round at the first batch that reverts, so one channel
 * whose payer withdrew what it was served, or whose signature stopped verifying, stopped every claim for
 * good. Here, first the chain says what each stored channel holds and whether its payer began a withdrawal
 * (multicalls; a failed read ends the round with nothing judged): a withdrawing channel stops serving, and one
 * holding less than it charged is claimed for what it holds, then dropped. Then
 * batches are sent; a batch whose simulation reverts is split in halves until the row that reverts stands
 * alone, and that channel is dropped while every other row is claimed in the same round. A dropped channel's
 * unclaimable calls are closed `unpaid` in the ledger and its record leaves the storage (unless a call is
 * in flight on it, in which case the next round sees it again). Other failures (the facilitator down, a
 * claim transaction that failed) end the round: nothing is dropped for a fault of ours.
 */
export async function claimRound(deps: ClaimRoundDeps, only?: readonly string[]): Promise<ClaimRoundResult> {
  const wanted = only?.map((id) => id.toLowerCase())
  const stored = (await deps.storage.list()).filter(
    (c) => wanted === undefined || wanted.includes(c.channelId.toLowerCase()),
  )
  const result: ClaimRoundResult = { claims: [], dropped: [] }
  if (stored.length === 0) return result
  const onchain = new Map<string, OnchainChannel>()
  for (let i = 0; i < stored.length; i += READ_CHUNK) {
    const read = await deps.readChannels(stored.slice(i, i + READ_CHUNK).map((c) => c.channelId as Hex))
    for (const [id, state] of read) onchain.set(id, state)
  }
  // Every stored channel whose payer began a withdrawal stops serving now, owed or not (its record says so:
  // the next voucher is refused, payment_channel_withdrawing), instead of when its copy next goes stale.
  for (const channel of stored) {
    const state = onchain.get(channel.channelId.toLowerCase())
    if (state !== undefined && state.withdrawInitiatedAt > 0 && channel.withdrawRequestedAt === 0) {
      await noteWithdrawal(deps.storage, channel.channelId, state.withdrawInitiatedAt)
    }
  }
  const owed = stored.filter((c) => BigInt(c.chargedCumulativeAmount) > BigInt(c.totalClaimed))

  const targets: Target[] = []
  for (const channel of owed) {
    const state = onchain.get(channel.channelId.toLowerCase())
    if (state === undefined) continue
    const charged = BigInt(channel.chargedCumulativeAmount)
    // A channel holding less than it charged (its payer withdrew what it was served): what it holds is ours.
    const claimTo = charged < state.balance ? charged : state.balance
    if (claimTo > state.totalClaimed) {
      targets.push({ channel, claimTo })
      continue
    }
    await noteClaimed(deps.storage, channel.channelId, state.totalClaimed)
    if (claimTo < charged) {
      await drop(
        deps,
        { channelId: channel.channelId, charged, claimed: state.totalClaimed, reason: 'withdrawn' },
        result,
      )
    }
  }
  for (let i = 0; i < targets.length; i += deps.maxClaimsPerBatch) {
    await claimIsolating(deps, targets.slice(i, i + deps.maxClaimsPerBatch), result)
  }
  return result
}

/** Claims `batch`; a batch that reverts in simulation is halved until each reverting row stands alone. */
async function claimIsolating(
  deps: ClaimRoundDeps,
  batch: Target[],
  result: ClaimRoundResult,
): Promise<void> {
  const answer = await deps.facilitator.settle(
    {
      x402Version: 2,
      accepted: requirementsOf(deps.payTo),
      payload: { type: 'claim', claims: batch.map(claimOf) },
    },
    requirementsOf(deps.payTo),
  )
  if (answer.success) {
    result.claims.push({ vouchers: batch.length, transaction: answer.transaction })
    for (const t of batch) {
      await noteClaimed(deps.storage, t.channel.channelId, t.claimTo)
      const charged = BigInt(t.channel.chargedCumulativeAmount)
      if (t.claimTo < charged) {
        await drop(
          deps,
          { channelId: t.channel.channelId, charged, claimed: t.claimTo, reason: 'withdrawn' },
          result,
        )
      }
    }
    return
  }
  if (answer.errorReason !== CLAIM_SIMULATION_FAILED) {
    throw new Error(`claiming ${batch.length} vouchers failed: ${answer.errorReason ?? 'no reason'}`)
  }
  const [only] = batch
  if (batch.length === 1 && only !== undefined) {
    // Alone and reverting: before blaming the channel, the chain must answer for it right now (a node that
    // failed the simulation for its own reasons fails this read too, and the round ends with nothing dropped).
    const state = (await deps.readChannels([only.channel.channelId as Hex])).get(
      only.channel.channelId.toLowerCase(),
    )
    const claimed = state?.totalClaimed ?? BigInt(only.channel.totalClaimed)
    const charged = BigInt(only.channel.chargedCumulativeAmount)
    deps.logger.error({
      msg: 'a channel cannot be claimed: dropped',
      channel: only.channel.channelId,
      reason: answer.errorMessage,
    })
    await drop(
      deps,
      { channelId: only.channel.channelId, charged, claimed, reason: 'claim_reverted' },
      result,
    )
    return
  }
  const half = Math.ceil(batch.length / 2)
  await claimIsolating(deps, batch.slice(0, half), result)
  await claimIsolating(deps, batch.slice(half), result)
}

/** The unclaimable calls closed unpaid; the record removed unless a call is in flight on the channel. */
async function drop(deps: ClaimRoundDeps, d: DroppedChannel, result: ClaimRoundResult): Promise<void> {
  result.dropped.push(d)
  const unpaid = await deps.closeUnclaimed(d.channelId, d.claimed, UNCLAIMABLE)
  deps.logger.error({
    msg: 'voucher calls served and never claimable',
    channel: d.channelId,
    reason: d.reason,
    charged: d.charged.toString(),
    claimed: d.claimed.toString(),
    unpaidCalls: unpaid,
  })
  const now = Date.now()
  await deps.storage.updateChannel(d.channelId, (current) =>
    current?.pendingRequest !== undefined && current.pendingRequest.expiresAt > now ? current : undefined,
  )
}

/** The stored record learns of a pending withdrawal; its state is read from the chain again from now on. */
async function noteWithdrawal(
  storage: ChannelStorage,
  channelId: string,
  initiatedAt: number,
): Promise<void> {
  await storage.updateChannel(channelId, (current) =>
    current === undefined
      ? current
      : { ...current, withdrawRequestedAt: initiatedAt, onchainSyncedAt: undefined },
  )
}

/** The stored record learns what is claimed (as @x402/evm's manager records it after a claim). */
async function noteClaimed(storage: ChannelStorage, channelId: string, claimed: bigint): Promise<void> {
  await storage.updateChannel(channelId, (current) =>
    current === undefined || claimed <= BigInt(current.totalClaimed)
      ? current
      : { ...current, totalClaimed: claimed.toString() },
  )
}

function claimOf(t: Target) {
  return {
    voucher: { channel: t.channel.channelConfig, maxClaimableAmount: t.channel.signedMaxClaimable },
    signature: t.channel.signature,
    totalClaimed: t.claimTo.toString(),
  }
}

/** The requirements @x402/evm's manager sends with its own claims and sweeps. */
function requirementsOf(payTo: `0x${string}`): PaymentRequirements {
  return {
    scheme: 'batch-settlement',
    network: NETWORK,
    asset: USDC,
    amount: '0',
    payTo,
    maxTimeoutSeconds: 0,
    extra: {},
  }
}
