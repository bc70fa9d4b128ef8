import {
  type Hex,
  type Log,
  type PublicClient,
  parseAbi,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem'
import { USDC } from '../../chain/network.js'

export const USDC_SETTLEMENT_ABI = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
])

/** What a payment should have done onchain: `payer` → `payTo`, exactly `amount`, under `nonce`. */
export interface ExpectedTransfer {
  payer: `0x${string}`
  payTo: `0x${string}`
  nonce: Hex
  amount: bigint
  /** Our settlement transaction, when one was broadcast and its hash is known. */
  txHash: Hex | undefined
  validBefore: number
  /** When the row was opened: no settlement of ours can be older. */
  openedAtSec: number
}

export type SettlementOutcome =
  | { kind: 'paid'; txHash: Hex }
  | { kind: 'unpaid'; reason: UnpaidReason; txHash?: Hex }
  | { kind: 'pending' }

export type UnpaidReason =
  /** The payer cancelled the authorization (`cancelAuthorization`) before it was used. */
  | 'authorization_canceled'
  /** The authorization was used, but not for this transfer (another authorization with the same nonce). */
  | 'authorization_used_elsewhere'
  /** Our transaction was mined and moved nothing, and the authorization is still unused. */
  | 'settlement_reverted'
  /** Nothing used the authorization before it expired. */
  | 'expired_unsettled'

/**
 * How far before a row's opening its authorization's events are searched: the database's clock and
 * block timestamps may disagree, and nothing of ours can predate the row by more.
 */
const SEARCH_MARGIN_SEC = 600
/** After `validBefore`, blocks whose timestamps lag the wall clock may still include a transfer. */
const EXPIRY_GRACE_SEC = 60

/**
 * Decides from the chain alone whether a payment arrived. Only a USDC `Transfer` of exactly `amount`
 * from the payer to payTo, emitted by the very `transferWithAuthorization` call that used this
 * authorization (USDC logs `AuthorizationUsed` and then its `Transfer`), in a successful transaction, is
 * paid. `authorizationState == true` is not proof: a cancelled nonce is used too. Our own transaction's
 * receipt decides first; otherwise the authorization's own events since the row was opened (someone
 * else may have submitted it, or the payer cancelled it). Every read is pinned to one block, so a state
 * read and a log search can never come from two different heads.
 */
export async function settlementOutcome(
  chain: PublicClient,
  expected: ExpectedTransfer,
  nowSec: number,
  findBlock: (timestampSec: number) => Promise<bigint> = (t) => blockAtOrBefore(chain, t),
  /** Our transaction's receipt when the caller holds it already (the facilitator waited for it). */
  knownReceipt?: TransactionReceipt,
): Promise<SettlementOutcome> {
  const ours =
    knownReceipt !== undefined && knownReceipt.transactionHash === expected.txHash
      ? knownReceipt
      : expected.txHash === undefined
        ? null
        : await receiptOrNull(chain, expected.txHash)
  if (ours !== null && paysAsExpected(ours, expected)) return { kind: 'paid', txHash: ours.transactionHash }

  // A fresh head (viem caches the block number for its polling interval), and never one behind our own
  // receipt: a head from before the block that used the authorization would read it as unused.
  const fresh = await chain.getBlockNumber({ cacheTime: 0 })
  const head = ours !== null && ours.blockNumber > fresh ? ours.blockNumber : fresh
  const used = await chain.readContract({
    address: USDC,
    abi: USDC_SETTLEMENT_ABI,
    functionName: 'authorizationState',
    args: [expected.payer, expected.nonce],
    blockNumber: head,
  })
  if (!used) {
    if (ours !== null) return { kind: 'unpaid', reason: 'settlement_reverted', txHash: ours.transactionHash }
    if (expected.validBefore + EXPIRY_GRACE_SEC < nowSec)
      return { kind: 'unpaid', reason: 'expired_unsettled' }
    return { kind: 'pending' }
  }

  const fromBlock = await findBlock(expected.openedAtSec - SEARCH_MARGIN_SEC)
  const args = { authorizer: expected.payer, nonce: expected.nonce }
  const range = { address: USDC, args, fromBlock, toBlock: head } as const
  const [usedLogs, canceledLogs] = await Promise.all([
    chain.getLogs({ ...range, event: USDC_SETTLEMENT_ABI[1] }),
    chain.getLogs({ ...range, event: USDC_SETTLEMENT_ABI[2] }),
  ])
  const usedBy = usedLogs[0]?.transactionHash ?? null
  if (usedBy !== null) {
    const receipt =
      ours?.transactionHash === usedBy ? ours : await chain.getTransactionReceipt({ hash: usedBy })
    if (paysAsExpected(receipt, expected)) return { kind: 'paid', txHash: usedBy }
    return { kind: 'unpaid', reason: 'authorization_used_elsewhere', txHash: usedBy }
  }
  const canceledBy = canceledLogs[0]?.transactionHash ?? undefined
  if (canceledBy !== undefined)
    return { kind: 'unpaid', reason: 'authorization_canceled', txHash: canceledBy }
  // Used at the pinned head, yet no event since the row was opened. The gate saw it unused before
  // opening the row, so this is the RPC contradicting itself (a log index lagging its state, a batch's
  // results paired with the wrong requests): no evidence closes nothing while the authorization is
  // valid and could still be ours. Past its validity (and the grace), it was consumed elsewhere.
  if (expected.validBefore + EXPIRY_GRACE_SEC >= nowSec) return { kind: 'pending' }
  return { kind: 'unpaid', reason: 'authorization_used_elsewhere' }
}

/**
 * The receipt succeeded and carries this authorization's use immediately followed, as USDC emits them,
 * by its own transfer: exactly `amount` from the payer to payTo. Pairing by position matters: one
 * transaction can use several authorizations, and a transfer of another one must not pay for this one.
 */
export function paysAsExpected(receipt: TransactionReceipt, expected: ExpectedTransfer): boolean {
  const paid = authorizationTransfer(receipt, expected.payer, expected.nonce)
  return (
    paid !== undefined &&
    paid.to.toLowerCase() === expected.payTo.toLowerCase() &&
    paid.value === expected.amount
  )
}

/**
 * The USDC transfer the authorization (`payer`, `nonce`) made in this successful receipt: the `Transfer`
 * USDC emits right after its `AuthorizationUsed`, from the payer. Undefined when the receipt failed, does
 * not use it, or used it without that transfer. The nonce alone says nothing of where the money went: the
 * payer can use it with an authorization of its own, to any address, for any value.
 */
export function authorizationTransfer(
  receipt: TransactionReceipt,
  payer: `0x${string}`,
  nonce: Hex,
): { to: `0x${string}`; value: bigint } | undefined {
  if (receipt.status !== 'success') return undefined
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
  const logs = [...receipt.logs].sort((a: Log, b: Log) => (a.logIndex ?? 0) - (b.logIndex ?? 0))
  const events = parseEventLogs({ abi: USDC_SETTLEMENT_ABI, logs, strict: true })
  for (const [i, e] of events.entries()) {
    if (e.eventName !== 'AuthorizationUsed' || !same(e.address, USDC)) continue
    if (!same(e.args.authorizer, payer) || !same(e.args.nonce, nonce)) continue
    const next = events[i + 1]
    if (
      next === undefined ||
      next.eventName !== 'Transfer' ||
      !same(next.address, USDC) ||
      next.logIndex !== (e.logIndex ?? -2) + 1 ||
      !same(next.args.from, payer)
    ) {
      return undefined
    }
    return { to: next.args.to, value: next.args.value }
  }
  return undefined
}

async function receiptOrNull(chain: PublicClient, hash: Hex): Promise<TransactionReceipt | null> {
  try {
    return await chain.getTransactionReceipt({ hash })
  } catch (err) {
    // Not mined (yet, or dropped): viem throws TransactionReceiptNotFoundError. Anything else is a fault.
    if ((err as { name?: string }).name === 'TransactionReceiptNotFoundError') return null
    throw err
  }
}

/** The last block with a timestamp at or before `timestampSec` (binary search, O(log n) reads). */
export async function blockAtOrBefore(chain: PublicClient, timestampSec: number): Promise<bigint> {
  let hi = await chain.getBlockNumber()
  let lo = 0n
  const at = async (n: bigint) => Number((await chain.getBlock({ blockNumber: n })).timestamp)
  if ((await at(hi)) <= timestampSec) return hi
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n
    if ((await at(mid)) <= timestampSec) lo = mid
    else hi = mid - 1n
  }
  return lo
}
