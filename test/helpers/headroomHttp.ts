import { type EIP1193RequestFn, type Hex, http, type Transport, toHex } from 'viem'

/**
 * An HTTP transport whose `eth_estimateGas` answers carry headroom (×2 + 250k). The devnet mines
 * several blocks per second; a call estimated in the same second as the previous block can take a
 * cheaper path than the one it executes on (Morpho and MetaMorpho skip interest accrual when no time
 * has elapsed; Aave likewise skips its rate update), so an exact estimate, and once even ×1.5 + 50k, ran
 * out of gas now and then on a busy machine: a reverted transaction that replays cleanly on the previous
 * block (see expectMined) is that. Wallets in tests
 * send through this; the deployer does the same in `createDeployContext`.
 */
export function headroomHttp(url: string): Transport {
  const inner = http(url)
  return (options) => {
    const base = inner(options)
    const request = (async (args) => {
      const answer = await base.request(args)
      if (args.method !== 'eth_estimateGas') return answer
      return toHex(BigInt(answer as Hex) * 2n + 250_000n)
    }) as EIP1193RequestFn
    return { ...base, request }
  }
}
