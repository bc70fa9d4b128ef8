import { type Address, erc20Abi, type PublicClient, parseAbiItem } from 'viem'
import { utilUsdValue } from '../analytics/utilUsdValue.js'
import { readUtilPoolPrice, type UtilPool, type UtilPoolPrice } from '../chain/readUtilPoolPrice.js'
import type { MemberStanding } from './propTerms.js'

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

/** Where a member's UTIL standing is read. */
export interface StandingSources extends UtilPool {
  deskRecipient: Address
  dead: Address
  /** The first block worth scanning for the member's burns and sends (the token's deployment). */
  logsFromBlock: bigint
}

/**
 * A member's UTIL held now, burned (sent to the dead address) and sent to the desk over its lifetime, each
 * valued at the pool's price now, with the price used. Burns and sends are the token's own `Transfer`
 * events filtered by sender and destination (indexed topics: one `eth_getLogs` each).
 */
export async function readMemberStanding(
  chain: PublicClient,
  sources: StandingSources,
  member: Address,
  executedActions: number,
): Promise<{ standing: MemberStanding; price: UtilPoolPrice }> {
  const sum = async (to: Address) => {
    const logs = await chain.getLogs({
      address: sources.util,
      event: TRANSFER,
      args: { from: member, to },
      fromBlock: sources.logsFromBlock,
      toBlock: 'latest',
    })
    return logs.reduce((total, log) => total + (log.args.value ?? 0n), 0n)
  }
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
