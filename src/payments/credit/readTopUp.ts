import type { Address, PublicClient } from 'viem'
import { readPoolOracle } from '../../chain/readPoolOracle.js'
import { readPoolUsdc, readUtilPoolPrice, type UtilPool } from '../../chain/readUtilPoolPrice.js'
import { ChainReadError, readUtilTransfer, type TransferProblem } from '../../chain/readUtilTransfer.js'
import { UpstreamError } from '../../errors.js'
import type { TopUp } from './creditBook.js'
import { TopUpError, type TopUpErrorCode } from './topUpErrors.js'
import { valueTopUp } from './valueTopUp.js'

/** Where a top-up is read: the UTIL token and its pool, where it must go, and how old it may be. */
export interface TopUpTerms extends UtilPool {
  recipient: Address
  /** A transfer whose block is this old or older is refused (the spec's 24 hours). */
  maxAgeSec: number
  /** The window of the pool oracle's time-weighted mean price that bounds a credit. */
  oracleWindowSec: number
  /** A top-up is credited at most this share of the pool's USDC depth. */
  maxShareOfPool: number
}

/** The shortest oracle window a top-up is valued on. */
const MIN_ORACLE_SECONDS = 60

/** Each way a presented transaction is not a top-up, as the caller is told. */
const REFUSAL: Record<TransferProblem, TopUpErrorCode> = {
  malformed: 'topup_malformed',
  unknown: 'topup_unknown',
  not_mined: 'topup_not_mined',
  reverted: 'topup_reverted',
  wrong_token: 'topup_not_util',
  wrong_destination: 'topup_wrong_recipient',
  wrong_sender: 'topup_wrong_sender',
  too_old: 'topup_too_old',
}

/**
 * Reads the UTIL transfer a top-up names and values it, or refuses it with its code. The transfer is the sum
 * of the transaction's UTIL `Transfer` events from `payer` to the recipient (a router may split one payment
 * in several); the credit is the least of its value at the pool's spot price before and after the transfer's
 * block, at the pool oracle's time-weighted mean price over the window before it, and a share of the pool's
 * USDC depth (valueTopUp.ts; `eth_call`s at those two blocks: the RPC must serve 24 hours of state, see
 * docs/credit.md).
 * Reads only: it changes nothing.
 */
export async function readTopUp(
  chain: PublicClient,
  terms: TopUpTerms,
  txHash: string,
  payer: Address,
  nowSec: number,
): Promise<TopUp> {
  try {
    const transfer = await readUtilTransfer(chain, txHash, {
      token: terms.util,
      to: terms.recipient,
      from: payer,
      maxAgeSec: terms.maxAgeSec,
      nowSec,
    })
    if ('problem' in transfer) {
      const details =
        transfer.problem === 'wrong_sender'
          ? { sender: transfer.sender, payer }
          : transfer.problem === 'wrong_destination'
            ? { recipient: terms.recipient }
            : transfer.problem === 'too_old'
              ? { maxAgeSec: terms.maxAgeSec }
              : undefined
      throw new TopUpError(REFUSAL[transfer.problem], undefined, details)
    }
    const before = transfer.blockNumber > 0n ? transfer.blockNumber - 1n : 0n
    const [spotBefore, spotAt, usdcHeld, oracle] = await Promise.all([
      readUtilPoolPrice(chain, terms, before),
      readUtilPoolPrice(chain, terms, transfer.blockNumber),
      readPoolUsdc(chain, terms, before),
      readPoolOracle(chain, terms, before, terms.oracleWindowSec),
    ])
    // A pool whose oracle barely reaches back (a ring of one slot answers only since its last swap, which a
    // push just before the transfer writes) would leave the spot price alone to value the top-up: refused.
    if (oracle === undefined || oracle.seconds < MIN_ORACLE_SECONDS) {
      throw new TopUpError('topup_price_unavailable', undefined, { oracleSeconds: oracle?.seconds ?? 0 })
    }
    const { usdAtomic } = valueTopUp(
      transfer.amount,
      {
        sqrtPriceBefore: spotBefore.sqrtPriceX96,
        sqrtPriceAt: spotAt.sqrtPriceX96,
        utilIsToken0: spotAt.utilIsToken0,
        usdcHeld,
        oracle,
      },
      terms.maxShareOfPool,
    )
    return {
      txHash: txHash as `0x${string}`,
      wallet: payer,
      utilAmount: transfer.amount,
      usdAtomic,
      blockNumber: transfer.blockNumber,
      blockTime: transfer.blockTime,
    }
  } catch (err) {
    if (err instanceof TopUpError) throw err
    // The chain (or the pool at that block) could not be read: a fault on our side, free.
    throw new UpstreamError('chain RPC', err instanceof ChainReadError ? err.message : 'the UTIL/USDC pool', {
      cause: err,
    })
  }
}
