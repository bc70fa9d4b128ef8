/**
 * Pure: how much to sell into a constant-product (x·y = k) pool so its reserves end at `targetRatio`
 * = reserveIn′ / reserveOut′ (atomic units of the input token per atomic unit of the output token), for
 * a pool that keeps its fee (`feeBps` of the input) in the reserves, as the devnet's Aerodrome volatile
 * pool stand-in does. 0 when selling the input would move the ratio the wrong way (the other side must
 * be sold) or nothing needs to move.
 *
 * With x sold and f the fee: reserveIn′ = rIn + x and reserveOut′ = rOut·rIn / (rIn + x(1 − f)), so
 * (rIn + x)(rIn + x(1 − f)) = targetRatio·rOut·rIn: a quadratic in x, solved in its cancellation-free
 * form x = −2c / (b + √(b² − 4ac)).
 */
export function constantProductSteer(
  reserveIn: bigint,
  reserveOut: bigint,
  targetRatio: number,
  feeBps: number,
): bigint {
  const rIn = Number(reserveIn)
  const rOut = Number(reserveOut)
  if (!(rIn > 0 && rOut > 0 && targetRatio > 0)) return 0n
  const keep = 1 - feeBps / 10_000
  const a = keep
  const b = rIn * (1 + keep)
  const c = rIn * rIn - targetRatio * rOut * rIn
  if (c >= 0) return 0n
  const x = (-2 * c) / (b + Math.sqrt(b * b - 4 * a * c))
  if (!Number.isFinite(x) || x < 1) return 0n
  return BigInt(Math.floor(x))
}
