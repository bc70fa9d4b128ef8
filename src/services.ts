import { createAddressBook } from './builders/addressBook.js'
import { builderCodeSuffix } from './builders/builderCode.js'
import { createBuilderEngine } from './builders/builderEngine.js'
import { createChainClient, rpcAnswers } from './chain/createChainClient.js'
import { CHAIN_UPSTREAM } from './chain/multiRead.js'
import { USDC } from './chain/network.js'
import { createCircuitBreaker } from './circuitBreaker.js'
import { type Config, missingUpstreamKeys } from './config.js'
import type { AppDeps } from './deps.js'
import type { Logger } from './logger.js'
import { createLendingChain } from './market/lendingChain.js'
import { createMarketData } from './market/marketData.js'
import { createPayments } from './payments/createPayments.js'
import type { SettleDeadline } from './payments/facilitator/createFacilitator.js'
import { createQuoteSigner } from './payments/gate/quoteToken.js'
import { preflightChecks } from './preflight/preflightChecks.js'
import { describePreflight, runPreflight } from './preflight/runPreflight.js'
import { createPropDesk } from './prop/createPropDesk.js'
import { createDeskSender } from './prop/deskSender.js'
import { createPropQuoteTokens } from './prop/propQuoteToken.js'
import { reconcileProp } from './prop/reconcileProp.js'
import type { Readiness } from './readiness.js'
import { scheduleRounds } from './rounds.js'
import { createShutdown } from './shutdown.js'
import { createDatabase } from './store/database.js'
import { createLedger } from './store/ledger.js'
import { migrate } from './store/migrations.js'
import { readOpsReport } from './store/opsReport.js'
import { readPgliteTemplate } from './store/pgliteTemplate.js'
import { createPropBook } from './store/propBook.js'
import { createSharedState } from './store/sharedState.js'
import { createUtilSendBook } from './store/utilSendBook.js'

export interface Services {
  deps: AppDeps
  /**
   * Reconciles pending settlements and credit debits (src/payments/credit/reconcileCredit.ts) in a round that starts
   * after this call (also runs on an interval, and soon after a settlement is served pending). Resolves to
   * the settlement rows still pending.
   */
  reconcile(): Promise<number>
  close(): Promise<void>
}

/**
 * Builds the whole dependency graph from config: the store (PGlite or PostgreSQL), the shared state
 * (memory or Redis), the facilitator, pricing and the upstream adapters. main.ts and the tests build
 * the service the same way.
 */
export async function createServices(
  config: Config,
  logger: Logger,
  readiness: Readiness,
  clock: () => number = Date.now,
  settleDeadline?: SettleDeadline,
): Promise<Services> {
  const template = config.storage.databaseUrl === undefined ? readPgliteTemplate() : undefined
  if (config.storage.databaseUrl === undefined && template === undefined) {
    logger.info({ msg: 'no PGlite template (npm ci builds it): a new ledger database takes a few seconds' })
  }
  const shutdown = createShutdown()
  const db = await createDatabase({ ...config.storage, template })
  shutdown.add('database', () => db.close())
  const applied = await migrate(db)
  if (applied.length > 0) logger.info({ msg: 'migrations applied', applied, store: db.kind })
  const state = createSharedState(config.storage.redisUrl, clock)
  shutdown.add('shared state', () => state.close())
  if (config.payments.quoteSecret === undefined && config.profile === 'base') {
    logger.warn({ msg: 'QUOTE_SECRET unset: quotes are honoured only by the instance that issued them' })
  }
  // The RPC's own breaker: a dead RPC makes reads answer 502 with Retry-After at once, not after
  // RPC_TIMEOUT_MS twice (viem's retry) per call, and stops the service hammering it while it is down.
  // On the wall clock, not the instance's: a held test clock would keep an opened circuit open forever.
  const chain = createChainClient(config.rpcUrl, config.rpcBatchSize, {
    timeoutMs: config.outbound.rpcTimeoutMs,
    logsMaxBlocks: config.rpcLogsMaxBlocks,
    breaker: createCircuitBreaker(CHAIN_UPSTREAM, {
      failures: config.outbound.breakerFailures,
      coolDownMs: config.outbound.breakerCoolDownMs,
      // Opens only if the RPC does not answer eth_blockNumber either (the attack review: slow reads sent
      // together, unpaid, could otherwise pause every paid call and the settlement checks).
      stillAnswers: rpcAnswers(config.rpcUrl, Math.min(2_000, config.outbound.rpcTimeoutMs)),
    }),
  })
  addStartChecks(readiness, chain, config, logger)
  const ledger = createLedger(db)
  // Outcomes recorded after their response must reach the books before the store closes.
  shutdown.add('ledger', () => ledger.drain())
  // One signer for surge quotes and prop desk quotes: QUOTE_SECRET makes both hold across instances.
  const quotes = createQuoteSigner(config.payments.quoteSecret)
  const payments = createPayments({
    config,
    logger,
    clock,
    chain,
    db,
    ledger,
    state,
    quotes,
    shutdown,
    settleDeadline,
  })
  const builders = createBuilderEngine({
    chain,
    book: createAddressBook({ lending: config.lending, utilToken: config.utilToken }),
    suffix: builderCodeSuffix(config.builderCodes),
    clock,
  })
  const propBook = createPropBook(db)
  const deskSender =
    config.prop.deskPrivateKey === undefined
      ? undefined
      : createDeskSender(chain, config.rpcUrl, config.prop.deskPrivateKey, {
          intervalMs: config.payments.pollingIntervalMs,
          timeoutMs: config.payments.settleTimeoutMs,
        })
  const prop = createPropDesk({
    chain,
    engine: builders,
    book: propBook,
    sender: deskSender,
    sources:
      config.utilToken === null || config.payments.creditPool === null
        ? null
        : {
            util: config.utilToken,
            usdc: USDC,
            pool: config.payments.creditPool,
            deskRecipient: config.prop.deskRecipient,
            logsFromBlock: config.prop.logsFromBlock,
          },
    sendBook: createUtilSendBook(db),
    logsMaxBlocks: config.rpcLogsMaxBlocks,
    cooldownSec: config.prop.cooldownSeconds,
    deskMaxOpenUsdc: config.prop.deskMaxOpenUsdc,
    clock,
    quotes: createPropQuoteTokens(quotes),
  })
  const propRounds = propReconcileRounds(chain, propBook, deskSender?.address, config, logger, clock)
  shutdown.add('prop reconcile rounds', () => {
    propRounds.stopTimers()
    return propRounds.settled()
  })
  const indexTimer = advanceOnTimer(prop, config.payments.reconcileIntervalMs, logger)
  shutdown.add('UTIL transfer index', () => clearInterval(indexTimer))
  const deps: AppDeps = {
    ...payments.services,
    readiness,
    creditBook: payments.creditBook,
    market: createMarketData(config.upstreams, config.outbound),
    lending: createLendingChain(chain, config.lending, logger, {}, clock),
    builders,
    prop,
    opsReport: () => readOpsReport(db),
  }
  return {
    deps,
    reconcile: () =>
      Promise.all([payments.reconcile(), propRounds.run()]).then(([stillPending]) => stillPending),
    close: () => shutdown.run(),
  }
}

/**
 * The desk's index of UTIL burns and sends on a timer of its own, from the start: a first catch-up (many
 * windows from PROP_LOGS_FROM_BLOCK) must not hold the reconcile rounds that decide pending payments.
 */
function advanceOnTimer(
  prop: { advanceIndex(): Promise<void> },
  everyMs: number,
  logger: { warn(o: object): void },
): NodeJS.Timeout {
  const advance = () =>
    void prop
      .advanceIndex()
      .catch((err: unknown) => logger.warn({ msg: 'the UTIL transfer index did not advance', err }))
  const timer = setInterval(advance, everyMs)
  timer.unref()
  advance()
  return timer
}

/**
 * The checks /ready holds from the start: the production preflight (/ready stays false, naming the
 * contract and the call, while a contract of the address book is missing or does not answer a view the
 * service depends on), and the upstream keys (a key the upstreams refuse calls without, unset, is named at
 * start instead of every read failing).
 */
function addStartChecks(
  readiness: Readiness,
  chain: ReturnType<typeof createChainClient>,
  config: Config,
  logger: Logger,
): void {
  const checks = preflightChecks(config)
  readiness.addCheck(
    'preflight',
    async () => {
      let problems: Awaited<ReturnType<typeof runPreflight>>
      try {
        problems = await runPreflight(chain, checks)
      } catch (err) {
        // The RPC's message stays in the log: it can carry the RPC URL, and /ready is public.
        logger.warn({ msg: 'preflight could not reach the RPC', err })
        return 'the RPC did not answer the preflight'
      }
      const problem = describePreflight(problems)
      if (problem !== undefined) logger.warn({ msg: 'preflight failed', problem })
      return problem
    },
    {
      everyMs: config.preflightIntervalSeconds * 1000,
      retryMs: Math.min(5_000, config.preflightIntervalSeconds * 1000),
    },
  )
  const missingKeys = missingUpstreamKeys(config)
  if (missingKeys === undefined) readiness.markReady('upstream keys')
  else {
    // At start, in the log: the variable's name, never a key.
    logger.warn({ msg: 'upstream keys missing: /ready stays 503', problem: missingKeys })
    readiness.markDown('upstream keys', missingKeys)
  }
}

/** The prop desk's reconcile rounds (actions left broadcast or unsent decided from the chain), on the interval. */
function propReconcileRounds(
  chain: ReturnType<typeof createChainClient>,
  book: ReturnType<typeof createPropBook>,
  desk: `0x${string}` | undefined,
  config: Config,
  logger: Logger,
  clock: () => number,
) {
  return scheduleRounds(
    () =>
      reconcileProp({ chain, book, desk, logger }, clock()).then(
        () => 0,
        (err: unknown) => {
          logger.warn({ msg: 'prop reconcile round failed', err })
          return 0
        },
      ),
    config.payments.reconcileIntervalMs,
  )
}
