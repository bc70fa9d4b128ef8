import { type Address, erc20Abi, type PublicClient } from 'viem'
import { utilUsdValue } from '../analytics/utilUsdValue.js'
import { readUtilPoolPrice, type UtilPool, type UtilPoolPrice } from '../chain/readUtilPoolPrice.js'
import type { MemberStanding } from './propTerms.js'
import type { UtilSendIndex } from './utilSendIndex.js'

/** Where a member's UTIL standing is read. */
export interface StandingSources extends UtilPool {
  deskRecipient: Address
  dead: Address
  /** What each member sent the desk and burned (the store's index of the token's transfers). */
  sends: UtilSendIndex
}

/**
 * A member's UTIL held now, burned (sent to the dead address) and sent to the desk over its lifetime, each
 * valued at the pool's price now, with the price used. Burns and sends come from the desk's index of the
 * token's `Transfer` events (utilSendIndex: the stored totals and the blocks since, never a rescan).
 */
export async function readMemberStanding(
  chain: PublicClient,
  sources: StandingSources,
  member: Address,
  executedActions: number,
): Promise<{ standing: MemberStanding; price: UtilPoolPrice }> {
  const sums = sources.sends.sentBy(member)
  const sum = async (to: Address) => (await sums).get(to.toLowerCase()) ?? 0n
  const [held, burned, sent, price] = await Promise.all([
    chain.readContract({ address: sources.util, abi: erc20Abi, functionName: 'balanceOf', args: [member] }),
    sum(sources.dead),
    sum(sources.deskRecipient),
    readUtilPoolPrice(chain, sources),
  ])
  const usd = (util: bigint) => Number(utilUsdValue(util, price.sqrtPriceX96, price.utilIsToken0)) / 1e6
  return {
    standing: { heldUsd: usd(held), burnedUsd: usd(burned), sentUsd: usd(sent), executedActions },
    price,
  }
}
