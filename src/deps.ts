import type { PublicClient } from 'viem'
import type { BuilderEngine } from './builders/builderEngine.js'
import type { Config } from './config.js'
import type { RateLimiter } from './http/rateLimiter.js'
import type { Logger } from './logger.js'
import type { LendingChain } from './market/lendingChain.js'
import type { MarketData } from './market/marketData.js'
import type { Facilitator } from './payments/createFacilitator.js'
import type { FundsGuard } from './payments/fundsGuard.js'
import type { PayerSettlements } from './payments/payerSettlements.js'
import type { QuoteSigner } from './payments/quoteToken.js'
import type { SurgeMeter } from './payments/surgeMeter.js'
import type { Readiness } from './readiness.js'
import type { Ledger } from './store/ledger.js'
import type { SharedState } from './store/sharedState.js'

// Only types from the layers below: the app, the router, the payment gate and every handler name the
// dependency bag here, never through app.ts, so no import of it can close a circle.

/** Everything the app needs, passed in: tests build the same graph. */
export interface AppDeps {
  config: Config
  logger: Logger
  readiness: Readiness
  /** Milliseconds since the epoch; injectable so time-dependent logic is testable. */
  clock: () => number
  /** The one read client of the chain. */
  chain: PublicClient
  /** Durable settlements (PGlite or PostgreSQL). */
  ledger: Ledger
  /** Claims and counters shared by instances (memory or Redis). */
  state: SharedState
  limiter: RateLimiter
  facilitator: Facilitator
  /** Payments in flight, reserved against each payer's USDC balance. */
  funds: FundsGuard
  /** One settlement in flight per payer, and the cool-down of payers whose settlement reverted. */
  payerSettlements: PayerSettlements
  /** Whether an address holds code (smart wallets), cached briefly. */
  isContract: (address: `0x${string}`) => Promise<boolean>
  surge: SurgeMeter
  quotes: QuoteSigner
  /** Asks for a reconcile round soon: a settlement was served pending. */
  reconcileSoon: () => void
  market: MarketData
  /** Chain state of the catalog's vaults, Aave reserves and Morpho markets, cached (earn and loan reads). */
  lending: LendingChain
  /** The builder engine: address book, builder-code suffix, bundle simulation (every /v1/tx builder). */
  builders: BuilderEngine
}
