import {
  type Abi,
  type Address,
  decodeEventLog,
  isAddressEqual,
  type PublicClient,
  parseAbi,
  type TransactionReceipt,
} from 'viem'
import gtradeAbiJson from '../chain/abis/gtradeDiamondReads.json' with { type: 'json' }
import { BASE_ADDRESSES } from '../chain/addresses.js'

const initiatedAbi = parseAbi([
  'event MarketOrderInitiated((address user, uint32 index) orderId, address indexed trader, uint16 indexed pairIndex, bool open)',
])
const executedEvent = (gtradeAbiJson as Abi).find(
  (item) => item.type === 'event' && item.name === 'MarketExecuted',
)

/** The MARKET order the desk's `openTrade` queued (the venue fills it later): its pending order index. */
export function openedOrder(receipt: TransactionReceipt, desk: Address): { index: number } | undefined {
  for (const log of receipt.logs) {
    if (!isAddressEqual(log.address, BASE_ADDRESSES.GtradeDiamond)) continue
    try {
      const event = decodeEventLog({ abi: initiatedAbi, data: log.data, topics: log.topics })
      if (event.args.open && isAddressEqual(event.args.trader, desk))
        return { index: event.args.orderId.index }
    } catch {
      // Another event of the diamond.
    }
  }
  return undefined
}

/**
 * The trade index the venue gave the desk's MARKET open `orderIndex` when it filled it (its
 * `MarketExecuted` event, from the open's block on), or undefined while it is not filled.
 */
export async function findFill(
  chain: PublicClient,
  desk: Address,
  orderIndex: number,
  fromBlock: bigint,
): Promise<number | undefined> {
  if (executedEvent === undefined) throw new Error('the gTrade ABI has no MarketExecuted event')
  const logs = await chain.getLogs({
    address: BASE_ADDRESSES.GtradeDiamond,
    event: executedEvent as Extract<Abi[number], { type: 'event' }>,
    args: { user: desk },
    fromBlock,
    toBlock: 'latest',
  })
  for (const log of logs) {
    const args = (log as unknown as { args: { orderId: { index: number }; index: number; open: boolean } })
      .args
    if (args.open && args.orderId.index === orderIndex) return args.index
  }
  return undefined
}
