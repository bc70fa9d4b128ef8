import { type PendingSettlementStore, x402Facilitator } from '@x402/core/facilitator'
import { FacilitatorTimeoutError, HTTPFacilitatorClient } from '@x402/core/http'
import type { FacilitatorClient } from '@x402/core/server'
import {
  type PaymentPayload,
  type PaymentRequirements,
  SettleError,
  type SettleResponse,
  type SupportedResponse,
  VerifyError,
} from '@x402/core/types'
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/facilitator'
import { ExactEvmScheme } from '@x402/evm/exact/facilitator'
import { BuilderCodeFacilitatorExtension } from '@x402/extensions/builder-code'
import { createPublicClient, defineChain, type Hex, http } from 'viem'
import { keepAliveFetch } from '../../chain/keepAliveFetch.js'
import { nativeSigningAccount } from '../../chain/nativeSigningAccount.js'
import { CHAIN_ID, NETWORK } from '../../chain/network.js'
import type { Config } from '../../config.js'
import {
  createEoaTransferSettler,
  learnedSettlementGas,
  SETTLEMENT_PENDING_REASON,
} from './eoaTransferSettler.js'
import { GAS_LIMIT_REASON, GENERIC_FAILURE, NOT_BROADCAST_REASON } from './facilitatorReasons.js'
import { createFeeBook } from './feeBook.js'
import { createRelayerSender } from './relayerSender.js'
import { createRelayerSigner, newTrace, withTrace } from './relayerSigner.js'
import { type Settlement, SettlementNotAttemptedError } from './settlement.js'

/** What the gate knows about the payer when it settles (the built-in facilitator picks its path by it). */
export interface SettleHint {
  /** The payer holds no code (read uncached beside the handler) and its signature recovered to it. */
  plainEoa: boolean
}

export interface Facilitator extends FacilitatorClient {
  readonly kind: 'built-in' | 'remote'
  /** The relayer that pays gas (built-in only). */
  readonly relayer?: `0x${string}`
  settle(payload: PaymentPayload, requirements: PaymentRequirements, hint?: SettleHint): Promise<Settlement>
}

function neverReceived(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } }).cause
  if (cause?.code === 'ECONNREFUSED') return true
  // HTTPFacilitatorClient reports a non-settlement answer as `Facilitator settle failed (<status>): …`.
  const status = /^Facilitator settle failed \((\d{3})\)/.exec((err as Error).message ?? '')?.[1]
  return status?.startsWith('4') === true
}

/**
 * When a remote settlement stops being waited for: a signal that aborts after `ms`. Injected so a test ends
 * the wait when its facilitator has acted, instead of sleeping past SETTLE_TIMEOUT_MS on the wall clock.
 */
export type SettleDeadline = (ms: number) => AbortSignal

/** `settle`'s answer, or a FacilitatorTimeoutError (outcome unknown) once `signal` aborts, whichever is first. */
function untilDeadline<T>(settling: Promise<T>, signal: AbortSignal, ms: number): Promise<T> {
  if (signal.aborted) return Promise.reject(new FacilitatorTimeoutError('settle', ms))
  return new Promise<T>((resolve, reject) => {
    const expire = () => reject(new FacilitatorTimeoutError('settle', ms))
    signal.addEventListener('abort', expire, { once: true })
    settling.then(resolve, reject).finally(() => signal.removeEventListener('abort', expire))
  })
}

/**
 * The remote facilitator when FACILITATOR_URL is set (the standard /verify, /settle, /supported API),
 * else the built-in one: x402's own facilitator core with the exact/EVM scheme, submitting
 * `transferWithAuthorization` from the relayer key.
 */
export function createFacilitator(
  config: Config,
  settleDeadline: SettleDeadline = (ms) => AbortSignal.timeout(ms),
): Facilitator {
  const { payments } = config
  if (payments.facilitatorUrl !== undefined) {
    const headers = payments.facilitatorHeaders
    const client = new HTTPFacilitatorClient({
      url: payments.facilitatorUrl,
      timeoutMs: payments.settleTimeoutMs,
      createAuthHeaders: async () => ({ verify: headers, settle: headers, supported: headers }),
    })
    // The client has the same deadline of its own (on the wall clock); ours can be ended by the caller.
    const settleOnce = (p: PaymentPayload, r: PaymentRequirements): Promise<Settlement> =>
      untilDeadline(
        client.settle(p, r),
        settleDeadline(payments.settleTimeoutMs),
        payments.settleTimeoutMs,
      ).catch((err: unknown) => {
        if (!(err instanceof SettleError)) {
          throw neverReceived(err)
            ? new SettlementNotAttemptedError('the facilitator did not act on the settlement', {
                cause: err,
              })
            : err
        }
        return {
          success: false,
          errorReason: err.errorReason,
          transaction: err.transaction ?? '',
          network: p.accepted.network,
        }
      })
    // A facilitator's refusal arrives as a non-2xx with a verify/settle body: that is an answer, not an
    // outage. Anything else (timeout, network, unreadable body) is thrown: the outcome is unknown.
    return {
      kind: 'remote',
      verify: (p, r) =>
        client.verify(p, r).catch((err: unknown) => {
          if (err instanceof VerifyError) return { isValid: false, invalidReason: err.invalidReason }
          throw err
        }),
      settle: async (p, r) => {
        const first = await settleOnce(p, r)
        if (first.success || first.errorReason !== SETTLEMENT_PENDING_REASON || !first.transaction)
          return first
        // Broadcast, not confirmed yet (`settlement_pending` with its hash): asked once more with the same
        // payload, as @x402/core's server does (2.24+, settleWithPendingRetry); the facilitator answers it
        // from the transaction it already sent, never a second one. A success is still checked against the
        // chain by the gate (resolveSettlement), and only for the transaction first named: any other answer
        // to the retry (another transaction, which could be any mined one) leaves the first pending, decided
        // later from the chain, never a refusal of money that may move.
        const again = await settleOnce(p, r).catch(() => first)
        return again.success && again.transaction === first.transaction ? again : first
      },
      getSupported: () => client.getSupported(),
    }
  }
  const key = payments.relayerPrivateKey
  if (key === undefined) throw new Error('RELAYER_PRIVATE_KEY or FACILITATOR_URL is required')
  const account = nativeSigningAccount(key)
  const client = createPublicClient({
    chain: defineChain({
      id: CHAIN_ID,
      name: 'Base',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [config.rpcUrl] } },
    }),
    // A synchronous send holds its request until inclusion: SETTLE_TIMEOUT_MS bounds that wait.
    transport: http(config.rpcUrl, {
      timeout: payments.settleTimeoutMs,
      retryCount: 0,
      fetchFn: keepAliveFetch,
    }),
    pollingInterval: payments.pollingIntervalMs,
  })
  const sender = createRelayerSender({
    account,
    client,
    chainId: CHAIN_ID,
    // A quote is re-read at least once a second (five of Base's 200 ms blocks).
    fees: createFeeBook(client, { maxAgeMs: 1_000 }),
    timeoutMs: payments.settleTimeoutMs,
    pollingIntervalMs: payments.pollingIntervalMs,
  })
  const { signer, relayer } = createRelayerSigner({
    client,
    sender,
    gasLimit: payments.settlementGasLimit,
    pollingIntervalMs: payments.pollingIntervalMs,
    settleTimeoutMs: payments.settleTimeoutMs,
  })
  // x402's default keeps an unfinished settlement's hash under the signature bytes alone and hands it to
  // the next settlement carrying the same bytes: a smart wallet that accepts any signature would have a
  // second authorization served on the first one's transfer (issue 22). Our gate never retries a
  // settlement (a pending row is decided by the reconciler from the chain), so nothing is remembered.
  // x402's batch-settlement facilitator on the same relayer (one sender: one nonce sequence), bounded by a
  // gas ceiling of its own (a claim carries many vouchers). The relayer key is also the channels'
  // receiverAuthorizer: it signs the claim batches and cooperative refunds it submits, and /supported
  // advertises it, which is where the challenge's `extra.receiverAuthorizer` comes from.
  const { signer: batchSigner } = createRelayerSigner({
    client,
    sender,
    gasLimit: payments.batch.gasLimit,
    pollingIntervalMs: payments.pollingIntervalMs,
    settleTimeoutMs: payments.settleTimeoutMs,
  })
  const core = new x402Facilitator()
    .register(NETWORK, new ExactEvmScheme(signer, { pendingSettlementStore: FORGETFUL_STORE }))
    .register(
      NETWORK,
      new BatchSettlementEvmScheme(batchSigner, account, { pendingSettlementStore: FORGETFUL_STORE }),
    )
  // ERC-8021: the settlement's calldata ends with the builder-code suffix (schema 2) built from the
  // payment's `builder-code` extension (our app code, see settlementExtensions); as the facilitator that
  // pays the gas we are also the wallet code `w`. Contracts ignore the trailing bytes.
  const appCode = config.builderCodes[0]
  const builderCode = new BuilderCodeFacilitatorExtension(
    appCode === undefined ? {} : { builderCode: appCode },
  )
  core.registerExtension(builderCode)
  const settleEoa = createEoaTransferSettler({
    sender,
    gas: learnedSettlementGas({
      estimate: ({ to, data }) =>
        client.estimateGas({ account: relayer, to, data, gas: payments.settlementGasLimit }),
      ceiling: payments.settlementGasLimit,
    }),
    dataSuffix: (paymentPayload, paymentRequirements): Hex | undefined =>
      builderCode.buildDataSuffix({ paymentPayload, paymentRequirements }),
  })
  return {
    kind: 'built-in',
    relayer,
    async verify(p, r) {
      const trace = newTrace()
      const result = await withTrace(trace, () => core.verify(p, r))
      if (!result.isValid && trace.gasLimitHit) return { ...result, invalidReason: GAS_LIMIT_REASON }
      return result
    },
    async settle(p, r, hint) {
      // A plain EOA's transfer runs only USDC's code: settled directly, one round trip (issue 24).
      if (hint?.plainEoa === true) return settleEoa(p, r)
      const trace = newTrace()
      let result: SettleResponse
      try {
        result = await withTrace(trace, () => core.settle(p, r))
      } catch (err) {
        if (trace.broadcast) throw err
        throw new SettlementNotAttemptedError('the settlement failed before any broadcast', { cause: err })
      }
      if (result.success) return { ...result, receipt: trace.receipt }
      if (trace.broadcast) return result
      // Nothing reached the node: the estimate (or a check before it) refused this transfer, so the
      // failure is certain and free, whatever x402's generic reason says.
      if (trace.gasLimitHit) return { ...result, errorReason: GAS_LIMIT_REASON }
      return result.errorReason === GENERIC_FAILURE
        ? { ...result, errorReason: NOT_BROADCAST_REASON }
        : result
    },
    getSupported: async () => core.getSupported() as SupportedResponse,
  }
}

/** A pending-settlement store that remembers nothing (see where the scheme is registered). */
const FORGETFUL_STORE: PendingSettlementStore = {
  get: async () => undefined,
  set: async () => {},
  delete: async () => {},
}
