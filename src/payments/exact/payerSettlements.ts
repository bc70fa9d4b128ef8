import type { SharedState } from '../../store/sharedState.js'
import { PaymentError } from '../paymentError.js'

/**
 * How long past an authorization's expiry its claim, and its payer's settlement slot, are kept (clock
 * skew between us and the chain): after that the authorization cannot settle anymore.
 */
export const CLAIM_GRACE_SECONDS = 60

/** A payer's turn to settle: end it when the settlement is decided, or keep the slot while it may land. */
export interface SettleTurn {
  /** The settlement is decided (mined, refused or never sent): the payer's next one may go. */
  end(): Promise<void>
  /** The settlement may still land: the slot stays taken until it expires (the authorization's life). */
  keep(): void
}

/**
 * One settlement in flight per payer without code, one in flight across all payers with code, a
 * cool-down for payers whose settlement reverted, and a breaker for payers with code.
 *
 * Why: a payer with N calls' worth of USDC could have N settlements unmined at once, and one transaction
 * of its own (moving the USDC out, or switching its ERC-1271 wallet off) reverted all N at the relayer's
 * cost (issue 22: 8 of 8 per attacker transaction). A payer without code can only make its own
 * settlement fail (its balance, its nonce), so one in flight per such payer bounds a strike to one
 * revert. A payer with code (an ERC-1271 wallet, an EIP-7702 delegated EOA) can make its validity depend
 * on any state, shared by any number of wallets (one switch read by many, or "valid while payTo's
 * balance is unchanged", which our own settlements change): so all payers with code share one lane, and
 * once `codeRevertBudget` of their settlements reverted within a cool-down window, payers with code are
 * refused until it ends. Calls queue here (in order within an instance; across instances through a slot
 * in the shared state) for up to `waitMs`, then are refused, free.
 */
export interface PayerSettlements {
  /**
   * Whether the payer is cooling down (a settlement of its reverted recently), or, for a payer with
   * code, whether the breaker of payers with code is open.
   */
  coolingDown(payer: string, hasCode: boolean): Promise<boolean>
  /** Starts the payer's cool-down; a payer with code also counts towards the breaker. */
  coolDown(payer: string, hasCode: boolean): Promise<void>
  /**
   * Waits for the turn of the payer's lane (its own, or the one lane of payers with code);
   * `payment_payer_busy` past `waitMs`. The slot lives `ttlMs` at most.
   */
  turn(payer: string, hasCode: boolean, ttlMs: number): Promise<SettleTurn>
  /**
   * A kept settlement was decided (by the reconciler): frees its payer's slot. Only while the slot can
   * still be that settlement's (before its authorization's expiry and the grace): after, the slot has
   * expired and may be another settlement's.
   */
  decided(payer: string, validBefore: number, nowSec: number): Promise<void>
}

/** The lane of every payer with code (and the breaker's counter). */
const CODE_LANE = 'code-payers'

export function createPayerSettlements(
  state: SharedState,
  options: { cooldownMs: number; waitMs: number; pollMs: number; codeRevertBudget: number },
): PayerSettlements {
  const cooldownKey = (payer: string) => `cooldown:${payer.toLowerCase()}`
  const breakerKey = `reverts:${CODE_LANE}`
  const slotKey = (lane: string) => `settling:${lane}`
  // Within an instance, a lane's calls wait for each other here rather than poll the shared state.
  const tails = new Map<string, Promise<void>>()
  return {
    async coolingDown(payer, hasCode) {
      if (options.cooldownMs === 0) return false
      const [own, reverts] = await Promise.all([
        state.count(cooldownKey(payer)),
        hasCode ? state.count(breakerKey) : Promise.resolve(0),
      ])
      return own > 0 || reverts >= options.codeRevertBudget
    },
    async coolDown(payer, hasCode) {
      if (options.cooldownMs === 0) return
      await Promise.all([
        state.hit(cooldownKey(payer), options.cooldownMs),
        hasCode ? state.hit(breakerKey, options.cooldownMs) : undefined,
      ])
    },
    async decided(payer, validBefore, nowSec) {
      if (nowSec < validBefore + CLAIM_GRACE_SECONDS) await state.release(slotKey(payer.toLowerCase()))
    },
    async turn(payer, hasCode, ttlMs) {
      const key = hasCode ? CODE_LANE : payer.toLowerCase()
      const slot = slotKey(key)
      // Wall time, not the services' clock: this bounds how long a request waits.
      const deadline = Date.now() + options.waitMs
      const before = tails.get(key) ?? Promise.resolve()
      let done = () => {}
      const mine = new Promise<void>((resolve) => {
        done = resolve
      })
      const tail = before.then(() => mine)
      tails.set(key, tail)
      const finish = () => {
        done()
        if (tails.get(key) === tail) tails.delete(key)
      }
      try {
        await waitUntil(before, deadline)
        // Another instance may hold the slot: poll it until the deadline.
        while (!(await state.claim(slot, ttlMs))) {
          if (Date.now() >= deadline) throw new PaymentError('payment_payer_busy')
          await sleep(Math.min(options.pollMs, Math.max(1, deadline - Date.now())))
        }
      } catch (err) {
        finish()
        throw err
      }
      return {
        async end() {
          try {
            await state.release(slot)
          } finally {
            finish()
          }
        },
        keep: finish,
      }
    },
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves when `p` does, or throws `payment_payer_busy` at the deadline. */
async function waitUntil(p: Promise<void>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PaymentError('payment_payer_busy')),
      Math.max(0, deadline - Date.now()),
    )
  })
  try {
    await Promise.race([p, timeout])
  } finally {
    clearTimeout(timer)
  }
}
