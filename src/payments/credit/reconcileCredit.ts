import type { PublicClient } from 'viem'
import { USDC } from '../../chain/network.js'
import type { Logger } from '../../logger.js'
import { authorizationTransfer, blockAtOrBefore, USDC_SETTLEMENT_ABI } from '../exact/settlementOutcome.js'
import type { CreditBook, DebitRecord } from './creditBook.js'

/**
 * How long after its `validBefore` a credit-paid authorization is still looked at: a few reconcile rounds,
 * so a use mined in its last valid block is seen. Past it, the debit is final.
 */
export const CREDIT_FINAL_AFTER_SECONDS = 120
/**
 * A debit held this long belongs to a call that was never answered (its instance stopped between the debit
 * and the handler's outcome): the credit goes back. Far above any handler's time limit.
 */
export const HELD_STALE_SECONDS = 300
/**
 * How far before a debit its authorization's onchain use is searched for. A use can precede the call (a
 * copy submitted first), but not by more than the authorization's validity allows in practice: the gate
 * accepts validBefore at most ~150 s ahead, and wallets sign validAfter a few seconds back.
 */
const USE_LOOKBACK_SECONDS = 3_600
/** Authorization states read per multicall. */
const CHUNK = 500

export interface CreditReconcileResult {
  /** Debits given back because their authorization paid USDC onchain after all. */
  restored: number
  /** Debits given back because their call was never answered. */
  released: number
}

/**
 * The credit rail's reconcile round. A credit-paid authorization is never submitted by us, but anyone holding
 * it can submit it while it is valid: then the call was paid in USDC and its debit is restored. The used
 * state alone cannot tell (a cancelled authorization reads the same), nor can the token's `AuthorizationUsed`
 * event alone (the wallet can use its own nonce with another authorization, paying itself), so a restore needs
 * that event paired with its USDC transfer to payTo of at least the posted price. Every write is conditional on the row's status, so
 * instances running rounds together restore once.
 */
export async function reconcileCredit(
  deps: {
    chain: PublicClient
    book: CreditBook
    /** Where a credit-paid authorization pays (the gate refuses any other `to`): PAY_TO. */
    payTo: `0x${string}`
    logger?: Logger
  },
  nowSec: number,
): Promise<CreditReconcileResult> {
  const { chain, book, logger } = deps
  const result: CreditReconcileResult = { restored: 0, released: 0 }
  const open = await book.open(nowSec - CREDIT_FINAL_AFTER_SECONDS)
  if (open.length === 0) return result

  const used: DebitRecord[] = []
  for (let i = 0; i < open.length; i += CHUNK) {
    const chunk = open.slice(i, i + CHUNK)
    const states = await chain.multicall({
      contracts: chunk.map((d) => ({
        address: USDC,
        abi: USDC_SETTLEMENT_ABI,
        functionName: 'authorizationState',
        args: [d.wallet, d.nonce],
      })),
      allowFailure: false,
    })
    chunk.forEach((d, j) => {
      if (states[j] === true) used.push(d)
    })
  }
  const restoredIds = new Set<number>()
  for (const debit of used) {
    if (!(await paidOnchain(chain, debit, deps.payTo))) continue
    if (await book.restore(debit.id)) {
      result.restored++
      logger?.info({
        msg: 'credit restored: its authorization paid USDC onchain',
        id: debit.id,
        wallet: debit.wallet,
      })
    }
    restoredIds.add(debit.id)
  }
  for (const debit of open) {
    if (debit.status !== 'held' || restoredIds.has(debit.id)) continue
    if (nowSec - Math.floor(debit.createdAt.getTime() / 1000) < HELD_STALE_SECONDS) continue
    if (await book.release(debit.id)) result.released++
  }
  return result
}

/**
 * Whether the authorization paid the call in USDC after all: its use (`AuthorizationUsed`) paired with USDC's
 * transfer from the wallet to payTo of at least the route's posted price (the debit is half of it, rounded
 * up). A use alone proves nothing: the wallet can spend its own nonce with another authorization of its own
 * (one unit to itself), which marks it used exactly the same, and a cancel reads as used as well.
 */
async function paidOnchain(chain: PublicClient, debit: DebitRecord, payTo: `0x${string}`): Promise<boolean> {
  const since = Math.floor(debit.createdAt.getTime() / 1000) - USE_LOOKBACK_SECONDS
  const fromBlock = await blockAtOrBefore(chain, since)
  const logs = await chain.getLogs({
    address: USDC,
    event: USDC_SETTLEMENT_ABI[1],
    args: { authorizer: debit.wallet, nonce: debit.nonce },
    fromBlock,
    toBlock: 'latest',
  })
  const postedPrice = debit.amount * 2n - 1n
  for (const log of logs) {
    const receipt = await chain.getTransactionReceipt({ hash: log.transactionHash })
    const paid = authorizationTransfer(receipt, debit.wallet, debit.nonce)
    if (paid !== undefined && paid.to.toLowerCase() === payTo.toLowerCase() && paid.value >= postedPrice) {
      return true
    }
  }
  return false
}
