import type { Address, PublicClient } from 'viem'
import { utilUsdValue } from '../analytics/utilUsdValue.js'
import { readUtilPoolPrice, type UtilPool } from '../chain/readUtilPoolPrice.js'
import { ChainReadError, readUtilTransfer, type TransferProblem } from '../chain/readUtilTransfer.js'
import { UpstreamError } from '../errors.js'
import { TopUpError, type TopUpErrorCode } from '../payments/topUpErrors.js'
import type { TopUp } from '../store/creditBook.js'

/** Where a top-up is read: the UTIL token and its pool, where it must go, and how old it may be. */
export interface TopUpTerms extends UtilPool {
  recipient: Address
  /** A transfer whose block is this old or older is refused (the spec's 24 hours). */
  maxAgeSec: number
}

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
 * in several); the credit is its value at the pool's price **at the transfer's block**: the lower of the
 * prices before and after that block (historical `eth_call`s: exact and free of any averaging; the RPC must
 * serve 24 hours of state, see docs/credit.md).
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
    // The lower of the pool's price before and after the transfer's block: a price pushed up inside that
    // block (a swap just ahead of the transfer, sold back in the next block) does not inflate the credit.
    const [before, after] = await Promise.all([
      readUtilPoolPrice(chain, terms, transfer.blockNumber > 0n ? transfer.blockNumber - 1n : 0n),
      readUtilPoolPrice(chain, terms, transfer.blockNumber),
    ])
    const value = (p: typeof after) => utilUsdValue(transfer.amount, p.sqrtPriceX96, p.utilIsToken0)
    const [a, b] = [value(before), value(after)]
    return {
      txHash: txHash as `0x${string}`,
      wallet: payer,
      utilAmount: transfer.amount,
      // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers)
      usdAtomic: a < b ? a : b,
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
