import { formatUnits, maxUint256 } from 'viem'

import { AERODROME_SWAP_GAS, APPROVE_TX_GAS, poolSwapTxGas } from './swapTxGas.js'

export {
  AERODROME_SWAP_GAS,
  APPROVE_TX_GAS,
  ROUTER_OVERHEAD_GAS,
  TX_INTRINSIC_GAS,
} from './swapTxGas.js'

/** One leg of a cycle as quoted, with the reference prices (USD per whole token) of both sides. */
export interface ArbitrageLegInput {
  amountIn: bigint
  expectedOut: bigint
  minOut: bigint
  sell: { decimals: number; priceUsd: number; erc20: boolean }
  buy: { decimals: number; priceUsd: number }
  /** The pool's fee in bps of the input, already inside expectedOut; null when the source did not say. */
  poolFeeBps: number | null
  /** An aggregator's fee (0x's) in USD, already inside expectedOut; 0 when none. */
  aggregatorFeeUsd: number
  /**
   * The source's gas estimate for the whole swap transaction (onchain: QuoterV2's or the Aerodrome constant
   * plus intrinsic and router overhead; 0x: its transaction's gas); null when it gives none.
   */
  gasEstimate: bigint | null
}

export interface ArbitrageValuation {
  /** Final leg's minOut at the target's reference price: what the taker is sure to get back. */
  minOutUsd: number
  /** Σ over all but the final leg of (expectedOut − minOut), at that token's reference price. */
  leftoverUsd: number
  gasUnits: bigint
  gasUsd: number
  /** Pool and aggregator fees, for information: already inside the outputs, so not subtracted again. */
  feesUsd: number
  /** finalExpectedOut + leftovers − amountIn − gas, all in USD. */
  netUsd: number
}

const whole = (amount: bigint, decimals: number) => Number(formatUnits(amount, decimals))
/** USD to the micro-dollar: float noise off, every cent that matters kept. */
const usd = (value: number) => Math.round(value * 1e6) / 1e6

/**
 * Gas units of one leg (constants in swapTxGas.ts, upper bounds): the swap transaction as the source
 * estimates it, or, when it gives none (0x for a taker without allowance), an Aerodrome swap's — the
 * dearest single pool swap counted — plus an approve on every ERC-20-selling leg, although the builder
 * only prepends it when the live allowance is short.
 */
export function legGasUnits(leg: Pick<ArbitrageLegInput, 'gasEstimate' | 'sell'>): bigint {
  return (leg.gasEstimate ?? poolSwapTxGas(AERODROME_SWAP_GAS)) + (leg.sell.erc20 ? APPROVE_TX_GAS : 0n)
}

/**
 * A cycle's dollars: it sells legs[0].amountIn of the target and ends with the final leg's output of it.
 * Each leg after the first sells exactly the previous leg's minOut, so whatever a leg fills above its
 * minOut stays with the taker as a leftover of that intermediate, valued at its reference price. Gas is
 * Σ legGasUnits × baseFeeWei, at ethUsd. USD values are rounded to 1e-6 (netUsd from unrounded parts).
 */
export function valueArbitrageRoute(
  legs: readonly ArbitrageLegInput[],
  market: { baseFeeWei: bigint; ethUsd: number },
): ArbitrageValuation {
  const first = legs[0]
  const last = legs.at(-1)
  if (first === undefined || last === undefined) throw new RangeError('a route needs at least one leg')
  let leftover = 0
  let fees = 0
  let gasUnits = 0n
  for (const [i, leg] of legs.entries()) {
    if (i < legs.length - 1)
      leftover += whole(leg.expectedOut - leg.minOut, leg.buy.decimals) * leg.buy.priceUsd
    fees += (whole(leg.amountIn, leg.sell.decimals) * leg.sell.priceUsd * (leg.poolFeeBps ?? 0)) / 10_000
    fees += leg.aggregatorFeeUsd
    gasUnits += legGasUnits(leg)
  }
  const gas = whole(gasUnits * market.baseFeeWei, 18) * market.ethUsd
  const spent = whole(first.amountIn, first.sell.decimals) * first.sell.priceUsd
  const back = whole(last.expectedOut, last.buy.decimals) * last.buy.priceUsd
  return {
    minOutUsd: usd(whole(last.minOut, last.buy.decimals) * last.buy.priceUsd),
    leftoverUsd: usd(leftover),
    gasUnits,
    gasUsd: usd(gas),
    feesUsd: usd(fees),
    netUsd: usd(back + leftover - spent - gas),
  }
}

/**
 * Atomic amount of a token worth `budgetUsd` at `priceUsd` per whole token: floor(budget / price ×
 * 10^decimals). Zero budget → 0. Null when that is beyond a uint256, the largest amount a swap can carry
 * (a finite budget such as 1e308 USD can even overflow the float to Infinity): no token amount, no route.
 */
export function amountForBudget(budgetUsd: number, priceUsd: number, decimals: number): bigint | null {
  if (!(priceUsd > 0) || !Number.isFinite(priceUsd)) throw new RangeError('priceUsd must be positive')
  if (!(budgetUsd >= 0) || !Number.isFinite(budgetUsd)) throw new RangeError('budgetUsd must be >= 0')
  const units = Math.floor((budgetUsd / priceUsd) * 10 ** decimals)
  if (!Number.isFinite(units)) return null
  const amount = BigInt(units)
  return amount > maxUint256 ? null : amount
}
