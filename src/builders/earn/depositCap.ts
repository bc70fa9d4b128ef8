/**
 * The most a deposit (a Uniswap mint, an Aerodrome add) may pull of one side: its quoted amount grossed up by the slippage tolerance
 * (quoted / (1 − bps/10⁴), rounded up), never above what was asked. Both contracts never pull more than
 * the desired amount they are given, so passing this cap (and approving it) bounds what a price moved
 * before inclusion can take, as the mins bound it from below. Quoted ≤ cap, so at the quoted price the
 * quoted deposit is still reachable.
 */
export function depositCap(desired: bigint, quoted: bigint, slippageBps: number): bigint {
  const bps = BigInt(slippageBps)
  const grossed = (quoted * 10_000n + (10_000n - bps) - 1n) / (10_000n - bps)
  return grossed < desired ? grossed : desired
}
