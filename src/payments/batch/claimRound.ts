import type { PaymentRequirements } from '@x402/core/types'
import type { Channel, ChannelStorage } from '@x402/evm/batch-settlement/server'
import type { Hex } from 'viem'
import type { OnchainChannel } from '../../chain/batchChannels.js'
import { NETWORK, USDC } from '../../chain/network.js'
import type { Logger } from '../../logger.js'
import type { Facilitator } from '../facilitator/createFacilitator.js'

/**
 * x402's reasons for a claim batch that did not go through because of what is in it: its simulation failed,
 * or its transaction failed (a gas estimate that reverted, or a transaction that reverted onchain).
 */
const SPLIT_ON = new Set([
  'invalid_batch_settlement_evm_claim_simulation_failed',
  'invalid_batch_settlement_evm_claim_transaction_failed',
])

/** Channels read per multicall. */
const READ_CHUNK = 200

/** The ledger's code for voucher calls served and never claimable. */
export const UNCLAIMABLE = 'voucher_unclaimable'

/**
 * The `onchainSyncedAt` of a frozen channel record: fresh forever, so every voucher on it is checked against
 * the record alone, whose balance is what was claimed: each is refused (`payment_voucher_exceeds_deposit`),
 * free. A deposit is verified against the chain and its record rewritten, which unfreezes it: the channel
 * then serves again, and the next round claims everything it was charged, the unclaimed calls included.
 */
export const FROZEN = Number.MAX_SAFE_INTEGER

export interface ClaimRoundDeps {
  storage: ChannelStorage
  facilitator: Facilitator
  payTo: `0x${string}`
  maxClaimsPerBatch: number
  /** The channels' state onchain at one block; throws when the chain cannot say. */
  readChannels(ids: readonly Hex[]): Promise<Map<string, OnchainChannel>>
  /** Closes `unpaid` the channel's voucher calls beyond `claimed`. */
  closeUnclaimed(channelId: string, claimed: bigint, errorCode: string): Promise<number>
  /** Settles again such calls up to `claimed`: a frozen channel was claimed after all. */
  reopenClaimed(channelId: string, claimed: bigint, errorCode: string): Promise<number>
  /** The facilitator's receiverAuthorizer: a channel naming another (a rotated key) cannot be claimed by it. */
  receiverAuthorizer?: `0x${string}`
  logger: Logger
}

/** A channel the round froze: what it had charged, what it could claim, and why. */
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
  /** Channels found claimed onchain beyond their record (a claim whose sender stopped first): to sweep. */
  foundClaimed: number
  /** Channels not claimed this round, tried again next round: a failure that is no revert (a node's fault), a
   * frozen channel whose lone claim reverted again, a channel naming another receiverAuthorizer. */
  skipped: string[]
}

interface Target {
  channel: Channel
  /** What the claim sets the channel's claimed total to: its charged total, or what it still holds if less. */
  claimTo: bigint
}

/**
 * One claim round over the stored channels that no channel can stop (issue 37 item 1). @x402/evm's channel
 * manager claims in fixed batches and gives up the round at the first batch that fails, so one channel whose
 * payer withdrew what it was served, or whose signature stopped verifying, stopped every claim for good.
 * Here:
 * 1. the chain says what each stored channel holds and whether its payer began a withdrawal (multicalls; a
 *    failed read ends the round with nothing judged); a withdrawing channel stops serving;
 * 2. a channel holding less than it charged is claimed for what it holds, then frozen once a second read
 *    agrees (a node a block behind is not enough);
 * 3. batches are sent; a batch that fails for what is in it (its simulation or its transaction failed) is
 *    halved until the failing row stands alone, and every other row is claimed in the same round. A lone row
 *    whose failure is a revert, with the chain answering for it, is frozen; any other lone failure (a node's
 *    429, a timeout) skips it until the next round;
 * 4. a frozen channel's calls beyond what was claimed are closed `unpaid`; its record stays (FROZEN), so the
 *    channel serves nothing more until it pays for everything it was served.
 * Other failures (the facilitator down) end the round: nothing is frozen for a fault of ours.
 */
export async function claimRound(deps: ClaimRoundDeps, only?: readonly string[]): Promise<ClaimRoundResult> {
  const listed =
    only === undefined
      ? await deps.storage.list()
      : (await Promise.all(only.map((id) => deps.storage.get(id)))).filter((c) => c !== undefined)
  // Frozen channels are read too: freezing stops serving, not claiming (a deposit, or a node that was wrong).
  const stored = listed
  const result: ClaimRoundResult = { claims: [], dropped: [], foundClaimed: 0, skipped: [] }
  if (stored.length === 0) return result
  const onchain = new Map<string, OnchainChannel>()
  for (let i = 0; i < stored.length; i += READ_CHUNK) {
    const read = await deps.readChannels(stored.slice(i, i + READ_CHUNK).map((c) => c.channelId as Hex))
    for (const [id, state] of read) onchain.set(id, state)
  }
  const targets: Target[] = []
  const retries: Target[] = []
  for (const channel of stored) {
    const state = onchain.get(channel.channelId.toLowerCase())
    if (state === undefined) continue
    // A payer that began a withdrawal: the channel stops serving now, owed or not (its record says so: the
    // next voucher is refused, payment_channel_withdrawing), instead of when its copy next goes stale.
    if (state.withdrawInitiatedAt > 0 && channel.withdrawRequestedAt === 0) {
      await noteWithdrawal(deps.storage, channel.channelId, state.withdrawInitiatedAt)
    }
    if (state.totalClaimed > BigInt(channel.totalClaimed)) {
      result.foundClaimed++
      await noteClaimed(deps.storage, channel.channelId, state.totalClaimed)
    }
    const charged = BigInt(channel.chargedCumulativeAmount)
    if (charged <= state.totalClaimed) continue
    // A channel holding less than it charged (its payer withdrew what it was served): what it holds is ours.
    const claimTo = charged < state.balance ? charged : state.balance
    const frozen = channel.onchainSyncedAt === FROZEN
    // A frozen channel is tried again when it holds more than when it was frozen (one frozen on a revert:
    // every round).
    if (frozen && state.balance <= frozenAt(channel)) continue
    if (!signableBy(deps, channel)) {
      result.skipped.push(channel.channelId)
      continue
    }
    if (claimTo > state.totalClaimed) (frozen ? retries : targets).push({ channel, claimTo })
    else if (!frozen) await freezeIfShort(deps, channel, state.totalClaimed, result)
  }
  for (let i = 0; i < targets.length; i += deps.maxClaimsPerBatch) {
    await claimIsolating(deps, targets.slice(i, i + deps.maxClaimsPerBatch), result)
  }
  // Frozen channels are tried each alone, after the others: one that still fails holds no batch back.
  for (const t of retries) await claimIsolating(deps, [t], result)
  return result
}

/** Claims `batch`; a batch that fails for its contents is halved until each failing row stands alone. */
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
      const short = t.claimTo < BigInt(t.channel.chargedCumulativeAmount)
      if (t.channel.onchainSyncedAt === FROZEN) await thaw(deps, t, short)
      else if (short) await freezeIfShort(deps, t.channel, t.claimTo, result)
    }
    return
  }
  if (!SPLIT_ON.has(answer.errorReason ?? '')) {
    throw new Error(`claiming ${batch.length} vouchers failed: ${answer.errorReason ?? 'no reason'}`)
  }
  // Only a revert says a row is to blame; a node's fault at the simulation or the send (a 429, a nonce) is
  // not halved into a storm of attempts against a failing node: the batch waits for the next round.
  const reverted = answer.transaction !== '' || /revert/i.test(answer.errorMessage ?? '')
  if (!reverted) {
    deps.logger.warn({
      msg: 'a claim batch failed, not as a revert: tried next round',
      reason: answer.errorMessage,
    })
    result.skipped.push(...batch.map((t) => t.channel.channelId))
    return
  }
  const [lone] = batch
  if (batch.length > 1 || lone === undefined) {
    const half = Math.ceil(batch.length / 2)
    await claimIsolating(deps, batch.slice(0, half), result)
    await claimIsolating(deps, batch.slice(half), result)
    return
  }
  const id = lone.channel.channelId
  // Already frozen: it stays so, nothing more to book.
  if (lone.channel.onchainSyncedAt === FROZEN) {
    result.skipped.push(id)
    return
  }
  // Alone and reverting, with the chain answering for the channel right now: the channel's doing. (Frozen,
  // it is still read every round and claimed if it comes to hold more.)
  const state = await readOne(deps, id)
  if (state === undefined) {
    deps.logger.warn({
      msg: 'a claim failed alone, not as a revert: tried next round',
      channel: id,
      reason: answer.errorMessage,
    })
    result.skipped.push(id)
    return
  }
  deps.logger.error({ msg: 'a channel cannot be claimed: frozen', channel: id, reason: answer.errorMessage })
  await freeze(
    deps,
    lone.channel,
    {
      channelId: id,
      charged: BigInt(lone.channel.chargedCumulativeAmount),
      claimed: state.totalClaimed,
      reason: 'claim_reverted',
    },
    result,
    // Tried again every round (alone): the revert may have been a node's view, not the channel's doing.
    0n,
  )
}

/** The channel's state onchain, or undefined when the chain does not answer. */
async function readOne(deps: ClaimRoundDeps, channelId: string): Promise<OnchainChannel | undefined> {
  try {
    return (await deps.readChannels([channelId as Hex])).get(channelId.toLowerCase())
  } catch {
    return undefined
  }
}

/**
 * Freezes a channel holding less than it charged, once a second read of the chain agrees; `claimed` is what is
 * known claimed (a claim just sent, which a lagging node may not show yet).
 */
async function freezeIfShort(
  deps: ClaimRoundDeps,
  channel: Channel,
  claimed: bigint,
  result: ClaimRoundResult,
): Promise<void> {
  const state = await readOne(deps, channel.channelId)
  const charged = BigInt(channel.chargedCumulativeAmount)
  if (state === undefined || state.balance >= charged) return
  const atLeast = state.totalClaimed > claimed ? state.totalClaimed : claimed
  await freeze(
    deps,
    channel,
    { channelId: channel.channelId, charged, claimed: atLeast, reason: 'withdrawn' },
    result,
    state.balance,
  )
}

/**
 * A frozen channel claimed after all (it came to hold more): its calls up to the claim are settled again; whole,
 * it is unfrozen (its next voucher is checked against the chain), else it stays frozen at what is claimed.
 */
async function thaw(deps: ClaimRoundDeps, t: Target, short: boolean): Promise<void> {
  const reopened = await deps.reopenClaimed(t.channel.channelId, t.claimTo, UNCLAIMABLE)
  await deps.storage.updateChannel(t.channel.channelId, (current) =>
    current === undefined || current.onchainSyncedAt !== FROZEN
      ? current
      : short
        ? { ...current, balance: t.claimTo.toString() }
        : { ...current, onchainSyncedAt: undefined },
  )
  deps.logger.info({
    msg: 'a frozen channel was claimed',
    channel: t.channel.channelId,
    whole: !short,
    reopened,
  })
}

/** What a frozen channel held onchain when it was frozen (a field of ours beside @x402/evm's). */
function frozenAt(channel: Channel): bigint {
  const held = (channel as Channel & { frozenAtBalance?: unknown }).frozenAtBalance
  return typeof held === 'string' && /^\d+$/.test(held) ? BigInt(held) : BigInt(channel.balance)
}

/** Whether the facilitator can sign this channel's claims (a channel names its receiverAuthorizer). */
function signableBy(deps: ClaimRoundDeps, channel: Channel): boolean {
  const named = channel.channelConfig.receiverAuthorizer
  return (
    deps.receiverAuthorizer === undefined || named.toLowerCase() === deps.receiverAuthorizer.toLowerCase()
  )
}

/**
 * Freezes the record (FROZEN, its balance what was claimed) and closes its unclaimable calls unpaid. Not while
 * a call is in flight on the channel: the next round sees it again.
 */
async function freeze(
  deps: ClaimRoundDeps,
  channel: Channel,
  d: DroppedChannel,
  result: ClaimRoundResult,
  heldOnchain: bigint,
): Promise<void> {
  const now = Date.now()
  const held = (await deps.storage.get(d.channelId)) ?? channel
  if (held.pendingRequest !== undefined && held.pendingRequest.expiresAt > now) return
  const claimed = d.claimed > BigInt(held.totalClaimed) ? d.claimed : BigInt(held.totalClaimed)
  // The books first: a failure here ends the round before the record is frozen; the next round tries again.
  const unpaid = await deps.closeUnclaimed(d.channelId, claimed, UNCLAIMABLE)
  await deps.storage.updateChannel(d.channelId, (current) =>
    current === undefined
      ? current
      : {
          ...current,
          balance: claimed.toString(),
          totalClaimed: claimed.toString(),
          onchainSyncedAt: FROZEN,
          frozenAtBalance: heldOnchain.toString(),
        },
  )
  result.dropped.push({ ...d, claimed })
  deps.logger.error({
    msg: 'voucher calls served and never claimable',
    channel: d.channelId,
    payer: channel.channelConfig.payer,
    reason: d.reason,
    charged: d.charged.toString(),
    claimed: claimed.toString(),
    unpaidCalls: unpaid,
  })
}

/** The stored record learns of a pending withdrawal; its state is read from the chain again from now on. */
async function noteWithdrawal(
  storage: ChannelStorage,
  channelId: string,
  initiatedAt: number,
): Promise<void> {
  await storage.updateChannel(channelId, (current) =>
    current === undefined || current.onchainSyncedAt === FROZEN
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
