import { x402ResourceServer } from '@x402/core/server'
import type { PaymentRequirements } from '@x402/core/types'
import {
  type BatchSettlementChannelManager,
  BatchSettlementEvmScheme,
  type ChannelStorage,
} from '@x402/evm/batch-settlement/server'
import { getAddress } from 'viem'
import { NETWORK, USDC, USDC_EIP712 } from '../chain/network.js'
import type { Config } from '../config.js'
import type { Logger } from '../logger.js'
import { MAX_TIMEOUT_SECONDS } from './buildChallenge.js'
import type { Facilitator } from './createFacilitator.js'

export const BATCH_SCHEME = 'batch-settlement'

/**
 * x402's `batch-settlement` scheme as the service offers it, built from the official package unmodified: the
 * server scheme (requirements, and the hooks that verify vouchers locally against the stored channel and
 * commit each charge), run by @x402/core's resource server over our facilitator, and the channel manager
 * that claims the stored vouchers in batches and sweeps them to payTo.
 */
export interface BatchRail {
  /** The challenge's batch-settlement entry for `amount`; undefined while the facilitator offers none. */
  requirements(amount: bigint): Promise<PaymentRequirements | undefined>
  readonly scheme: BatchSettlementEvmScheme
  /** Runs the scheme's hooks around our facilitator: verifyPayment, settlePayment, cancellation. */
  readonly server: x402ResourceServer
  readonly manager: BatchSettlementChannelManager
  /**
   * Claims every claimable voucher (batches of maxClaimsPerBatch) and sweeps the claimed funds to payTo:
   * what the interval does, on demand. Also sweeps what a refund claimed (outside the manager).
   */
  claimAndSweep(): Promise<{ claimTransactions: string[]; sweep: string | undefined }>
  /** A refund claimed the channel's last voucher in its own transaction: the next round sweeps it. */
  noteRefundClaim(): void
  /** Starts the interval claims and sweeps. */
  start(): void
  /** Stops them, claiming and sweeping what is left first (`flush`). */
  stop(options?: { flush?: boolean }): Promise<void>
}

/** How long a failed look-up of the facilitator's receiverAuthorizer is trusted before asking again. */
const SUPPORTED_RETRY_MS = 30_000

export function createBatchRail(options: {
  config: Config
  facilitator: Facilitator
  storage: ChannelStorage
  logger: Logger
  clock?: () => number
}): BatchRail {
  const { config, facilitator, storage, logger } = options
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
  // The manager sweeps only after claims of its own; a refund's claim leaves funds claimed, unswept.
  let refundClaimed = false
  const claimAndSweep = async () => {
    const owed = refundClaimed
    refundClaimed = false
    try {
      const { claims, settle } = await manager.claimAndSettle({ maxClaimsPerBatch: batch.maxClaimsPerBatch })
      const sweep = settle?.transaction ?? (owed ? (await manager.settle()).transaction : undefined)
      return { claimTransactions: claims.map((c) => c.transaction), sweep }
    } catch (err) {
      refundClaimed ||= owed
      throw err
    }
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
    noteRefundClaim() {
      refundClaimed = true
    },
    start() {
      sweeper = setInterval(() => {
        if (refundClaimed) {
          void claimAndSweep().catch((err: unknown) =>
            logger.warn({ msg: 'sweeping a refund claim failed', err }),
          )
        }
      }, batch.claimIntervalMs)
      sweeper.unref()
      manager.start({
        claimIntervalSecs: batch.claimIntervalMs / 1000,
        settleIntervalSecs: batch.claimIntervalMs / 1000,
        maxClaimsPerBatch: batch.maxClaimsPerBatch,
        onClaim: (r) =>
          logger.info({ msg: 'batch vouchers claimed', vouchers: r.vouchers, tx: r.transaction }),
        onSettle: (r) => logger.info({ msg: 'batch claims swept to payTo', tx: r.transaction }),
        onError: (err) => logger.warn({ msg: 'batch claim or sweep failed; retried on the next round', err }),
      })
    },
    async stop(opts) {
      clearInterval(sweeper)
      await manager.stop()
      if (opts?.flush === true) await claimAndSweep()
    },
  }
}
