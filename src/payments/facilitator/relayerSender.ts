import {
  type Hex,
  keccak256,
  type LocalAccount,
  type PublicClient,
  TransactionNotFoundError,
  type TransactionReceipt,
} from 'viem'
import { sendRawTransactionSync } from 'viem/actions'
import { pollReceipt } from '../../chain/pollReceipt.js'
import type { FeeBook } from './feeBook.js'

/** A transaction handed to the node: its receipt, or none when it was not seen included within the wait. */
export interface SentTransaction {
  hash: Hex
  receipt: TransactionReceipt | undefined
}

/** The node refused the transaction: nothing was broadcast, and its nonce is reused or filled. */
export class BroadcastRefusedError extends Error {
  override readonly name = 'BroadcastRefusedError'
}

export interface RelayerSender {
  readonly address: `0x${string}`
  /** Signs `to`/`data` with exactly `gas`, broadcasts it and waits (bounded) for its inclusion. */
  send(tx: { to: `0x${string}`; data: Hex; gas: bigint }): Promise<SentTransaction>
}

export interface RelayerSenderOptions {
  account: LocalAccount
  client: PublicClient
  chainId: number
  fees: FeeBook
  /** How long a settlement waits for inclusion before it is reported pending. */
  timeoutMs: number
  /** Receipt polling, where the node lacks `eth_sendRawTransactionSync`. */
  pollingIntervalMs: number
}

/** The node does not offer the method (error -32601, or a node that words it). */
function methodMissing(err: unknown): boolean {
  const { code, message } = rpcError(err)
  return code === -32601 || /method not found|not supported|does not exist|unknown method/i.test(message)
}

/** The node answered, and its answer says the transaction is known: accepted earlier. */
function alreadyKnown(err: unknown): boolean {
  return /already known|already imported|known transaction/i.test(rpcError(err).message)
}

/** The node refused the transaction for its nonce: re-signing with a fresh one is safe. */
function nonceRefused(err: unknown): boolean {
  // A replacement refused: one of ours holds the nonce already (the counter is behind the pool).
  return /nonce too low|lower than the current nonce|nonce has already been used|replacement transaction underpriced/i.test(
    rpcError(err).message,
  )
}

/** The node refused the transaction's fee (the base fee rose past the quote's headroom). */
function feeRefused(err: unknown): boolean {
  return /fee per gas less than|fee cap less than|feecap too low|less than block base fee/i.test(
    rpcError(err).message,
  )
}

/**
 * EIP-7966: the transaction was accepted but not included within the timeout. The standard says error
 * code 4; anvil answers -32603 "Transaction confirmation timeout". Either way the node itself answered in
 * JSON-RPC: a proxy's HTTP 504 "Gateway Timeout" carries no JSON-RPC code and proves nothing was accepted
 * (it is handled as a dropped connection: the same bytes again, then the node's word).
 */
function syncTimedOut(err: unknown): boolean {
  const { code, message } = rpcError(err)
  return code === 4 || (code !== undefined && /confirmation timeout|timed out waiting/i.test(message))
}

/** Our request's own timeout (viem's TimeoutError): the node had it for the whole wait. */
function requestTimedOut(err: unknown): boolean {
  for (let e = err as { name?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.name === 'TimeoutError') return true
  }
  return false
}

/** The node answered with a JSON-RPC error (as opposed to no answer at all: a dropped connection). */
function nodeAnswered(err: unknown): boolean {
  return rpcError(err).code !== undefined
}

function rpcError(err: unknown): { code: number | undefined; message: string } {
  // viem wraps the node's error; its `cause` chain carries the JSON-RPC code.
  let code: number | undefined
  let message = ''
  for (
    let e = err as { code?: unknown; details?: unknown; message?: unknown; cause?: unknown } | undefined;
    e;
  ) {
    if (code === undefined && typeof e.code === 'number') code = e.code
    message += ` ${String(e.message ?? '')} ${String(e.details ?? '')}`
    e = e.cause as typeof e
  }
  return { code, message }
}

/**
 * The relayer's one way to put a transaction onchain (issue 24): nonces assigned here, so broadcasts
 * are ordered by nonce but never wait for each other's inclusion (many settlements ride one block);
 * fees from the fee book (refreshed per block, not read per transaction); and one round trip per
 * transaction with `eth_sendRawTransactionSync` (EIP-7966: the node answers with the receipt of the
 * 200 ms block that included it on Base), falling back to `eth_sendRawTransaction` and receipt polling on
 * a node without it.
 *
 * A nonce the node refused is given back when nothing was signed after it, else filled with a 0-value
 * self-transfer so the transactions queued behind it are not stuck. A nonce the node calls too low or
 * taken (the key was used elsewhere, or our own transactions wait in the pool after a restart) is resynced
 * from the latest block's count, above every nonce handed out, and the transaction re-signed.
 * One key serves one instance: two instances counting nonces for one key would collide. A restart while
 * our own transactions wait unmined could replace one of them only with a fee 10% above its own (the
 * node refuses a same-fee replacement, and that refusal moves the counter on); on Base they are included
 * within a block, long before a restart completes.
 */
/**
 * Signing attempts of one transaction: after a restart, each of our own transactions still waiting in the
 * node's pool takes one nonce refusal (on Base, a block includes them within 200 ms); a fee refusal doubles
 * the fee book's headroom each time (2, 4, 8, 16 times the base fee).
 */
const NONCE_ATTEMPTS = 6

export function createRelayerSender(options: RelayerSenderOptions): RelayerSender {
  const { account, client, fees } = options
  let next: number | undefined
  // The lowest nonce a resync may return to: after "nonce too low" the node's pending count can lag
  // behind nonces this sender has signed but not yet handed over, and reusing one would collide with (or
  // replace) a settlement in flight.
  let floor = 0
  // Nonces given back whose filler failed: the next sends take them first, so no gap holds the queue and
  // no resync falls below the nonces in flight.
  const gaps: number[] = []
  let syncing: Promise<number> | undefined
  let syncSupported = true

  // Counted from the latest block, never `pending`: Base has had no pending state since Denim (its
  // `pending` answers the latest canonical state), and a node that does have one counts what its pool
  // holds, which is not ours to reason from. Above `latest`, the nonces are this sender's own: those it
  // handed out (`next`) and, after a refusal, the floor past them.
  const takeNonce = async (): Promise<number> => {
    const gap = gaps.shift()
    if (gap !== undefined) return gap
    if (next === undefined) {
      syncing ??= client.getTransactionCount({ address: account.address, blockTag: 'latest' }).finally(() => {
        syncing = undefined
      })
      const mined = await syncing
      next ??= Math.max(mined, floor)
    }
    return next++
  }

  // After the node took the transaction, a failed or slow receipt read only means "not seen included
  // yet": pending, decided later from the chain, never a refusal.
  const waitReceipt = async (hash: Hex): Promise<TransactionReceipt | undefined> => {
    try {
      return await pollReceipt(client, hash, {
        intervalMs: options.pollingIntervalMs,
        timeoutMs: options.timeoutMs,
      })
    } catch {
      return undefined
    }
  }

  const submit = async (serializedTransaction: Hex, hash: Hex): Promise<TransactionReceipt | undefined> => {
    if (syncSupported) {
      try {
        // No timeout parameter: nodes disagree on its encoding (anvil refuses a number); the request's own
        // timeout (the client transport's, SETTLE_TIMEOUT_MS) bounds the wait instead.
        return await sendRawTransactionSync(client, { serializedTransaction, throwOnReceiptRevert: false })
      } catch (err) {
        if (!methodMissing(err)) throw err
        syncSupported = false
      }
    }
    await client.sendRawTransaction({ serializedTransaction })
    return waitReceipt(hash)
  }

  const sign = async (tx: { to: `0x${string}`; data: Hex; gas: bigint; value?: bigint }, nonce: number) => {
    const quote = await fees.fees()
    const serialized = await account.signTransaction({
      type: 'eip1559',
      chainId: options.chainId,
      to: tx.to,
      data: tx.data,
      value: tx.value ?? 0n,
      gas: tx.gas,
      nonce,
      ...quote,
    })
    return { serialized, hash: keccak256(serialized) }
  }

  /** true/false when the node says whether it holds the transaction; undefined when it cannot be asked. */
  /** Past nonce `n` and every nonce handed out: the node says it is taken. */
  const skipTaken = (n: number) => {
    floor = Math.max(floor, n + 1, next ?? floor)
    next = undefined
  }

  const knownToNode = (hash: Hex): Promise<boolean | undefined> =>
    client.getTransaction({ hash }).then(
      () => true,
      (err: unknown) => (err instanceof TransactionNotFoundError ? false : undefined),
    )

  /** Gives nonce `n` back, or fills it when later nonces were signed already. */
  const releaseNonce = (n: number) => {
    if (next === n + 1) {
      next = n
      return
    }
    void (async () => {
      const filler = await sign({ to: account.address, data: '0x', gas: 21_000n }, n)
      await submit(filler.serialized, filler.hash)
    })().catch(() => {
      // The filler failed too: the next send takes the gap (a resync from the latest block would fall
      // below the nonces still in flight, and a higher fee would replace one of them).
      gaps.push(n)
    })
  }

  return {
    address: account.address,
    async send(tx) {
      let nonce: number | undefined
      for (let attempt = 1; ; attempt++) {
        nonce ??= await takeNonce()
        let signed: { serialized: Hex; hash: Hex }
        try {
          signed = await sign(tx, nonce)
        } catch (err) {
          releaseNonce(nonce)
          throw new BroadcastRefusedError('the settlement could not be signed', { cause: err })
        }
        try {
          const receipt = await submit(signed.serialized, signed.hash)
          if (receipt !== undefined) fees.observe(receipt.blockNumber)
          return { hash: signed.hash, receipt }
        } catch (err) {
          // Accepted, not included in time: pending, decided later from the chain.
          if (syncTimedOut(err) || alreadyKnown(err)) return { hash: signed.hash, receipt: undefined }
          if (!nodeAnswered(err)) {
            // No answer (a dropped connection): the node may hold it. Handing the same bytes over again
            // is idempotent (same hash); "already known" means it was accepted.
            try {
              await client.sendRawTransaction({ serializedTransaction: signed.serialized })
            } catch (again) {
              // Known, or its nonce used (by this very transaction, mined meanwhile): wait for it. Any
              // other answer leaves the first copy's fate open: only a node that does not know the hash
              // proves it was never taken (the nonce is then given back); otherwise it is pending and the
              // chain decides it later, never a refusal that would let the payer pay a second time.
              if (!alreadyKnown(again)) {
                const known = await knownToNode(signed.hash)
                // The nonce is taken by another transaction (one of ours still in the pool after a
                // restart): this one was never taken, so it is signed again on the next nonce.
                if (known === false && nonceRefused(again) && attempt < NONCE_ATTEMPTS) {
                  skipTaken(nonce)
                  nonce = undefined
                  continue
                }
                if (known === false) {
                  if (nonceRefused(again)) skipTaken(nonce)
                  else releaseNonce(nonce)
                  throw new BroadcastRefusedError('the node did not take the settlement', { cause: again })
                }
                if (known === undefined || !nonceRefused(again))
                  return { hash: signed.hash, receipt: undefined }
              }
            }
            // Our own wait ran out: it is pending. A dropped connection: wait for it once more.
            return {
              hash: signed.hash,
              receipt: requestTimedOut(err) ? undefined : await waitReceipt(signed.hash),
            }
          }
          if (nonceRefused(err) && attempt < NONCE_ATTEMPTS) {
            // This very transaction may be what used the nonce (a copy that reached the node before an
            // answer was lost): then it is pending, never signed again with another nonce (a second
            // transfer of a used authorization reverts, and the payer would be refused after paying).
            // A node that cannot say is not proof either way: pending, never a second transfer.
            if ((await knownToNode(signed.hash)) !== false)
              return { hash: signed.hash, receipt: await waitReceipt(signed.hash) }
            // Otherwise the nonce is taken (mined, or one of ours still in the node's pool after a
            // restart: "replacement transaction underpriced"): past it, and past every nonce handed out.
            skipTaken(nonce)
            nonce = undefined
            continue
          }
          // Its nonce was not used: the same nonce again, with fees read afresh.
          if (feeRefused(err) && attempt < NONCE_ATTEMPTS) {
            fees.forget()
            continue
          }
          // A nonce the node calls taken is never given back nor filled (a filler at a higher fee would
          // replace the transaction holding it).
          if (nonceRefused(err)) skipTaken(nonce)
          else releaseNonce(nonce)
          throw new BroadcastRefusedError('the node refused the settlement', { cause: err })
        }
      }
    },
  }
}
