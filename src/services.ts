import { erc20Abi } from 'viem'
import type { AppDeps } from './app.js'
import { createChainClient } from './chain/createChainClient.js'
import { USDC } from './chain/network.js'
import type { Config } from './config.js'
import { createRateLimiter } from './http/rateLimiter.js'
import type { Logger } from './logger.js'
import { createMarketData } from './market/marketData.js'
import { createCodeCache } from './payments/codeCache.js'
import { createFacilitator } from './payments/createFacilitator.js'
import { createFundsGuard } from './payments/fundsGuard.js'
import { createQuoteSigner } from './payments/quoteToken.js'
import { reconcilePending } from './payments/reconcilePending.js'
import { createSurgeMeter } from './payments/surgeMeter.js'
import type { Readiness } from './readiness.js'
import { createDatabase } from './store/database.js'
import { createLedger } from './store/ledger.js'
import { migrate } from './store/migrations.js'
import { createSharedState } from './store/sharedState.js'

export interface Services {
  deps: AppDeps
  /** Reconciles pending settlements now (also runs on an interval once started). */
  reconcile(): Promise<void>
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
): Promise<Services> {
  const db = await createDatabase(config.storage)
  const applied = await migrate(db)
  if (applied.length > 0) logger.info({ msg: 'migrations applied', applied, store: db.kind })
  const state = createSharedState(config.storage.redisUrl)
  if (config.payments.quoteSecret === undefined && config.profile === 'base') {
    logger.warn({ msg: 'QUOTE_SECRET unset: quotes are honoured only by the instance that issued them' })
  }
  const chain = createChainClient(config.rpcUrl)
  const ledger = createLedger(db)
  const deps: AppDeps = {
    config,
    logger,
    readiness,
    clock,
    chain,
    ledger,
    state,
    limiter: createRateLimiter(state, config.rateLimits, clock),
    facilitator: createFacilitator(config),
    funds: createFundsGuard(
      state.funds,
      (owner) =>
        chain.readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
      clock,
    ),
    isContract: createCodeCache(chain, clock),
    surge: createSurgeMeter(config.payments.surgeCapacityRps, clock),
    quotes: createQuoteSigner(config.payments.quoteSecret),
    market: createMarketData(config.upstreams),
  }
  let running: Promise<void> | undefined
  const reconcile = () => {
    running ??= reconcilePending(ledger, chain, config.payTo, Math.floor(clock() / 1000), logger)
      .then((r) => {
        if (r.settled + r.unpaid > 0) logger.info({ msg: 'pending settlements reconciled', ...r })
      })
      .catch((err: unknown) => logger.warn({ msg: 'reconcile round failed', err }))
      .finally(() => {
        running = undefined
      })
    return running
  }
  const timer = setInterval(() => void reconcile(), config.payments.reconcileIntervalMs)
  timer.unref()
  return {
    deps,
    reconcile,
    async close() {
      clearInterval(timer)
      await running
      await state.close()
      await db.close()
    },
  }
}
