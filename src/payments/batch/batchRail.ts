import { x402ResourceServer } from '@x402/core/server'
import type { PaymentRequirements } from '@x402/core/types'
import {
  type BatchSettlementChannelManager,
  BatchSettlementEvmScheme,
  type ChannelStorage,
} from '@x402/evm/batch-settlement/server'
import { getAddress, type PublicClient } from 'viem'
import { readBatchChannels } from '../../chain/batchChannels.js'
import { NETWORK, USDC, USDC_EIP712 } from '../../chain/network.js'
import type { Config } from '../../config.js'
import type { Logger } from '../../logger.js'
import type { Ledger } from '../../store/ledger.js'
import type { Facilitator } from '../facilitator/createFacilitator.js'
import { MAX_TIMEOUT_SECONDS } from '../gate/buildChallenge.js'
import { type ClaimRoundResult, claimRound } from './claimRound.js'

export const BATCH_SCHEME = 'batch-settlement'

/**
 * x402's `batch-settlement` scheme as the service offers it, built from the official package unmodified: the
 * server scheme (requirements, and the hooks that verify vouchers locally against the stored channel and
 * commit each charge), run by @x402/core's resource server over our facilitator; the stored vouchers are
 * claimed by our own rounds (claimRound.ts: one channel that cannot be claimed no longer stops the others)
 * and swept to payTo by the official channel manager.
 */
export interface BatchRail {
  /** The challenge's batch-settlement entry for `amount`; undefined while the facilitator offers none. */
  requirements(amount: bigint): Promise<PaymentRequirements | undefined>
  readonly scheme: BatchSettlementEvmScheme
  /** Runs the scheme's hooks around our facilitator: verifyPayment, settlePayment, cancellation. */
  readonly server: x402ResourceServer
  readonly manager: BatchSettlementChannelManager
  /**
   * Claims every claimable voucher (batches of maxClaimsPerBatch, a reverting channel isolated and dropped)
   * and sweeps the claimed funds to payTo: what the interval does, on demand. Also sweeps what a refund
   * claimed (outside the rounds). `only` limits the round to those channels.
   */
  claimAndSweep(only?: readonly string[]): Promise<ClaimedAndSwept>
  /**
   * A channel whose payer began a timed withdrawal: its vouchers are claimed now, not at the next round
   * (the withdrawal pays out what is unclaimed when its delay ends). Runs in the background; logs failures.
   */
  claimSoon(channelId: string): void
  /** A refund claimed the channel's last voucher in its own transaction: the next round sweeps it. */
  noteRefundClaim(): void
  /** Starts the interval claims and sweeps. */
  start(): void
  /** Stops them, claiming and sweeping what is left first (`flush`). */
  stop(options?: { flush?: boolean }): Promise<void>
}

export interface ClaimedAndSwept {
  claimTransactions: string[]
  dropped: ClaimRoundResult['dropped']
  sweep: string | undefined
}

/** How long a failed look-up of the facilitator's receiverAuthorizer is trusted before asking again. */
const SUPPORTED_RETRY_MS = 30_000

export function createBatchRail(options: {
  config: Config
  facilitator: Facilitator
  storage: ChannelStorage
  chain: PublicClient
  ledger: Pick<Ledger, 'closeUnclaimedVouchers' | 'reopenClaimedVouchers'>
  logger: Logger
  clock?: () => number
}): BatchRail {
  const { config, facilitator, storage, logger, chain, ledger } = options
  const clock = options.clock ?? Date.now
  const { batch } = config.payments
  const scheme = new BatchSettlementEvmScheme(config.payTo, {
    storage,
    withdrawDelay: batch.withdrawDelaySeconds,
    // A deposit below the announced minimum would make the next calls top up again and again.
    enforceMinDeposit: true,
  })
  const server = new x402ResourceServer(facilitator).register(NETWORK, scheme)
  const manager = scheme.createChannelManager(facilitator, NETWORK, USDC)

  // The receiverAuthorizer (who signs claim batches and refunds) is the facilitator's: the built-in one
  // answers at once (the relayer), a remote one over HTTP. Asked once, again after a failure.
  let authorizer: { value: Promise<`0x${string}` | undefined>; at: number; found: boolean } | undefined
  const receiverAuthorizer = () => {
    if (authorizer !== undefined && (authorizer.found || clock() - authorizer.at < SUPPORTED_RETRY_MS)) {
      return authorizer.value
    }
    const entry: NonNullable<typeof authorizer> = {
      at: clock(),
      found: false,
      value: Promise.resolve(undefined),
    }
    entry.value = facilitator
      .getSupported()
      .then((s) => {
        const kind = s.kinds.find(
          (k) => k.scheme === BATCH_SCHEME && k.network === NETWORK && k.x402Version === 2,
        )
        const value = kind?.extra?.receiverAuthorizer
        entry.found = typeof value === 'string'
        return typeof value === 'string' ? getAddress(value) : undefined
      })
      .catch((err: unknown) => {
        logger.warn({ msg: 'the facilitator did not say whether it offers batch-settlement', err })
        return undefined
      })
    authorizer = entry
    return entry.value
  }

  // Requirements differ by amount only (surge moves it): a few kept, rebuilt when a new amount comes.
  const byAmount = new Map<bigint, PaymentRequirements>()
  // A sweep is owed after claims of ours and after a refund's claim (which leaves funds claimed, unswept).
  let refundClaimed = false
  const roundDeps = {
    storage,
    facilitator,
    payTo: config.payTo,
    maxClaimsPerBatch: batch.maxClaimsPerBatch,
    readChannels: (ids: readonly `0x${string}`[]) => readBatchChannels(chain, ids),
    closeUnclaimed: (id: string, claimed: bigint, code: string) =>
      ledger.closeUnclaimedVouchers(id, claimed, code),
    reopenClaimed: (id: string, claimed: bigint, code: string) =>
      ledger.reopenClaimedVouchers(id, claimed, code),
    logger,
  }
  // One round at a time (the interval, a withdrawal's claim, a flush): rounds read and write the same records.
  let rounds: Promise<unknown> = Promise.resolve()
  let running = 0
  const claimAndSweep = (only?: readonly string[]): Promise<ClaimedAndSwept> => {
    // Only full rounds count: a flood of withdrawal rounds must not keep the interval's rounds from running.
    const full = only === undefined
    if (full) running++
    const run = rounds.then(async () => {
      const owed = refundClaimed
      refundClaimed = false
      try {
        const receiver = await receiverAuthorizer()
        const round = await claimRound(
          { ...roundDeps, ...(receiver === undefined ? {} : { receiverAuthorizer: receiver }) },
          only,
        )
        for (const c of round.claims)
          logger.info({ msg: 'batch vouchers claimed', vouchers: c.vouchers, tx: c.transaction })
        // Claimed funds wait in the contract until swept: after claims of ours, a refund's, or one found
        // onchain that a stopped process sent.
        const unswept = round.claims.length > 0 || owed || round.foundClaimed > 0
        const sweep = unswept ? (await manager.settle()).transaction : undefined
        if (sweep !== undefined) logger.info({ msg: 'batch claims swept to payTo', tx: sweep })
        return { claimTransactions: round.claims.map((c) => c.transaction), dropped: round.dropped, sweep }
      } catch (err) {
        refundClaimed ||= owed
        throw err
      } finally {
        if (full) running--
      }
    })
    rounds = run.catch(() => undefined)
    return run
  }
  // Withdrawing channels seen by refused vouchers: one queued round claims them all, however many refusals.
  const soon = new Set<string>()
  let soonQueued = false
  const claimSoon = (channelId: string) => {
    soon.add(channelId.toLowerCase())
    if (soonQueued) return
    soonQueued = true
    void rounds
      .then(() => {
        soonQueued = false
        const ids = [...soon]
        soon.clear()
        return claimAndSweep(ids)
      })
      .catch((err: unknown) =>
        logger.warn({ msg: 'claiming withdrawing channels failed; the next round tries again', err }),
      )
  }
  let sweeper: NodeJS.Timeout | undefined
  return {
    scheme,
    server,
    manager,
    async requirements(amount) {
      const cached = byAmount.get(amount)
      if (cached !== undefined) return cached
      const receiver = await receiverAuthorizer()
      if (receiver === undefined) return undefined
      const built = await scheme.enhancePaymentRequirements(
        {
          scheme: BATCH_SCHEME,
          network: NETWORK,
          asset: USDC,
          amount: amount.toString(),
          payTo: config.payTo,
          maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
          extra: { ...USDC_EIP712 },
        },
        { x402Version: 2, scheme: BATCH_SCHEME, network: NETWORK, extra: { receiverAuthorizer: receiver } },
        [],
      )
      if (byAmount.size >= 64) byAmount.clear()
      byAmount.set(amount, built)
      return built
    },
    claimAndSweep,
    claimSoon,
    noteRefundClaim() {
      refundClaimed = true
    },
    start() {
      sweeper = setInterval(() => {
        // A full round still running or queued (a slow node, many channels) is not queued behind again.
        if (running > 0) return
        void claimAndSweep().catch((err: unknown) =>
          logger.warn({ msg: 'batch claim or sweep failed; retried on the next round', err }),
        )
      }, batch.claimIntervalMs)
      sweeper.unref()
    },
    async stop(opts) {
      clearInterval(sweeper)
      await rounds
      if (opts?.flush === true) await claimAndSweep()
    },
  }
}
