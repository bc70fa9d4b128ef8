import { erc20Abi, type PublicClient } from 'viem'
import { USDC } from '../chain/network.js'
import type { Config } from '../config.js'
import type { Logger } from '../logger.js'
import { scheduleRounds } from '../rounds.js'
import type { Shutdown } from '../shutdown.js'
import type { Database } from '../store/database.js'
import type { Ledger } from '../store/ledger.js'
import { createRedisChannelStorage } from '../store/redisChannelStorage.js'
import type { SharedState } from '../store/sharedState.js'
import { createSqlChannelStorage } from '../store/sqlChannelStorage.js'
import { createBatchRail } from './batch/batchRail.js'
import { createCreditRail, topUpTerms } from './credit/createCreditRail.js'
import { type CreditBook, createCreditBook } from './credit/creditBook.js'
import { reconcileCredit } from './credit/reconcileCredit.js'
import { createCodeCache } from './exact/codeCache.js'
import { createFundsGuard } from './exact/fundsGuard.js'
import { createPayerSettlements } from './exact/payerSettlements.js'
import { reconcilePending } from './exact/reconcilePending.js'
import { createFacilitator, type SettleDeadline } from './facilitator/createFacilitator.js'
import type { QuoteSigner } from './gate/quoteToken.js'
import { createRateLimiter } from './limits/rateLimiter.js'
import { createSurgeMeter } from './limits/surgeMeter.js'
import type { PaymentServices } from './paymentServices.js'

export interface PaymentsOptions {
  config: Config
  logger: Logger
  clock: () => number
  /** The one read client of the chain. */
  chain: PublicClient
  /** The ledger's database: the credit book's rows, and the channels' when Redis is not configured. */
  db: Database
  ledger: Ledger
  state: SharedState
  /** Surge quotes' signer (shared with the prop desk's quotes). */
  quotes: QuoteSigner
  /** Where the payments register their teardown. */
  shutdown: Shutdown
  /** Tests hold a settlement's deadline to drive the faults. */
  settleDeadline?: SettleDeadline
}

export interface Payments {
  /** What every payment gate works with. */
  services: PaymentServices
  /** The UTIL credit rail's rows (statements read them). */
  creditBook: CreditBook
  /**
   * A reconcile round that starts after this call: pending settlements decided from the chain, credit
   * debits restored or released (also on an interval, and soon after a settlement is served pending).
   * Resolves to the settlement rows still pending.
   */
  reconcile(): Promise<number>
}

/**
 * The payments module, built once: the facilitator, the three rails (`exact` with its funds reservations and
 * settlement lanes, `batch-settlement`, the UTIL credit rail), the ceilings and the surge, and the reconcile
 * rounds. Its teardown is registered on `shutdown`: the rounds stop, the vouchers taken are claimed, the
 * channel storage lets go (the caller's ledger and store close after it).
 */
export function createPayments(o: PaymentsOptions): Payments {
  const { config, logger, clock, chain, db, ledger, state } = o
  const facilitator = createFacilitator(config, o.settleDeadline)
  // batch-settlement channels live where instances meet: Redis when configured, else the ledger's database.
  const channelRedis =
    config.storage.redisUrl === undefined ? undefined : createRedisChannelStorage(config.storage.redisUrl)
  if (channelRedis !== undefined) o.shutdown.add('channel storage', () => channelRedis.close())
  const batch = createBatchRail({
    config,
    facilitator,
    storage: channelRedis?.storage ?? createSqlChannelStorage(db),
    chain,
    ledger,
    logger,
    clock,
  })
  const creditBook = createCreditBook(db)
  const funds = createFundsGuard(
    state.funds,
    (owner) => chain.readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
    clock,
  )
  const payerSettlements = createPayerSettlements(state, {
    cooldownMs: config.payments.payerCooldownMs,
    waitMs: config.payments.settleTimeoutMs,
    pollMs: config.payments.pollingIntervalMs,
    codeRevertBudget: config.payments.codePayerRevertBudget,
  })

  const nowSec = () => Math.floor(clock() / 1000)
  const settlementsRound = () =>
    reconcilePending(
      { ledger, chain, funds, payerSettlements, defaultPayTo: config.payTo, logger },
      nowSec(),
    ).then(
      (r) => {
        if (r.settled + r.unpaid > 0) logger.info({ msg: 'pending settlements reconciled', ...r })
        return r.stillPending
      },
      (err: unknown) => {
        logger.warn({ msg: 'reconcile round failed', err })
        return 1
      },
    )
  const creditRound = () =>
    reconcileCredit({ chain, book: creditBook, payTo: config.payTo, logger }, nowSec()).then(
      (r) => {
        if (r.restored + r.released > 0) logger.info({ msg: 'credit debits reconciled', ...r })
      },
      (err: unknown) => logger.warn({ msg: 'credit reconcile round failed', err }),
    )
  const rounds = scheduleRounds(
    () => Promise.all([settlementsRound(), creditRound()]).then(([stillPending]) => stillPending),
    config.payments.reconcileIntervalMs,
  )
  // At shutdown the rounds stop starting; the vouchers taken so far are claimed and swept before the process
  // lets go (best effort: what is left stays in the channel storage for the next start); then the last
  // round ends.
  o.shutdown.add('payments', async () => {
    rounds.stopTimers()
    await batch.stop({ flush: true }).catch((err: unknown) => logger.warn({ msg: 'batch flush failed', err }))
    await rounds.settled()
  })
  batch.start()

  return {
    services: {
      config,
      logger,
      clock,
      chain,
      ledger,
      state,
      limiter: createRateLimiter(state, config.rateLimits, clock),
      facilitator,
      batch,
      credit: createCreditRail(chain, creditBook, topUpTerms(config)),
      funds,
      payerSettlements,
      isContract: createCodeCache(chain, clock),
      surge: createSurgeMeter(config.payments.surgeCapacityRps, clock),
      quotes: o.quotes,
      reconcileSoon: rounds.soon,
    },
    creditBook,
    reconcile: rounds.run,
  }
}
