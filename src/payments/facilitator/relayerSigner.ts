import { AsyncLocalStorage } from 'node:async_hooks'
import { toFacilitatorEvmSigner } from '@x402/evm'
import {
  type Abi,
  concat,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import { pollReceipt } from '../../chain/pollReceipt.js'
import type { RelayerSender } from './relayerSender.js'

/**
 * What one settlement did inside x402's facilitator, which reports a failure only as a reason string:
 * whether anything was handed to the node, whether a call or the estimate hit the gas limit, and the
 * receipt it waited for (so the gate checks the transaction's own events without another RPC).
 */
export interface SettleTrace {
  broadcast: boolean
  gasLimitHit: boolean
  receipt: TransactionReceipt | undefined
}

const traces = new AsyncLocalStorage<SettleTrace>()

export const newTrace = (): SettleTrace => ({ broadcast: false, gasLimitHit: false, receipt: undefined })

/** Runs one verify or settle of the facilitator; what the signer does in it is written to `trace`. */
export function withTrace<T>(trace: SettleTrace, run: () => Promise<T>): Promise<T> {
  return traces.run(trace, run)
}

/** The estimate needs more gas than the ceiling allows: refused before anything is broadcast. */
export class SettlementGasLimitError extends Error {
  override readonly name = 'SettlementGasLimitError'
}

/** How nodes word a call or an estimate that ran out of the gas it was given (anvil, geth, reth). */
function outOfGas(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${String((err as { details?: unknown })?.details ?? '')}`
  return /out of gas|gas required exceeds|OutOfGas|intrinsic gas too low/i.test(text)
}

/** A contract call as x402's signer describes it (its ABI untyped), as calldata (with its suffix). */
function contractCall(a: {
  address: `0x${string}`
  abi: readonly unknown[]
  functionName: string
  args?: readonly unknown[]
  dataSuffix?: `0x${string}`
}): { to: `0x${string}`; data: Hex; abi: Abi } {
  // x402 hands over the ABI fragments it built with viem: Abi by construction, untyped by its interface.
  const abi = a.abi as Abi
  const call = encodeFunctionData({ abi, functionName: a.functionName, args: a.args ?? [] })
  return { to: a.address, data: a.dataSuffix === undefined ? call : concat([call, a.dataSuffix]), abi }
}

/**
 * The relayer's signer for x402's exact/EVM facilitator, with every call bounded in gas. A payer's own
 * code runs inside verification (ERC-1271 `isValidSignature`, reached directly and through USDC's
 * SignatureChecker) and inside the settlement: without a bound, a wallet that loops on its signature
 * makes the relayer pay millions of gas for a $0.001 call (issue 22). So every read is an `eth_call`
 * capped at `gasLimit`, the estimate is capped at it, and a transaction never carries more. Broadcasts go
 * through the relayer's one sender (nonces, fees, inclusion), shared with the direct EOA path.
 */
export function createRelayerSigner(options: {
  client: PublicClient
  sender: RelayerSender
  gasLimit: bigint
  pollingIntervalMs: number
  settleTimeoutMs: number
}) {
  const { gasLimit, client, sender } = options

  const markGasLimit = (err: unknown) => {
    if (outOfGas(err)) {
      const trace = traces.getStore()
      if (trace !== undefined) trace.gasLimitHit = true
    }
  }

  // The sender waits for inclusion; x402 asks for the receipt right after, by hash.
  const receipts = new Map<Hex, TransactionReceipt | undefined>()
  const broadcast = async (tx: { to: `0x${string}`; data: Hex; gas: bigint }): Promise<Hex> => {
    const trace = traces.getStore()
    if (trace !== undefined) trace.broadcast = true
    const { hash, receipt } = await sender.send(tx)
    receipts.set(hash, receipt)
    return hash
  }

  const signer = toFacilitatorEvmSigner(
    {
      address: sender.address,
      // viem's readContract takes no gas cap, so the read is an eth_call of our own with one.
      readContract: async (a) => {
        const { to, data, abi } = contractCall(a)
        try {
          const { data: returned } = await client.call({ to, data, gas: gasLimit })
          return decodeFunctionResult({ abi, functionName: a.functionName, data: returned ?? '0x' })
        } catch (err) {
          markGasLimit(err)
          throw err
        }
      },
      // x402's verification hashes the typed data itself and reads ERC-1271 through readContract above;
      // this is only its signature for other mechanisms, and it must not make an unbounded call either.
      verifyTypedData: async () => {
        throw new Error('verifyTypedData is not offered by the bounded relayer signer')
      },
      // The estimate is capped at the gas limit, and the transaction carries exactly the estimate: a
      // payer's code cannot make it spend more whatever it does between the estimate and the inclusion.
      writeContract: async (a) => {
        const { to, data } = contractCall(a)
        const gas = await client
          .estimateGas({ account: sender.address, to, data, gas: gasLimit })
          .catch((err: unknown) => {
            markGasLimit(err)
            throw err
          })
        if (gas > gasLimit) {
          markGasLimit(new Error('out of gas'))
          throw new SettlementGasLimitError(`the settlement needs ${gas} gas, above the limit ${gasLimit}`)
        }
        return broadcast({ to, data, gas })
      },
      sendTransaction: (a) => broadcast({ to: a.to, data: a.data, gas: gasLimit }),
      // The sender already waited (bounded) for inclusion: its receipt is handed over; a transaction not
      // seen included in that wait is reported pending at once (x402 turns the timeout into
      // `settlement_pending`), never waited for twice. The receipt is kept on the trace.
      waitForTransactionReceipt: async (a) => {
        const known = receipts.has(a.hash)
        const held = receipts.get(a.hash)
        receipts.delete(a.hash)
        const receipt =
          held ??
          (await pollReceipt(client, a.hash, {
            intervalMs: options.pollingIntervalMs,
            timeoutMs: known ? 0 : options.settleTimeoutMs,
          }))
        const trace = traces.getStore()
        if (trace !== undefined) trace.receipt = receipt
        return receipt
      },
      getCode: (a) => client.getCode(a),
    },
    // The bounded wait: past it the settlement is reported pending, recorded, and reconciled later.
    { confirmationTimeoutMs: options.settleTimeoutMs },
  )
  return { signer, relayer: sender.address }
}
