import type { Hex } from 'viem'
import type { MidnightMarket, MidnightOffer } from '../../chain/midnight.js'

/**
 * What the Morpho API simulator needs from the chain: every Midnight market the devnet holds and the offers
 * its offer book (the devnet's stand-in for Morpho's off-chain book) can still fill. The devnet reads them
 * with viem; the simulator only groups and formats them.
 */
export interface MidnightBookSource {
  markets(): Promise<readonly MidnightSourceMarket[]>
}

export interface MidnightSourceMarket {
  id: Hex
  market: MidnightMarket
  offers: readonly MidnightSourceOffer[]
}

export interface MidnightSourceOffer {
  /** Maker buys units (a lender-maker: a bid) or sells them (a borrower-maker: an ask). */
  buy: boolean
  tick: number
  /** WAD price of the tick, as Midnight's take computes it. */
  price: bigint
  /** What is left to fill: units, or assets when the offer is capped by maxAssets. */
  remaining: bigint
  cappedByAssets: boolean
  /** The offer itself and its ratifier data, for `/takeable-offers` (absent: listed in levels only). */
  offer?: MidnightOffer
  ratifierData?: Hex
}
