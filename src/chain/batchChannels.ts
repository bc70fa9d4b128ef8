import { type Hex, type PublicClient, parseAbi } from 'viem'
import { X402_BATCH_SETTLEMENT } from './addresses.js'

/** The x402BatchSettlement views a claim round reads (the contract's own names, @x402/evm's ABI). */
const channelViews = parseAbi([
  'function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)',
  'function pendingWithdrawals(bytes32 channelId) view returns (uint128 amount, uint40 initiatedAt)',
])

/** A batch-settlement channel as the contract holds it. */
export interface OnchainChannel {
  balance: bigint
  totalClaimed: bigint
  /** Seconds since the epoch at which the payer's timed withdrawal began; 0 when none is pending. */
  withdrawInitiatedAt: number
}

/**
 * The channels' onchain state at one block (one multicall), keyed by lowercase channel id. Throws when any
 * read fails: a claim round judges channels only on what the chain said, never on a gap.
 */
export async function readBatchChannels(
  chain: PublicClient,
  ids: readonly Hex[],
): Promise<Map<string, OnchainChannel>> {
  const address = X402_BATCH_SETTLEMENT.settlement
  const answers = await chain.multicall({
    allowFailure: false,
    contracts: ids.flatMap((id) => [
      { address, abi: channelViews, functionName: 'channels', args: [id] } as const,
      { address, abi: channelViews, functionName: 'pendingWithdrawals', args: [id] } as const,
    ]),
  })
  const states = new Map<string, OnchainChannel>()
  ids.forEach((id, i) => {
    const [balance, totalClaimed] = answers[2 * i] as readonly [bigint, bigint]
    const [, initiatedAt] = answers[2 * i + 1] as readonly [bigint, number]
    states.set(id.toLowerCase(), { balance, totalClaimed, withdrawInitiatedAt: Number(initiatedAt) })
  })
  return states
}
