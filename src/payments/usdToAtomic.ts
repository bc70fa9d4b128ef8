import { USDC_DECIMALS } from '../chain/units.js'

/** USD price → USDC atomic units (6 dp), rounded to the nearest unit. */
export function usdToAtomic(usd: number): bigint {
  return BigInt(Math.round(usd * 10 ** USDC_DECIMALS))
}
