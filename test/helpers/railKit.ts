import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types'
import {
  encodeAbiParameters,
  encodeEventTopics,
  type Hex,
  keccak256,
  type PublicClient,
  type TransactionReceipt,
  toHex,
} from 'viem'
import { afterAll } from 'vitest'
import { NETWORK, USDC } from '../../src/chain/network.js'
import { type Config, loadConfig } from '../../src/config.js'
import { createLogger } from '../../src/logger.js'
import type { BatchRail } from '../../src/payments/batch/batchRail.js'
import { createCreditRail } from '../../src/payments/credit/createCreditRail.js'
import { type CreditBook, createCreditBook } from '../../src/payments/credit/creditBook.js'
import { createFundsGuard } from '../../src/payments/exact/fundsGuard.js'
import { createPayerSettlements } from '../../src/payments/exact/payerSettlements.js'
import { USDC_SETTLEMENT_ABI } from '../../src/payments/exact/settlementOutcome.js'
import type { Facilitator } from '../../src/payments/facilitator/createFacilitator.js'
import type { Settlement } from '../../src/payments/facilitator/settlement.js'
import type { GateRequest, RouteRun } from '../../src/payments/gate/gateOutcome.js'
import { createQuoteSigner } from '../../src/payments/gate/quoteToken.js'
import { createRateLimiter } from '../../src/payments/limits/rateLimiter.js'
import { createSurgeMeter } from '../../src/payments/limits/surgeMeter.js'
import type { PaymentServices } from '../../src/payments/paymentServices.js'
import { createDatabase, type Database } from '../../src/store/database.js'
import { createLedger, type Ledger } from '../../src/store/ledger.js'
import { migrate } from '../../src/store/migrations.js'
import { createMemoryState } from '../../src/store/sharedState.js'
import { testDatabase } from './testDatabase.js'

/**
 * One rail's world without a chain (the unit tests of each rail's two phases): the in-memory shared state,
 * the ledger in a fresh PostgreSQL schema, and a fake facilitator that records what it is asked and settles
 * with a receipt carrying the transfer USDC would log. Nothing here broadcasts or reads a chain: the devnet
 * end-to-end and attack tests (test/payments/) do that.
 */
export interface RailKit {
  config: Config
  services: PaymentServices
  ledger: Ledger
  creditBook: CreditBook
  /** What the fake facilitator was asked, in order. */
  facilitatorCalls: { kind: 'verify' | 'settle'; payload: PaymentPayload }[]
  /** How the fake facilitator answers a settlement (default: paid, with a receipt showing the transfer). */
  settleWith: (answer: (payload: PaymentPayload) => Promise<Settlement>) => void
  /** The payer's USDC balance the funds guard reads. */
  setBalance: (atomic: bigint) => void
  /** How many times the gate asked for a reconcile round soon. */
  reconcileAsked: () => number
}

const databases: { drop(): Promise<void>; db: Database }[] = []
afterAll(async () => {
  for (const d of databases.splice(0)) {
    await d.db.close()
    await d.drop()
  }
})

export async function railKit(options: { batch?: BatchRail } = {}): Promise<RailKit> {
  const schema = await testDatabase()
  const db = await createDatabase({ databaseUrl: schema.url, dataDir: 'memory://' })
  databases.push({ db, drop: schema.drop })
  await migrate(db)
  const config = loadConfig({ DEVNET_UPSTREAM_LIMITS: 'off' })
  const state = createMemoryState()
  const ledger = createLedger(db)
  const creditBook = createCreditBook(db)
  const facilitatorCalls: RailKit['facilitatorCalls'] = []
  let settleAnswer = (payload: PaymentPayload) => Promise.resolve(paidSettlement(payload, config.payTo))
  let balance = 10n ** 12n
  let soon = 0
  const facilitator = {
    kind: 'built-in',
    verify: async (payload: PaymentPayload) => {
      facilitatorCalls.push({ kind: 'verify', payload })
      return { isValid: true, payer: payerOf(payload) }
    },
    settle: async (payload: PaymentPayload) => {
      facilitatorCalls.push({ kind: 'settle', payload })
      return settleAnswer(payload)
    },
    getSupported: async () => ({ kinds: [], extensions: [], signers: {} }),
  } as unknown as Facilitator
  // Reads a rail may make: the payer's code (an EOA holds none) and the head (settlement searches).
  const chain = {
    getCode: async () => undefined,
    getBlockNumber: async () => 1_000n,
  } as unknown as PublicClient
  const services: PaymentServices = {
    config,
    logger: createLogger('silent'),
    clock: Date.now,
    chain,
    ledger,
    state,
    limiter: createRateLimiter(state, config.rateLimits, Date.now),
    facilitator,
    batch: options.batch ?? noBatch,
    credit: createCreditRail(chain, creditBook, null),
    funds: createFundsGuard(state.funds, async () => balance, Date.now),
    payerSettlements: createPayerSettlements(state, {
      cooldownMs: config.payments.payerCooldownMs,
      waitMs: 1_000,
      pollMs: 10,
      codeRevertBudget: config.payments.codePayerRevertBudget,
    }),
    isContract: async () => false,
    surge: createSurgeMeter(config.payments.surgeCapacityRps),
    quotes: createQuoteSigner('rail-kit'),
    reconcileSoon: () => {
      soon++
    },
  }
  return {
    config,
    services,
    ledger,
    creditBook,
    facilitatorCalls,
    settleWith: (answer) => {
      settleAnswer = answer
    },
    setBalance: (atomic) => {
      balance = atomic
    },
    reconcileAsked: () => soon,
  }
}

/** A gate without the batch rail: the challenge offers `exact` alone. */
const noBatch = {
  requirements: async () => undefined,
} as unknown as BatchRail

function payerOf(payload: PaymentPayload): `0x${string}` {
  return (payload.payload as { authorization: { from: `0x${string}` } }).authorization.from
}

/**
 * What the built-in facilitator answers for a mined `transferWithAuthorization`: the hash and the receipt
 * it waited for, whose logs are USDC's `AuthorizationUsed` then `Transfer` of exactly the amount.
 */
export function paidSettlement(payload: PaymentPayload, payTo: `0x${string}`): Settlement {
  const { from, value, nonce } = (
    payload.payload as { authorization: { from: `0x${string}`; value: string; nonce: Hex } }
  ).authorization
  const transactionHash = keccak256(toHex(`settle-${nonce}`))
  const log = (topics: Hex[], data: Hex, logIndex: number) => ({
    address: USDC,
    topics: topics as [Hex, ...Hex[]],
    data,
    logIndex,
    transactionHash,
    transactionIndex: 0,
    blockHash: keccak256(toHex('block')),
    blockNumber: 999n,
    removed: false,
  })
  const receipt = {
    transactionHash,
    status: 'success',
    blockNumber: 999n,
    logs: [
      log(
        encodeEventTopics({
          abi: USDC_SETTLEMENT_ABI,
          eventName: 'AuthorizationUsed',
          args: { authorizer: from, nonce },
        }) as Hex[],
        '0x',
        0,
      ),
      log(
        encodeEventTopics({
          abi: USDC_SETTLEMENT_ABI,
          eventName: 'Transfer',
          args: { from, to: payTo },
        }) as Hex[],
        encodeAbiParameters([{ type: 'uint256' }], [BigInt(value)]),
        1,
      ),
    ],
  } as unknown as TransactionReceipt
  return { success: true, transaction: transactionHash, network: NETWORK, payer: from, receipt }
}

/** A settlement the facilitator refused (nothing was broadcast). */
export function refusedSettlement(reason: string): SettleResponse {
  return { success: false, errorReason: reason, transaction: '', network: NETWORK }
}

/**
 * A request as the HTTP adapter hands it to the gate, with a route that records every run (`runs`) and
 * answers `status` (or throws `throws`).
 */
export function gateRequest(
  url: string,
  payment: string | undefined,
  route: { status?: number; throws?: Error; topUp?: string; creditOff?: boolean } = {},
): GateRequest & { runs: (`0x${string}` | undefined)[] } {
  const runs: (`0x${string}` | undefined)[] = []
  return {
    method: 'GET',
    url,
    payment,
    ref: undefined,
    topUp: route.topUp,
    creditOff: route.creditOff ?? false,
    client: '127.0.0.1',
    runs,
    next: async (payer) => {
      runs.push(payer)
      if (route.throws !== undefined) throw route.throws
      return route.status ?? 200
    },
    bodyDigest: async () => '',
    answer: async () => ({ status: route.status ?? 200, contentType: 'application/json', body: '{}' }),
  }
}

/** What the route did, for a rail's `conclude` called directly. */
export const served: RouteRun = { ok: true, status: 200, handlerMs: 1 }
export const failed: RouteRun = { ok: true, status: 500, handlerMs: 1 }
export const threw = (error: Error): RouteRun => ({ ok: false, error, handlerMs: 1 })

/** The `exact` entry a challenge offers for `amount` atomic USDC (what the client signs). */
export function exactAccepted(
  config: Config,
  amount: bigint,
  extra: Record<string, unknown> = {},
): PaymentRequirements {
  return {
    scheme: 'exact',
    network: NETWORK,
    asset: USDC,
    amount: amount.toString(),
    payTo: config.payTo,
    maxTimeoutSeconds: 60,
    extra: { name: 'USD Coin', version: '2', ...extra },
  }
}
