/**
 * Number → wire string helpers shared by the upstream simulators. Real upstreams quote prices on a
 * fixed tick per product, so the tick is derived from the instrument's base price (stable over time)
 * rather than from the current price (which would make decimals flicker).
 */

/** Decimals of the quote tick: ~6 significant digits at the base price, at least cents. */
export function quoteDecimals(basePrice: number): number {
  return Math.min(10, Math.max(2, Math.ceil(-Math.log10(basePrice)) + 4))
}

export function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals
  return Math.round(value * f) / f
}

/** Fixed-point string without exponent notation (toFixed never uses it below 1e21). */
export function fixed(value: number, decimals: number): string {
  return value.toFixed(decimals)
}

/** Integer mantissa of value × 10^-expo, as Pyth encodes prices (expo is negative). */
export function mantissa(value: number, expo: number): bigint {
  return BigInt(Math.round(value * 10 ** -expo))
}

/** ISO-8601 with microseconds, the way Coinbase stamps trades ("2026-11-15T12:34:56.789000Z"). */
export function isoMicros(ms: number): string {
  return new Date(Math.floor(ms)).toISOString().replace('Z', '000Z')
}

/** Parses unix seconds ("1700000000") or an ISO-8601 date; undefined when neither. */
export function parseTimeParam(raw: string): number | undefined {
  const trimmed = raw.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed)
  const ms = Date.parse(trimmed)
  return Number.isNaN(ms) ? undefined : ms / 1000
}
