import { AppError } from '../../errors.js'
import type { FundsBook } from '../../store/sharedState.js'
import { SETTLEMENT_VISIBILITY_LAG_MS } from '../../store/sharedState.js'
import { FacilitatorUnavailableError, PaymentError } from '../paymentError.js'

/**
 * How long a balance read is trusted. Short, because a wallet can spend elsewhere; long enough that a
 * busy payer costs one `balanceOf` per this interval, not one per call.
 */
export const BALANCE_TTL_MS = 2_000
/**
 * How long a settled payment stays in the book: until no balance read that could predate it is still
 * trusted (the read's TTL, plus the lag before a settlement shows in reads).
 */
export const SETTLED_LINGER_MS = BALANCE_TTL_MS + SETTLEMENT_VISIBILITY_LAG_MS

export interface ReservedPayment {
  payer: `0x${string}`
  nonce: string
  amount: bigint
  /** How long the reservation may live at most (until the authorization can no longer settle). */
  ttlMs: number
}

/**
 * Never broadcast what cannot succeed. Each payment reserves its amount against the payer's USDC
 * balance before the handler runs; concurrent payments that together exceed the balance are refused
 * with `payment_insufficient_funds`, so the relayer never submits a transfer that must revert. The book
 * lives in the shared state (one per deployment with Redis), and the balance read is shared too: one
 * `balanceOf` per payer per BALANCE_TTL_MS, coalesced across the concurrent requests of this instance,
 * and refreshed ahead (in the background, past half its life) while the payer keeps calling.
 *
 * A reservation ends three ways: `settled` (it keeps counting until balance reads show the transfer),
 * `release` (nothing was or will be broadcast), or expiry (a pending settlement that may still land keeps
 * its reservation until its authorization expires).
 */
export interface FundsGuard {
  /** `beforeRead` runs before a balance is read from the chain (the gate checks the client's room). */
  reserve(payment: ReservedPayment, beforeRead?: () => Promise<void>): Promise<void>
  settled(payer: string, nonce: string): Promise<void>
  release(payer: string, nonce: string): Promise<void>
}

export function createFundsGuard(
  book: FundsBook,
  readBalance: (owner: `0x${string}`) => Promise<bigint>,
  now: () => number,
): FundsGuard {
  const reads = new Map<string, Promise<void>>()
  const refresh = (owner: `0x${string}`, key: string) => {
    let read = reads.get(key)
    if (read === undefined) {
      const readAtMs = now()
      read = readBalance(owner)
        .then((amount) => book.recordBalance(key, amount, readAtMs, BALANCE_TTL_MS))
        .finally(() => reads.delete(key))
      reads.set(key, read)
    }
    return read
  }
  return {
    async reserve(p, beforeRead) {
      const key = p.payer.toLowerCase()
      const id = p.nonce.toLowerCase()
      let { verdict, balanceReadAtMs } = await book.reserve(key, id, p.amount, p.ttlMs)
      if (verdict === 'unknown_balance') {
        await beforeRead?.()
        try {
          await refresh(p.payer, key)
        } catch (err) {
          // No balance, no way to know the transfer can succeed: a fault on our side, and free.
          if (err instanceof AppError) throw err
          throw new FacilitatorUnavailableError({ cause: err })
        }
        ;({ verdict, balanceReadAtMs } = await book.reserve(key, id, p.amount, p.ttlMs))
      } else if (verdict === 'reserved' && now() - balanceReadAtMs > BALANCE_TTL_MS / 2) {
        // Refresh ahead, off this request's path: a payer calling steadily never waits for a read.
        refresh(p.payer, key).catch(() => {})
      }
      if (verdict === 'insufficient') throw new PaymentError('payment_insufficient_funds')
      // Still unknown: the read expired before it could be used (an RPC slower than BALANCE_TTL_MS).
      if (verdict === 'unknown_balance') throw new FacilitatorUnavailableError()
    },
    settled: (payer, nonce) => book.settle(payer.toLowerCase(), nonce.toLowerCase(), SETTLED_LINGER_MS),
    release: (payer, nonce) => book.release(payer.toLowerCase(), nonce.toLowerCase()),
  }
}
