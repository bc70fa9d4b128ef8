import { type PublicClient, parseAbi } from 'viem'
import { USDC } from '../chain/network.js'
import type { Logger } from '../logger.js'
import type { Ledger } from '../store/ledger.js'

const AUTHORIZATION_STATE = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
])

export interface ReconcileResult {
  settled: number
  failed: number
  stillPending: number
}

/**
 * Settles the ledger's pending rows from the chain, never by rebroadcasting: a mined receipt decides;
 * without one, the token's `authorizationState` says whether the authorization was used (by our
 * transaction or another submitter's); an unused authorization past its `validBefore` can never move money,
 * so its row fails. Anything else waits for the next round.
 */
export async function reconcilePending(
  ledger: Ledger,
  chain: PublicClient,
  nowSec: number,
  logger?: Logger,
): Promise<ReconcileResult> {
  const result: ReconcileResult = { settled: 0, failed: 0, stillPending: 0 }
  for (const row of await ledger.pending()) {
    try {
      if (row.txHash !== null) {
        const receipt = await chain
          .getTransactionReceipt({ hash: row.txHash as `0x${string}` })
          .catch(() => null)
        if (receipt?.status === 'success') {
          await ledger.settle(row.id, row.txHash)
          result.settled++
          continue
        }
      }
      const used = await chain.readContract({
        address: USDC,
        abi: AUTHORIZATION_STATE,
        functionName: 'authorizationState',
        args: [row.payer as `0x${string}`, row.nonce as `0x${string}`],
      })
      if (used) {
        // The authorization pays payTo whoever submitted it: the money arrived, by our transaction or
        // by a copy someone else broadcast.
        await ledger.settle(row.id, row.txHash ?? '')
        result.settled++
      } else if (row.validBefore < nowSec) {
        await ledger.fail(row.id, 'expired_unsettled')
        result.failed++
      } else {
        result.stillPending++
      }
    } catch (err) {
      logger?.warn({ msg: 'reconcile failed for a row; will retry', id: row.id, err })
      result.stillPending++
    }
  }
  return result
}
