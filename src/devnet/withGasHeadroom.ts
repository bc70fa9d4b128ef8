import type { EIP1193RequestFn, Hex, Transport } from 'viem'

/**
 * Wraps a transport so its `eth_estimateGas` answers carry headroom (×2 + 250k). The devnet mines
 * several blocks per second; a call estimated in the same second as the previous block can take a
 * cheaper path than the one it executes on (Morpho and MetaMorpho skip interest accrual when no time
 * has elapsed, Aave skips its rate update, an AMM pool rewrites its last-update timestamp with the
 * same value), so an exact estimate, and once even ×1.5 + 50k, ran out of gas now and then on a busy
 * machine. Every devnet wallet that sends (demo seeding, test wallets) goes through this.
 */
export function withGasHeadroom(inner: Transport): Transport {
  return (options) => {
    const base = inner(options)
    const request = (async (args) => {
      const answer = await base.request(args)
      if (args.method !== 'eth_estimateGas') return answer
      return `0x${(BigInt(answer as Hex) * 2n + 250_000n).toString(16)}`
    }) as EIP1193RequestFn
    return { ...base, request }
  }
}
