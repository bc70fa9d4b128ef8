import { type Hex, type PublicClient, parseAbi } from 'viem'
import { type MidnightMarket, midnightReadAbi } from '../chain/midnight.js'
import type { StoredDevnetManifest } from './buildState.js'
import { MIDNIGHT_ADDRESSES, midnightStandInAbi } from './deploy/midnight.js'
import type { MidnightBookSource, MidnightSourceOffer } from './upstreams/midnightBookSource.js'

const createMarketEvent = parseAbi([
  'struct CollateralParams { address token; uint256 lltv; uint256 liquidationCursor; address oracle; }',
  'struct Market { uint256 chainId; address midnight; address loanToken; CollateralParams[] collateralParams; uint256 maturity; uint256 rcfThreshold; address enterGate; address liquidatorGate; }',
  'event CreateMarket(bytes32 indexed id, Market market)',
])[0]

/**
 * The Morpho API simulator's data, read from the devnet chain: the markets are the ones the build recorded
 * (`knownIds`, from the manifest) plus every `CreateMarket` the Midnight stand-in emitted since (a test may
 * open one); each market's parameters come from `toMarket(id)` and its offers from the offer book's
 * `liveOffers(id)` (offers that are started, unexpired, uncanceled and not used up), with each tick's price
 * from Midnight's own `tickToPrice`.
 */
export function chainMidnightBooks(
  client: PublicClient,
  options: { knownIds?: readonly Hex[] } = {},
): MidnightBookSource {
  const midnight = MIDNIGHT_ADDRESSES.midnight
  return {
    async markets() {
      const logs = await client.getLogs({
        address: midnight,
        event: createMarketEvent,
        fromBlock: 0n,
        toBlock: 'latest',
      })
      const ids = [
        ...new Set(
          [
            ...(options.knownIds ?? []),
            ...logs.flatMap((l) => (l.args.id === undefined ? [] : [l.args.id])),
          ].map((id) => id.toLowerCase() as Hex),
        ),
      ]
      if (ids.length === 0) return []
      const [markets, books] = await Promise.all([
        client.multicall({
          allowFailure: false,
          contracts: ids.map((id) => ({
            address: midnight,
            abi: midnightReadAbi,
            functionName: 'toMarket' as const,
            args: [id] as const,
          })),
        }),
        client.multicall({
          allowFailure: false,
          contracts: ids.map((id) => ({
            address: MIDNIGHT_ADDRESSES.offerBook,
            abi: midnightStandInAbi,
            functionName: 'liveOffers' as const,
            args: [id] as const,
          })),
        }),
      ])
      const ticks = [...new Set(books.flatMap(([, offers]) => offers.map((o) => o.tick)))]
      const prices = await client.multicall({
        allowFailure: false,
        contracts: ticks.map((tick) => ({
          address: midnight,
          abi: midnightStandInAbi,
          functionName: 'tickToPrice' as const,
          args: [tick] as const,
        })),
      })
      const priceOf = new Map(ticks.map((tick, i) => [tick, prices[i] as bigint]))
      return ids.flatMap((id, i) => {
        const market = markets[i] as MidnightMarket
        const [, offers, ratifierData, remaining] = books[i] as (typeof books)[number]
        // toMarket of an id the stand-in never stored is all zeros: not a market.
        if (market.loanToken === '0x0000000000000000000000000000000000000000') return []
        return [
          {
            id,
            market,
            offers: offers.map(
              (o, k): MidnightSourceOffer => ({
                buy: o.buy,
                tick: Number(o.tick),
                price: priceOf.get(o.tick) as bigint,
                remaining: remaining[k] as bigint,
                cappedByAssets: o.maxAssets > 0n,
                offer: o,
                ratifierData: ratifierData[k] as Hex,
              }),
            ),
          },
        ]
      })
    },
  }
}

/** The Midnight market ids the build recorded in the manifest (module `midnight`); none if it was skipped. */
export function midnightMarketIds(manifest: StoredDevnetManifest): Hex[] {
  const markets = manifest.modules.midnight?.markets
  if (!Array.isArray(markets)) return []
  return markets.flatMap((m) => {
    const id = typeof m === 'object' && m !== null && 'id' in m ? m.id : undefined
    return typeof id === 'string' && /^0x[0-9a-fA-F]{64}$/.test(id) ? [id as Hex] : []
  })
}
