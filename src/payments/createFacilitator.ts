import { x402Facilitator } from '@x402/core/facilitator'
import { HTTPFacilitatorClient } from '@x402/core/http'
import type { FacilitatorClient } from '@x402/core/server'
import { SettleError, type SupportedResponse, VerifyError } from '@x402/core/types'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { ExactEvmScheme } from '@x402/evm/exact/facilitator'
import { BuilderCodeFacilitatorExtension } from '@x402/extensions/builder-code'
import { createWalletClient, defineChain, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { CHAIN_ID, NETWORK } from '../chain/network.js'
import { pollReceipt } from '../chain/pollReceipt.js'
import type { Config } from '../config.js'

export interface Facilitator extends FacilitatorClient {
  readonly kind: 'built-in' | 'remote'
  /** The relayer that pays gas (built-in only). */
  readonly relayer?: `0x${string}`
}

/**
 * The facilitator certainly did not act on the settlement: the connection was refused, or it answered
 * a client error (4xx: unauthorized, malformed, rate-limited) without a settlement body. Nothing can
 * have been broadcast, so the payment can be released. Any other failure (a timeout, a 5xx, a dropped
 * connection) leaves the outcome unknown.
 */
export class SettlementNotAttemptedError extends Error {
  override readonly name = 'SettlementNotAttemptedError'
}

function neverReceived(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } }).cause
  if (cause?.code === 'ECONNREFUSED') return true
  // HTTPFacilitatorClient reports a non-settlement answer as `Facilitator settle failed (<status>): …`.
  const status = /^Facilitator settle failed \((\d{3})\)/.exec((err as Error).message ?? '')?.[1]
  return status?.startsWith('4') === true
}

/**
 * The remote facilitator when FACILITATOR_URL is set (the standard /verify, /settle, /supported API),
 * else the built-in one: x402's own facilitator core with the exact/EVM scheme, submitting
 * `transferWithAuthorization` from the relayer key.
 */
/** The node refused a transaction for its nonce: it was not accepted, so sending again is safe. */
function nonceRefused(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${String((err as { details?: unknown })?.details ?? '')}`
  return /nonce too low|lower than the current nonce|replacement transaction underpriced/i.test(text)
}

export function createFacilitator(config: Config): Facilitator {
  const { payments } = config
  if (payments.facilitatorUrl !== undefined) {
    const headers = payments.facilitatorHeaders
    const client = new HTTPFacilitatorClient({
      url: payments.facilitatorUrl,
      timeoutMs: payments.settleTimeoutMs,
      createAuthHeaders: async () => ({ verify: headers, settle: headers, supported: headers }),
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
      settle: (p, r) =>
        client.settle(p, r).catch((err: unknown) => {
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
        }),
      getSupported: () => client.getSupported(),
    }
  }
  const key = payments.relayerPrivateKey
  if (key === undefined) throw new Error('RELAYER_PRIVATE_KEY or FACILITATOR_URL is required')
  const account = privateKeyToAccount(key)
  const chain = defineChain({
    id: CHAIN_ID,
    name: 'Base',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  })
  const wallet = createWalletClient({
    account,
    chain,
    transport: http(config.rpcUrl, { timeout: 10_000, retryCount: 0 }),
    // Without this, viem polls receipts every 4 s on a chain it does not know.
    pollingInterval: payments.pollingIntervalMs,
  }).extend(publicActions)
  // One key, many concurrent settlements: nonces are handed out here, one broadcast at a time, from a
  // counter synced with the node's pending count. A broadcast that fails resyncs the counter (the node
  // knows what it accepted); one the node refused for its nonce is sent again with the fresh one, which
  // is safe: it was not accepted, and an EIP-3009 authorization can be used only once anyway.
  let nextNonce: number | undefined
  let queue: Promise<unknown> = Promise.resolve()
  const broadcast = <T>(send: (nonce: number) => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      for (let attempt = 1; ; attempt++) {
        nextNonce ??= await wallet.getTransactionCount({ address: account.address, blockTag: 'pending' })
        const nonce = nextNonce
        try {
          const result = await send(nonce)
          nextNonce = nonce + 1
          return result
        } catch (err) {
          nextNonce = undefined
          if (!nonceRefused(err) || attempt >= 3) throw err
        }
      }
    })
    queue = run.catch(() => undefined)
    return run
  }
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (a) => wallet.readContract(a as never),
      verifyTypedData: (a) => wallet.verifyTypedData(a as never),
      // Estimate before a nonce is taken: viem's nonce manager takes one before it estimates and resets
      // on a failed estimate, which leaves a gap behind the settlements in flight (they stall until
      // another transaction fills it). A doomed transfer now fails without touching the nonce sequence.
      // Gas and fees are worked out first, concurrently; then one settlement at a time takes the next
      // nonce and is signed and broadcast (one RPC), so two settlements never share a nonce.
      writeContract: async (a) => {
        const [gas, fees] = await Promise.all([
          wallet.estimateContractGas(a as never),
          wallet.estimateFeesPerGas(),
        ])
        return broadcast((nonce) => wallet.writeContract({ ...(a as object), gas, ...fees, nonce } as never))
      },
      sendTransaction: (a) => broadcast((nonce) => wallet.sendTransaction({ ...a, nonce })),
      // Asks for the receipt itself, not only on new blocks (see pollReceipt); bounded like the x402
      // signer's own wait, past which the settlement is reported pending.
      waitForTransactionReceipt: (a) =>
        pollReceipt(wallet, a.hash, {
          intervalMs: payments.pollingIntervalMs,
          timeoutMs: payments.settleTimeoutMs,
        }),
      getCode: (a) => wallet.getCode(a),
    },
    // The bounded wait: past it the settlement is reported pending, recorded, and reconciled later.
    { confirmationTimeoutMs: payments.settleTimeoutMs },
  )
  const core = new x402Facilitator().register(NETWORK, new ExactEvmScheme(signer))
  // ERC-8021: the settlement's calldata ends with the builder-code suffix (schema 2) built from the
  // payment's `builder-code` extension (our app code, see settlementExtensions); as the facilitator that
  // pays the gas we are also the wallet code `w`. Contracts ignore the trailing bytes.
  const appCode = config.builderCodes[0]
  core.registerExtension(
    new BuilderCodeFacilitatorExtension(appCode === undefined ? {} : { builderCode: appCode }),
  )
  return {
    kind: 'built-in',
    relayer: account.address,
    verify: (p, r) => core.verify(p, r),
    settle: (p, r) => core.settle(p, r),
    getSupported: async () => core.getSupported() as SupportedResponse,
  }
}
