import { formatUnits, parseUnits } from 'viem'

/** Number formatting shared by the market reads: float noise off, real digits kept. */

/** `value` rounded to `decimals` decimal places. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals
  return Math.round(value * f) / f
}

/** Ten significant digits: float noise off, every real digit kept. */
export function significant(value: number): number {
  return Number(value.toPrecision(10))
}

/** An atomic amount as a number of whole tokens (through the exact decimal string, then one rounding). */
export function fromAtomic(amount: bigint, decimals: number): number {
  return Number(formatUnits(amount, decimals))
}

/**
 * A human decimal string ("250.5") as an atomic amount, exactly; null when it has more fractional digits
 * than the token (rounding would change what the caller asked for).
 */
export function toAtomic(human: string, decimals: number): bigint | null {
  const fraction = human.split('.')[1] ?? ''
  if (fraction.length > decimals) return null
  return parseUnits(human, decimals)
}
