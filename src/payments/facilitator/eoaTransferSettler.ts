import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { encodeFunctionData, getAddress, type Hex, parseAbi, parseSignature } from 'viem'
import { GAS_LIMIT_REASON, GENERIC_FAILURE, NOT_BROADCAST_REASON } from './facilitatorReasons.js'
import { BroadcastRefusedError, type RelayerSender } from './relayerSender.js'
import { type Settlement, SettlementNotAttemptedError } from './settlement.js'

const TRANSFER_WITH_AUTHORIZATION = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
])

/** x402's reason for a settlement not seen included within the wait (x402's core uses the same string). */
export const SETTLEMENT_PENDING_REASON = 'settlement_pending'

/** The settlement's gas, without an estimate per transaction (see createEoaTransferSettler). */
export interface SettlementGas {
  /** The gas limit the next settlement carries; estimates (capped) only while nothing is learned. */
  limitFor(call: { to: `0x${string}`; data: Hex }): Promise<bigint>
  /** A mined settlement: one that ran out of its gas makes the next settlement estimate again. */
  observe(gasLimit: bigint, gasUsed: bigint, reverted: boolean): void
}

/**
 * Learns the gas of `transferWithAuthorization` from one capped estimate and reuses it with a margin:
 * for a payer without code the transfer runs only USDC's own code, so its gas barely varies (72,219 for
 * a first payment; storage already warm costs less). Only gas used is charged, so the margin is free.
 * A settlement that reverts having used (almost) all of its limit clears what was learned.
 */
export function learnedSettlementGas(options: {
  estimate: (call: { to: `0x${string}`; data: Hex }) => Promise<bigint>
  ceiling: bigint
  marginBps?: bigint
}): SettlementGas {
  const margin = options.marginBps ?? 2_500n
  let learned: bigint | undefined
  return {
    async limitFor(call) {
      if (learned !== undefined) return learned
      const estimate = await options.estimate(call)
      const limit = (estimate * (10_000n + margin)) / 10_000n
      learned = limit > options.ceiling ? options.ceiling : limit
      return learned
    },
    observe(gasLimit, gasUsed, reverted) {
      if (reverted && gasUsed * 100n >= gasLimit * 97n) learned = undefined
    },
  }
}

/**
 * The `exact` settlement of a payer that holds no code and whose signature recovered to it (the gate
 * checked both: the signature locally, the code with an uncached read beside the handler): one signed
 * `transferWithAuthorization(v, r, s)` and one round trip, with no re-verification reads, no estimate
 * and no fee read per transaction. The gate's local checks and the funds book made those reads' point
 * already, and the transaction's own events decide the outcome (resolveSettlement). Payers with code
 * go through x402's facilitator and its bounded signer, as before.
 */
export function createEoaTransferSettler(options: {
  sender: RelayerSender
  gas: SettlementGas
  /** The ERC-8021 suffix x402's builder-code extension would append. */
  dataSuffix: (payload: PaymentPayload, requirements: PaymentRequirements) => Hex | undefined
}) {
  return async function settle(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
  ): Promise<Settlement> {
    const { authorization: a, signature } = payload.payload as {
      authorization: Record<'from' | 'to' | 'value' | 'validAfter' | 'validBefore' | 'nonce', string>
      signature: Hex
    }
    const network = requirements.network
    const payer = getAddress(a.from)
    const sig = parseSignature(signature)
    const call = encodeFunctionData({
      abi: TRANSFER_WITH_AUTHORIZATION,
      functionName: 'transferWithAuthorization',
      args: [
        payer,
        getAddress(a.to),
        BigInt(a.value),
        BigInt(a.validAfter),
        BigInt(a.validBefore),
        a.nonce as Hex,
        Number(sig.v ?? BigInt(sig.yParity + 27)),
        sig.r,
        sig.s,
      ],
    })
    const suffix = options.dataSuffix(payload, requirements)
    const data = suffix === undefined ? call : (`${call}${suffix.slice(2)}` as Hex)
    const to = getAddress(requirements.asset)
    let gas: bigint
    try {
      gas = await options.gas.limitFor({ to, data })
    } catch (err) {
      // The capped estimate refused this transfer: nothing broadcast. Its revert names why, in x402's
      // reasons; "used" is checked against the chain by the gate (someone else's submission paid us).
      return { success: false, errorReason: estimateRefusal(err), transaction: '', network, payer }
    }
    let sent: Awaited<ReturnType<RelayerSender['send']>>
    try {
      sent = await options.sender.send({ to, data, gas })
    } catch (err) {
      // Our node refused it (the relayer's own funds, fees): nothing moved, and it is not the payer's doing.
      if (err instanceof BroadcastRefusedError) {
        throw new SettlementNotAttemptedError('the node refused the settlement', { cause: err })
      }
      throw err
    }
    const { hash, receipt } = sent
    if (receipt === undefined) {
      return { success: false, errorReason: SETTLEMENT_PENDING_REASON, transaction: hash, network, payer }
    }
    const reverted = receipt.status !== 'success'
    options.gas.observe(gas, receipt.gasUsed, reverted)
    if (reverted) return { success: false, errorReason: GENERIC_FAILURE, transaction: hash, network, payer }
    return { success: true, transaction: hash, network, payer, receipt }
  }
}

/** FiatToken's revert messages, as x402's exact/EVM reasons (the gate maps those to its codes). */
const USDC_REVERTS: [RegExp, string][] = [
  [/authorization is used or canceled/i, 'invalid_exact_evm_nonce_already_used'],
  [/exceeds balance/i, 'invalid_exact_evm_insufficient_balance'],
  [/authorization is not yet valid/i, 'invalid_exact_evm_payload_authorization_valid_after'],
  [/authorization is expired/i, 'invalid_exact_evm_payload_authorization_valid_before'],
  [/invalid signature/i, 'invalid_exact_evm_signature'],
  [/out of gas|gas required exceeds/i, GAS_LIMIT_REASON],
]

function estimateRefusal(err: unknown): string {
  let text = ''
  for (let e = err as { message?: unknown; details?: unknown; cause?: unknown } | undefined; e; ) {
    text += ` ${String(e.message ?? '')} ${String(e.details ?? '')}`
    e = e.cause as typeof e
  }
  return USDC_REVERTS.find(([pattern]) => pattern.test(text))?.[1] ?? NOT_BROADCAST_REASON
}
