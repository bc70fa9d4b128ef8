import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  zeroAddress,
} from 'viem'
import { z } from 'zod'
import { atomicAmount, marketId } from '../../chain/fields.js'
import { midnightAbi, midnightMarketId } from '../../chain/midnight.js'
import { CHAIN_UPSTREAM } from '../../chain/multiRead.js'
import { UpstreamError } from '../../errors.js'
import {
  MIDNIGHT_API,
  type MidnightBook,
  type MidnightTakeableOffer,
  type MorphoMidnight,
} from '../../market/upstreams/morphoMidnight.js'
import { BuildRefusedError } from '../builderErrors.js'
import type { Probe, ProbeResult } from '../simulateBundle.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, SimulationReport, TxStep } from '../txStep.js'
import { type FixedMarket, MIDNIGHT } from './fixedMarket.js'
import { aprOf, averagePrice, type Fill, guardPrice, walkBook } from './fixedMath.js'

/** What a borrow or lend reports about its fills (APRs are fractions: 0.05 = 5 %). */
export const takeFields = {
  marketId,
  maturity: z.number().int().describe('Unix seconds: when each unit pays one loan token'),
  assets: atomicAmount.describe('Loan token now (atomic): received on a borrow, paid on a lend'),
  units: atomicAmount.describe(
    'Units sold (borrow: debt added) or bought (lend: credit added); 1 unit = 1 atomic loan token at maturity',
  ),
  averagePrice: atomicAmount.describe('Σ assets / Σ units, WAD'),
  averageApr: z.number().describe('APR at averagePrice (0.05 = 5%)'),
  worstPrice: atomicAmount.describe('The least favourable fill’s price, WAD'),
  worstApr: z.number().describe('APR at worstPrice'),
  guardPrice: atomicAmount.describe('The slippage bound no fill crosses, WAD'),
  fills: z
    .array(
      z.object({
        price: atomicAmount.describe('Taker price, WAD'),
        units: atomicAmount,
        assets: atomicAmount,
      }),
    )
    .describe('One entry per offer taken, best first'),
}

export type FixedTakeFields = ActionOf<typeof takeFields>

/** Pure: `take(offer, ratifierData, units, taker = owner, receiver, 0, "")` for one fill. */
export function encodeFixedTake(o: MidnightTakeableOffer, units: bigint, owner: Address): Hex {
  return encodeFunctionData({
    abi: midnightAbi,
    functionName: 'take',
    // The receiver is the taker when it sells units (a bid taken); Midnight wants zero otherwise.
    args: [o.offer, o.ratifierData, units, owner, o.offer.buy ? owner : zeroAddress, zeroAddress, '0x'],
  })
}

/** One step: the take itself, or Midnight's `multicall` of the takes (atomic: all fill or none). */
export function encodeFixedTakes(calls: readonly Hex[], description: string): TxStep {
  const data =
    calls.length === 1
      ? (calls[0] as Hex)
      : encodeFunctionData({ abi: midnightAbi, functionName: 'multicall', args: [calls] })
  return { to: MIDNIGHT, data, value: 0n, description }
}

/** What the Midnight API says of one market side: the book listing (tick prices) and its takeable offers. */
export interface FixedBookSide {
  books: MidnightBook[]
  listed: MidnightTakeableOffer[]
}

/**
 * The API reads a take needs, fetched together (and, by the builders, concurrently with their chain
 * read: the plan needs both, and neither depends on the other).
 */
export async function fetchFixedBookSide(
  midnight: MorphoMidnight,
  marketId: Hex,
  takingBids: boolean,
): Promise<FixedBookSide> {
  const [books, listed] = await Promise.all([
    midnight.books(),
    midnight.takeableOffers(marketId, takingBids ? 'bids' : 'asks'),
  ])
  return { books, listed }
}

/**
 * The walk of one book side for `assets` of loan token now: the API's takeable offers, each at the taker's
 * price (tick price ∓ the settlement fee), taken best first within the slippage guard. Left out: the
 * owner's own offers (Midnight refuses a self-take), offers of the other side, offers whose own market
 * does not hash to this market's id (whatever `market_id` the API files them under: a take settles in
 * the offer's market), and offers not live at `chainTime` (not started, or expired). 422 `book_too_thin` naming `assets` when the depth
 * within the guard is short, with what it holds (`availableAssets`, `availableUnits`).
 */
export function planFixedTake(
  source: FixedBookSide,
  m: FixedMarket,
  p: {
    owner: Address
    assets: bigint
    slippageBps: number
    takingBids: boolean
    fee: bigint
    chainTime: number
    /** Unix seconds of the quote: APRs and offer liveness are judged at it. */
    quotedAt: number
  },
): { calls: Hex[]; fields: FixedTakeFields; fills: Fill[] } {
  const side = p.takingBids ? 'bids' : 'asks'
  const { books, listed } = source
  const book = books.find((b) => b.marketId === m.id)
  if (book === undefined)
    throw new BuildRefusedError(
      'unlisted_market',
      `${m.id} is not an open market of the Midnight book listing (GET /v1/loan/fixed): matured, or never listed.`,
      'marketId',
      { marketId: m.id, maturity: m.maturity },
    )
  // The API's own price per tick, from the book's levels; an offer at a tick it does not list is left out.
  const tickPrice = new Map([...book.asks, ...book.bids].map((l) => [BigInt(l.tick), l.price]))
  const live = BigInt(Math.max(p.chainTime, p.quotedAt))
  const offers = listed.filter(
    (o) =>
      o.marketId === m.id &&
      o.offer.buy === p.takingBids &&
      !isAddressEqual(o.offer.maker, p.owner) &&
      o.offer.start <= live &&
      o.offer.expiry >= live &&
      tickPrice.has(o.offer.tick) &&
      midnightMarketId(o.offer.market) === m.id,
  )
  const levels = offers.map((o) => {
    const at = tickPrice.get(o.offer.tick) as bigint
    const price = p.takingBids ? (at > p.fee ? at - p.fee : 0n) : at + p.fee
    return { price, units: o.units }
  })
  // APRs are stated at the quote: the answer's quotedAt, not a second clock read a moment later.
  const now = p.quotedAt
  const best = levels.reduce<bigint | null>(
    (b, o) =>
      o.units === 0n || o.price === 0n ? b : b === null || o.price > b === p.takingBids ? o.price : b,
    null,
  )
  const guard = best === null ? 0n : guardPrice(best, p.slippageBps, p.takingBids)
  const walk = walkBook(levels, p.assets, guard, p.takingBids)
  if (best === null || !walk.filled)
    throw new BuildRefusedError(
      'book_too_thin',
      `The ${side} of market ${m.id} hold ${tokenLabel(walk.availableAssets, m.loanToken)} within ${p.slippageBps} bps of the best price; ${tokenLabel(p.assets, m.loanToken)} was asked.`,
      'assets',
      {
        availableAssets: walk.availableAssets.toString(),
        availableUnits: walk.availableUnits.toString(),
        bestPrice: best?.toString() ?? null,
        guardPrice: guard.toString(),
        guardApr: best === null ? null : aprOf(guard, m.maturity, now),
      },
    )
  const fills = walk.fills
  const worst = fills[fills.length - 1] as Fill
  const average = averagePrice(fills)
  const apr = (price: bigint) => aprOf(price, m.maturity, now) ?? 0
  return {
    fills,
    calls: fills.map((f) => encodeFixedTake(offers[f.index] as MidnightTakeableOffer, f.units, p.owner)),
    fields: {
      marketId: m.id,
      maturity: m.maturity,
      assets: fills.reduce((s, f) => s + f.assets, 0n).toString(),
      units: fills.reduce((s, f) => s + f.units, 0n).toString(),
      averagePrice: average.toString(),
      averageApr: apr(average),
      worstPrice: worst.price.toString(),
      worstApr: apr(worst.price),
      guardPrice: guard.toString(),
      fills: fills.map((f) => ({
        price: f.price.toString(),
        units: f.units.toString(),
        assets: f.assets.toString(),
      })),
    },
  }
}

/**
 * What the simulation reads for `verifyFixedTake`: the owner's credit with fees and losses accrued as a
 * take would first accrue them (`updatePositionView`), and the stored position (credit, debt).
 */
export function fixedTakeProbes(m: FixedMarket, owner: Address): Probe[] {
  return [
    {
      to: MIDNIGHT,
      data: encodeFunctionData({
        abi: midnightAbi,
        functionName: 'updatePositionView',
        args: [m.market, m.id, owner],
      }),
    },
    {
      to: MIDNIGHT,
      data: encodeFunctionData({ abi: midnightAbi, functionName: 'position', args: [m.id, owner] }),
    },
  ]
}

function decodeProbes(probes: readonly ProbeResult[]) {
  const [accrual, position] = probes
  if (accrual === undefined || position === undefined || accrual.before === '0x' || position.after === '0x')
    throw new UpstreamError(CHAIN_UPSTREAM, 'the take simulation could not read the Midnight position')
  const [creditBefore] = decodeFunctionResult({
    abi: midnightAbi,
    functionName: 'updatePositionView',
    data: accrual.before,
  })
  const before = decodeFunctionResult({
    abi: midnightAbi,
    functionName: 'position',
    data: position.before === '0x' ? position.after : position.before,
  })
  const after = decodeFunctionResult({ abi: midnightAbi, functionName: 'position', data: position.after })
  return { creditBefore, debtBefore: before[4], creditAfter: after[0], debtAfter: after[4] }
}

/**
 * The takes, as simulated from the owner, must do what the answer says — the guard is computed from the
 * API's tick prices and offers, and `take` executes at the offer's onchain price with nothing onchain
 * bounding it. A borrow must pay the owner at least the planned `assets` of loan token and add at most
 * `units` of debt; a lend must take at most the planned `assets` from the owner; either way the owner's
 * position in THIS market must move by the `units` sold or bought (credit cancelled + debt added, or
 * debt cancelled + credit added). Otherwise 502 from the Midnight API (it listed the offers), never
 * charged. `loanSpentElsewhere`: loan token the bundle's other steps spend (collateral in the loan
 * token), added back before comparing.
 */
export function verifyFixedTake(
  m: FixedMarket,
  plan: { takingBids: boolean; assets: bigint; units: bigint; loanSpentElsewhere: bigint },
  simulation: SimulationReport,
  probes: readonly ProbeResult[],
): void {
  const change = simulation.balanceChanges.find((c) => isAddressEqual(c.token, m.loanToken.address))
  if (change === undefined)
    throw new UpstreamError(CHAIN_UPSTREAM, 'the take simulation reported no loan-token balance change')
  const delta = BigInt(change.delta) + plan.loanSpentElsewhere
  const label = (v: bigint) => tokenLabel(v, m.loanToken)
  if (plan.takingBids && delta < plan.assets)
    throw new UpstreamError(
      MIDNIGHT_API,
      `the borrow, simulated, pays the owner ${label(delta)}, less than the planned ${label(plan.assets)}: the offers' onchain terms differ from the book's`,
    )
  if (!plan.takingBids && -delta > plan.assets)
    throw new UpstreamError(
      MIDNIGHT_API,
      `the lend, simulated, takes ${label(-delta)} from the owner, more than the planned ${label(plan.assets)}: the offers' onchain terms differ from the book's`,
    )
  const u = decodeProbes(probes)
  // Selling cancels credit then adds debt; buying cancels debt then adds credit.
  const [gained, cancelled] = plan.takingBids
    ? [u.debtAfter - u.debtBefore, u.creditBefore - u.creditAfter]
    : [u.creditAfter - u.creditBefore, u.debtBefore - u.debtAfter]
  if (gained < 0n || cancelled < 0n || gained + cancelled !== plan.units)
    throw new UpstreamError(
      MIDNIGHT_API,
      `the ${plan.takingBids ? 'borrow' : 'lend'}, simulated, moves the owner's position in market ${m.id} ` +
        `by ${gained + cancelled} units (${gained} ${plan.takingBids ? 'debt added' : 'credit added'}), not ` +
        `the planned ${plan.units}`,
    )
}

/** "4.12%": an APR for a step description. */
export const aprLabel = (apr: number) => `${(apr * 100).toFixed(2)}%`
