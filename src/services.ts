import { erc20Abi } from 'viem'
import { createAddressBook } from './builders/addressBook.js'
import { builderCodeSuffix } from './builders/builderCode.js'
import { createBuilderEngine } from './builders/builderEngine.js'
import { createChainClient, rpcAnswers } from './chain/createChainClient.js'
import { CHAIN_UPSTREAM } from './chain/multiRead.js'
import { USDC } from './chain/network.js'
import { createCircuitBreaker } from './circuitBreaker.js'
import { type Config, missingUpstreamKeys } from './config.js'
import { createCreditRail, topUpTerms } from './credit/createCreditRail.js'
import { reconcileCredit } from './credit/reconcileCredit.js'
import type { AppDeps } from './deps.js'
import type { Logger } from './logger.js'
import { createLendingChain } from './market/lendingChain.js'
import { createMarketData } from './market/marketData.js'
import { createBatchRail } from './payments/batchRail.js'
import { createCodeCache } from './payments/codeCache.js'
import { createFacilitator, type SettleDeadline } from './payments/createFacilitator.js'
import { createFundsGuard } from './payments/fundsGuard.js'
import { createPayerSettlements } from './payments/payerSettlements.js'
import { createQuoteSigner } from './payments/quoteToken.js'
import { createRateLimiter } from './payments/rateLimiter.js'
import { reconcilePending } from './payments/reconcilePending.js'
import { createSurgeMeter } from './payments/surgeMeter.js'
import { preflightChecks } from './preflight/preflightChecks.js'
import { describePreflight, runPreflight } from './preflight/runPreflight.js'
import { createPropDesk } from './prop/createPropDesk.js'
import { createDeskSender } from './prop/deskSender.js'
import { createPropQuoteTokens } from './prop/propQuoteToken.js'
import { reconcileProp } from './prop/reconcileProp.js'
import type { Readiness } from './readiness.js'
import { createCreditBook } from './store/creditBook.js'
import { createDatabase } from './store/database.js'
import { createLedger } from './store/ledger.js'
import { migrate } from './store/migrations.js'
import { readOpsReport } from './store/opsReport.js'
import { readPgliteTemplate } from './store/pgliteTemplate.js'
import { createPropBook } from './store/propBook.js'
import { createRedisChannelStorage } from './store/redisChannelStorage.js'
import { createSharedState } from './store/sharedState.js'
import { createSqlChannelStorage } from './store/sqlChannelStorage.js'
import { createUtilSendBook } from './store/utilSendBook.js'

const FAST_RECONCILE_MS = 2_000
const FAST_RECONCILE_ROUNDS = 4

export interface Services {
  deps: AppDeps
  /**
   * Reconciles pending settlements and credit debits (src/credit/reconcileCredit.ts) in a round that starts
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
  const db = await createDatabase({ ...config.storage, template })
  const applied = await migrate(db)
  if (applied.length > 0) logger.info({ msg: 'migrations applied', applied, store: db.kind })
  const state = createSharedState(config.storage.redisUrl, clock)
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
  const creditBook = createCreditBook(db)
  const propBook = createPropBook(db)
  const deskSender =
    config.prop.deskPrivateKey === undefined
      ? undefined
      : createDeskSender(chain, config.rpcUrl, config.prop.deskPrivateKey, {
          intervalMs: config.payments.pollingIntervalMs,
          timeoutMs: config.payments.settleTimeoutMs,
        })
  const facilitator = createFacilitator(config, settleDeadline)
  // batch-settlement channels live where instances meet: Redis when configured, else the ledger's database.
  const channelRedis =
    config.storage.redisUrl === undefined ? undefined : createRedisChannelStorage(config.storage.redisUrl)
  const batch = createBatchRail({
    config,
    facilitator,
    storage: channelRedis?.storage ?? createSqlChannelStorage(db),
    chain,
    ledger,
    logger,
    clock,
  })
  const builders = createBuilderEngine({
    chain,
    book: createAddressBook({ lending: config.lending, utilToken: config.utilToken }),
    suffix: builderCodeSuffix(config.builderCodes),
    clock,
  })
  // One signer for surge quotes and prop desk quotes: QUOTE_SECRET makes both hold across instances.
  const quotes = createQuoteSigner(config.payments.quoteSecret)
  const deps: AppDeps = {
    config,
    logger,
    readiness,
    clock,
    chain,
    ledger,
    state,
    limiter: createRateLimiter(state, config.rateLimits, clock),
    facilitator,
    batch,
    credit: createCreditRail(chain, creditBook, topUpTerms(config)),
    creditBook,
    funds: createFundsGuard(
      state.funds,
      (owner) =>
        chain.readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
      clock,
    ),
    payerSettlements: createPayerSettlements(state, {
      cooldownMs: config.payments.payerCooldownMs,
      waitMs: config.payments.settleTimeoutMs,
      pollMs: config.payments.pollingIntervalMs,
      codeRevertBudget: config.payments.codePayerRevertBudget,
    }),
    isContract: createCodeCache(chain, clock),
    surge: createSurgeMeter(config.payments.surgeCapacityRps, clock),
    quotes,
    market: createMarketData(config.upstreams, config.outbound),
    lending: createLendingChain(chain, config.lending, logger, {}, clock),
    builders,
    prop: createPropDesk({
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
    }),
    opsReport: () => readOpsReport(db),
    reconcileSoon: () => {},
  }
  const reconcileDeps = {
    ledger,
    chain,
    funds: deps.funds,
    payerSettlements: deps.payerSettlements,
    defaultPayTo: config.payTo,
    logger,
  }
  const creditRound = () =>
    reconcileCredit({ chain, book: creditBook, payTo: config.payTo, logger }, Math.floor(clock() / 1000))
      .then((r) => {
        if (r.restored + r.released > 0) logger.info({ msg: 'credit debits reconciled', ...r })
      })
      .catch((err: unknown) => logger.warn({ msg: 'credit reconcile round failed', err }))
  const propRound = () =>
    reconcileProp({ chain, book: propBook, desk: deskSender?.address, logger }, clock()).catch(
      (err: unknown) => logger.warn({ msg: 'prop reconcile round failed', err }),
    )
  const indexTimer = advanceOnTimer(deps.prop, config.payments.reconcileIntervalMs, logger)
  const round = () =>
    Promise.all([
      reconcilePending(reconcileDeps, Math.floor(clock() / 1000))
        .then((r) => {
          if (r.settled + r.unpaid > 0) logger.info({ msg: 'pending settlements reconciled', ...r })
          return r.stillPending
        })
        .catch((err: unknown) => {
          logger.warn({ msg: 'reconcile round failed', err })
          return 1
        }),
      creditRound(),
      propRound(),
    ]).then(([stillPending]) => stillPending)
  const rounds = scheduleRounds(round, config.payments.reconcileIntervalMs)
  deps.reconcileSoon = rounds.soon
  batch.start()
  return {
    deps,
    reconcile: rounds.run,
    async close() {
      rounds.stopTimers()
      clearInterval(indexTimer)
      // The vouchers taken so far are claimed and swept before the process lets go (best effort: what is
      // left stays in the channel storage for the next start).
      await batch
        .stop({ flush: true })
        .catch((err: unknown) => logger.warn({ msg: 'batch flush failed', err }))
      await rounds.settled()
      // Outcomes recorded after their response must reach the books before the store closes.
      await ledger.drain()
      await state.close()
      channelRedis?.close()
      await db.close()
    },
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

/**
 * The reconcile rounds: on an interval, and soon after a settlement is served pending (2, 4, 8, 16 s, not
 * only on the interval: until its row is decided, its funds reservation also holds the payer's balance).
 * One round at a time. A caller always gets a round that starts after its call (queued behind a running
 * one if need be), so it sees every chain change made before it asked. `round` resolves to the rows still
 * pending.
 */
function scheduleRounds(round: () => Promise<number>, intervalMs: number) {
  let running: Promise<number> | undefined
  let queued: Promise<number> | undefined
  const run = (): Promise<number> => {
    if (running === undefined) {
      running = round().finally(() => {
        running = undefined
      })
      return running
    }
    queued ??= running.then(() => {
      queued = undefined
      return run()
    })
    return queued
  }
  const timer = setInterval(() => void run(), intervalMs)
  timer.unref()
  let soonTimer: NodeJS.Timeout | undefined
  let attempt = 0
  const schedule = () => {
    soonTimer = setTimeout(
      async () => {
        const stillPending = await run()
        soonTimer = undefined
        if (stillPending > 0 && ++attempt < FAST_RECONCILE_ROUNDS) schedule()
      },
      FAST_RECONCILE_MS * 2 ** attempt,
    )
    soonTimer.unref()
  }
  return {
    run,
    soon: () => {
      attempt = 0
      if (soonTimer === undefined) schedule()
    },
    stopTimers: () => {
      clearInterval(timer)
      clearTimeout(soonTimer)
    },
    /** The round running and the one queued, finished. */
    settled: async () => {
      await queued
      await running
    },
  }
}
