import { createWalletClient, custom, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { expect } from 'vitest'
import { withGasHeadroom } from '../../src/devnet/withGasHeadroom.js'

/** Receipts polled for directly: viem's waiter only looks again on a new block, and automine makes none. */
export const RECEIPT = { intervalMs: 20, timeoutMs: 20_000 }

/** `actual` is a number within `tolerance` (relative) of `expected`. */
export function relClose(actual: number | null, expected: number, tolerance = 1e-6) {
  expect(actual).not.toBeNull()
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(tolerance * Math.abs(expected))
}

/** A wallet on the devnet chain `chain` talks to, with the devnet's gas-estimate headroom. */
export function devnetWallet(chain: PublicClient, privateKey: Hex) {
  return createWalletClient({
    chain: base,
    transport: withGasHeadroom(custom({ request: chain.request })),
    account: privateKeyToAccount(privateKey),
  })
}
