import { AsyncLocalStorage } from 'node:async_hooks'
import { toFacilitatorEvmSigner } from '@x402/evm'
import {
  type Abi,
  concat,
  createWalletClient,
  decodeFunctionResult,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  publicActions,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { CHAIN_ID } from '../chain/network.js'
import { pollReceipt } from '../chain/pollReceipt.js'

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

/** The node refused a transaction for its nonce: it was not accepted, so sending again is safe. */
function nonceRefused(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ''} ${String((err as { details?: unknown })?.details ?? '')}`
  return /nonce too low|lower than the current nonce|replacement transaction underpriced/i.test(text)
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
 * capped at `gasLimit`, the estimate is capped at it, and a transaction never carries more.
 */
export function createRelayerSigner(options: {
  privateKey: Hex
  rpcUrl: string
  gasLimit: bigint
  pollingIntervalMs: number
  settleTimeoutMs: number
}) {
  const { gasLimit } = options
  const account = privateKeyToAccount(options.privateKey)
  const chain = defineChain({
    id: CHAIN_ID,
    name: 'Base',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  })
  const wallet = createWalletClient({
    account,
    chain,
    transport: http(options.rpcUrl, { timeout: 10_000, retryCount: 0 }),
    // Without this, viem polls receipts every 4 s on a chain it does not know.
    pollingInterval: options.pollingIntervalMs,
  }).extend(publicActions)

  const markGasLimit = (err: unknown) => {
    if (outOfGas(err)) {
      const trace = traces.getStore()
      if (trace !== undefined) trace.gasLimitHit = true
    }
  }

  // One key, many concurrent settlements: nonces are handed out here, one broadcast at a time, from a
  // counter synced with the node's pending count. A broadcast that fails resyncs the counter (the node
  // knows what it accepted); one the node refused for its nonce is sent again with the fresh one, which
  // is safe: it was not accepted, and an EIP-3009 authorization can be used only once anyway.
  let nextNonce: number | undefined
  let queue: Promise<unknown> = Promise.resolve()
  const broadcast = <T>(send: (nonce: number) => Promise<T>): Promise<T> => {
    const trace = traces.getStore()
    if (trace !== undefined) trace.broadcast = true
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
      // viem's readContract takes no gas cap, so the read is an eth_call of our own with one.
      readContract: async (a) => {
        const { to, data, abi } = contractCall(a)
        try {
          const { data: returned } = await wallet.call({ to, data, gas: gasLimit })
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
      // Estimate before a nonce is taken: viem's nonce manager takes one before it estimates and resets
      // on a failed estimate, which leaves a gap behind the settlements in flight. The estimate is capped
      // at the gas limit, and the transaction carries exactly the estimate: a payer's code cannot make it
      // spend more whatever it does between the estimate and the inclusion.
      writeContract: async (a) => {
        const { to, data } = contractCall(a)
        const [gas, fees] = await Promise.all([
          wallet.estimateGas({ account, to, data, gas: gasLimit }).catch((err: unknown) => {
            markGasLimit(err)
            throw err
          }),
          wallet.estimateFeesPerGas(),
        ])
        if (gas > gasLimit) {
          markGasLimit(new Error('out of gas'))
          throw new SettlementGasLimitError(`the settlement needs ${gas} gas, above the limit ${gasLimit}`)
        }
        return broadcast((nonce) => wallet.sendTransaction({ to, data, gas, ...fees, nonce }))
      },
      sendTransaction: (a) => broadcast((nonce) => wallet.sendTransaction({ ...a, gas: gasLimit, nonce })),
      // Asks for the receipt itself, not only on new blocks (see pollReceipt); bounded like the x402
      // signer's own wait, past which the settlement is reported pending. The receipt is kept on the trace.
      waitForTransactionReceipt: async (a) => {
        const receipt = await pollReceipt(wallet, a.hash, {
          intervalMs: options.pollingIntervalMs,
          timeoutMs: options.settleTimeoutMs,
        })
        const trace = traces.getStore()
        if (trace !== undefined) trace.receipt = receipt
        return receipt
      },
      getCode: (a) => wallet.getCode(a),
    },
    // The bounded wait: past it the settlement is reported pending, recorded, and reconciled later.
    { confirmationTimeoutMs: options.settleTimeoutMs },
  )
  return { signer, relayer: account.address }
}
