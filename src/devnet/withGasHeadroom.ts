import type { EIP1193RequestFn, Hex, Transport } from 'viem'

/** An estimate with headroom: ×2 + 250k. */
const widen = (gas: Hex): Hex => `0x${(BigInt(gas) * 2n + 250_000n).toString(16)}`

/**
 * Wraps a transport so the gas the node suggests carries headroom (×2 + 250k), whether a wallet asks
 * `eth_estimateGas` or, as viem ≥ 2.4x prefers when the node supports it (anvil does),
 * `eth_fillTransaction`, whose filled `tx.gas` is the same exact estimate. The devnet mines several
 * blocks per second; a call estimated in the same second as the previous block can take a cheaper path
 * than the one it executes on (Morpho and MetaMorpho skip interest accrual when no time has elapsed, Aave
 * skips its rate update, an AMM pool rewrites its last-update timestamp with the same value), so an exact
 * estimate, and once even ×1.5 + 50k, ran out of gas now and then on a busy machine. Every devnet wallet
 * that sends (demo seeding, test wallets) goes through this.
 */
export function withGasHeadroom(inner: Transport): Transport {
  return (options) => {
    const base = inner(options)
    const request = (async (args) => {
      const answer = await base.request(args)
      if (args.method === 'eth_estimateGas') return widen(answer as Hex)
      if (args.method === 'eth_fillTransaction') {
        const filled = answer as { tx?: { gas?: Hex } }
        if (filled.tx?.gas !== undefined)
          return { ...filled, tx: { ...filled.tx, gas: widen(filled.tx.gas) } }
      }
      return answer
    }) as EIP1193RequestFn
    return { ...base, request }
  }
}
