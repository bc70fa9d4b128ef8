/** Basis points in a whole. */
const BPS = 10_000n

/** The most slippage any builder takes (50 %); the arbitrage legs cap theirs at it too. */
export const MAX_SLIPPAGE_BPS = 5000

/**
 * The least output a swap may deliver before it should revert: `floor(expectedOut × (10000 − slippageBps)
 * / 10000)`, rounded down so the bound never promises more than the tolerance allows.
 */
export function minOutAfterSlippage(expectedOut: bigint, slippageBps: number): bigint {
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 10_000) {
    throw new RangeError(`slippageBps must be an integer in 0..10000, got ${slippageBps}`)
  }
  if (expectedOut < 0n) throw new RangeError('expectedOut must not be negative')
  return (expectedOut * (BPS - BigInt(slippageBps))) / BPS
}
