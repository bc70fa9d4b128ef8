import type { PublicClient } from 'viem'
import type { Config } from '../config.js'
import type { Logger } from '../logger.js'
import type { Ledger } from '../store/ledger.js'
import type { SharedState } from '../store/sharedState.js'
import type { BatchRail } from './batch/batchRail.js'
import type { CreditRail } from './credit/creditRail.js'
import type { FundsGuard } from './exact/fundsGuard.js'
import type { PayerSettlements } from './exact/payerSettlements.js'
import type { Facilitator } from './facilitator/createFacilitator.js'
import type { QuoteSigner } from './gate/quoteToken.js'
import type { RateLimiter } from './limits/rateLimiter.js'
import type { SurgeMeter } from './limits/surgeMeter.js'

/** What the payment gate works with. The app's dependency bag (src/deps.ts) extends it. */
export interface PaymentServices {
  config: Config
  logger: Logger
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
  /** x402 `batch-settlement`: its server scheme, channel storage and claims (batchRail.ts). */
  batch: BatchRail
  /** The UTIL prepaid credit rail: top-ups and half-price calls (src/payments/credit/). */
  credit: CreditRail
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
}
