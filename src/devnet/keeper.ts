import type { Account, Address, Chain, Hex, PublicClient, Transport, WalletClient } from 'viem'
import { pollReceipt } from '../chain/pollReceipt.js'
import { gtradeStandInAbi } from './deploy/gtrade.js'

/**
 * Devnet keeper for the gTrade stand-in: it plays the oracle DON. Each tick pushes the current prices of the
 * pairs that have activity, fills every pending market order (open, close, leverage and position-size updates)
 * and executes every LIMIT/STOP open, TP, SL and liquidation whose trigger the price has crossed.
 */
export interface KeeperOptions {
  publicClient: PublicClient<Transport, Chain>
  /** Must be the diamond admin or a registered keeper (`setKeeper`). */
  walletClient: WalletClient<Transport, Chain, Account>
  /** The diamond (GTRADE_ADDRESSES.diamond on the devnet). */
  gtrade: Address
  /** Current oracle price of a pair, 1e10; return 0n to leave the stored price untouched. */
  prices: (pairIndex: number) => bigint
  /**
   * Serialises the keeper's transactions with the other senders of its account (DeployContext's
   * `exclusive`), so they never race for a nonce.
   */
  exclusive?: <T>(fn: () => Promise<T>) => Promise<T>
}

export interface StartKeeperOptions extends KeeperOptions {
  /** Pause between ticks; default 1000 ms. */
  intervalMs?: number
  /** Called with errors of a whole tick (individual order failures are reported in the tick result). */
  onError?: (error: unknown) => void
}

export interface KeeperAction {
  kind: 'setPrice' | 'executeMarketOrder' | 'executeTrigger'
  /** Pair index for setPrice, trader otherwise. */
  pairIndex?: number
  user?: Address
  index?: number
  /** PendingOrderType of a trigger (2 LIMIT_OPEN, 3 STOP_OPEN, 4 TP_CLOSE, 5 SL_CLOSE, 6 LIQ_CLOSE). */
  orderType?: number
  hash?: Hex
  error?: string
}

export interface KeeperTickResult {
  actions: KeeperAction[]
}

export interface RunningKeeper {
  /** Run one tick now (serialised with the timer's ticks). */
  tick(): Promise<KeeperTickResult>
  /**
   * Set every listed pair's price, not only those with activity (serialised with the ticks): the world
   * does it once at its start, so no pair's stored price is the build's until its first trade.
   */
  priceEveryPair(): Promise<KeeperAction[]>
  stop(): Promise<void>
}

async function send(
  options: KeeperOptions,
  functionName: 'setPrice' | 'executeMarketOrder' | 'executeTrigger',
  args: readonly unknown[],
): Promise<{ hash?: Hex; error?: string }> {
  try {
    const exclusive = options.exclusive ?? (<T>(fn: () => Promise<T>) => fn())
    const { hash, receipt } = await exclusive(async () => {
      const hash = await options.walletClient.writeContract({
        address: options.gtrade,
        abi: gtradeStandInAbi,
        functionName,
        args,
      } as Parameters<typeof options.walletClient.writeContract>[0])
      // Bounded: a transaction that is never mined fails the tick with its hash instead of stalling it.
      const receipt = await pollReceipt(options.publicClient, hash, { intervalMs: 20, timeoutMs: 30_000 })
      return { hash, receipt }
    })
    return receipt.status === 'success' ? { hash } : { hash, error: 'reverted' }
  } catch (error) {
    return { error: error instanceof Error ? error.message.split('\n')[0] : String(error) }
  }
}

/** Writes the oracle price of each pair whose stored price differs. */
async function setPrices(options: KeeperOptions, pairIndexes: readonly number[]): Promise<KeeperAction[]> {
  const { publicClient, gtrade } = options
  const actions: KeeperAction[] = []
  for (const pairIndex of [...pairIndexes].sort((a, b) => a - b)) {
    const price = options.prices(pairIndex)
    if (price <= 0n) continue
    const stored = await publicClient.readContract({
      address: gtrade,
      abi: gtradeStandInAbi,
      functionName: 'prices',
      args: [BigInt(pairIndex)],
    })
    if (stored === price) continue
    actions.push({
      kind: 'setPrice',
      pairIndex,
      ...(await send(options, 'setPrice', [BigInt(pairIndex), price])),
    })
  }
  return actions
}

/** One keeper pass over every trader of the diamond. */
export async function keeperTick(options: KeeperOptions): Promise<KeeperTickResult> {
  const { publicClient, gtrade } = options
  const abi = gtradeStandInAbi
  const actions: KeeperAction[] = []
  const traders = await publicClient.readContract({
    address: gtrade,
    abi,
    functionName: 'getTraders',
    args: [0, 0],
  })
  const books = await Promise.all(
    traders.map(async (user) => {
      const [trades, pending] = await Promise.all([
        publicClient.readContract({ address: gtrade, abi, functionName: 'getTrades', args: [user] }),
        publicClient.readContract({ address: gtrade, abi, functionName: 'getPendingOrders', args: [user] }),
      ])
      return { user, trades, pending }
    }),
  )

  const activePairs = new Set<number>()
  for (const book of books) {
    for (const trade of book.trades) activePairs.add(trade.pairIndex)
    for (const order of book.pending) activePairs.add(order.trade.pairIndex)
  }
  actions.push(...(await setPrices(options, [...activePairs])))

  for (const book of books) {
    for (const order of book.pending) {
      const result = await send(options, 'executeMarketOrder', [book.user, order.index])
      actions.push({ kind: 'executeMarketOrder', user: book.user, index: order.index, ...result })
    }
  }

  for (const book of books) {
    for (const trade of book.trades) {
      const orderType = await publicClient.readContract({
        address: gtrade,
        abi,
        functionName: 'triggerableOrderType',
        args: [book.user, trade.index],
      })
      if (orderType === 0) continue
      const result = await send(options, 'executeTrigger', [book.user, trade.index, orderType])
      actions.push({ kind: 'executeTrigger', user: book.user, index: trade.index, orderType, ...result })
    }
  }
  return { actions }
}

/** Poll and execute every `intervalMs` until stopped. Ticks never overlap. */
export function startKeeper(options: StartKeeperOptions): RunningKeeper {
  const intervalMs = options.intervalMs ?? 1_000
  let stopped = false
  let chain: Promise<unknown> = Promise.resolve()
  let timer: NodeJS.Timeout | undefined

  const serialised = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn)
    chain = run.catch(() => undefined)
    return run
  }
  const tick = (): Promise<KeeperTickResult> => serialised(() => keeperTick(options))
  const schedule = (): void => {
    if (stopped) return
    timer = setTimeout(() => {
      tick()
        .catch((error: unknown) => options.onError?.(error))
        .finally(schedule)
    }, intervalMs)
  }
  schedule()

  return {
    tick,
    priceEveryPair: () =>
      serialised(async () => {
        const count = await options.publicClient.readContract({
          address: options.gtrade,
          abi: gtradeStandInAbi,
          functionName: 'pairsCount',
        })
        return setPrices(
          options,
          Array.from({ length: Number(count) }, (_, i) => i),
        )
      }),
    async stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      await chain
    },
  }
}
