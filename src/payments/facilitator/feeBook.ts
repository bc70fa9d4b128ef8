/** EIP-1559 fees for the relayer's next transaction. */
export interface Fees {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/** The two reads a fee quote needs; a viem public client has both. */
export interface FeeSource {
  getBlock(args: { blockTag: 'latest' }): Promise<{ number: bigint | null; baseFeePerGas: bigint | null }>
  estimateMaxPriorityFeePerGas(): Promise<bigint>
}

export interface FeeBook {
  /** Fees from the latest block's base fee, with headroom; waits only for the very first read. */
  fees(): Promise<Fees>
  /** A block our own transaction landed in: newer than the quote's, the quote is refreshed. */
  observe(blockNumber: bigint): void
  /**
   * The node refused a transaction for its fee: the next `fees()` waits for a fresh read, with twice the
   * headroom (up to 16 times the base fee) until one of ours lands again.
   */
  forget(): void
}

/**
 * Fees read from the latest block's base fee, refreshed about once a second rather than per settlement
 * (issue 24): two round trips saved on every settlement. The latest block, not `pending`: Base has had no
 * pending state since Denim (issue 38). `maxFeePerGas` is twice the base fee plus the tip, so a quote
 * several blocks old still clears (EIP-1559 moves the base fee by at most 12.5% per block, 2% on Base:
 * twice the base fee covers 5 blocks of the former, 35 of Base's, a second and seven at 200 ms);
 * only the gas used is charged, so the headroom costs nothing. A refresh runs in the background while
 * the last quote serves; a failed refresh keeps the last quote and is retried on the next call. A block
 * of our own newer than the quote's refreshes it early (at most every quarter of `maxAgeMs`).
 */
export function createFeeBook(source: FeeSource, options: { maxAgeMs: number; now?: () => number }): FeeBook {
  const now = options.now ?? Date.now
  let quote: { fees: Fees; block: bigint; at: number } | undefined
  let refreshing: Promise<void> | undefined
  // Times the base fee a quote allows: 2, doubled on each refusal for the fee (the latest block's base
  // fee can trail the next block's by more than a block's rise), back to 2 when a transaction lands.
  let headroom = 2n

  const refresh = (): Promise<void> => {
    refreshing ??= (async () => {
      try {
        const [block, tip] = await Promise.all([
          source.getBlock({ blockTag: 'latest' }),
          source.estimateMaxPriorityFeePerGas(),
        ])
        const base = block.baseFeePerGas ?? 0n
        quote = {
          fees: { maxFeePerGas: base * headroom + tip, maxPriorityFeePerGas: tip },
          block: block.number ?? 0n,
          at: now(),
        }
      } finally {
        refreshing = undefined
      }
    })()
    return refreshing
  }

  return {
    async fees() {
      if (quote === undefined) await refresh()
      else if (now() - quote.at > options.maxAgeMs) refresh().catch(() => undefined)
      // `refresh` either set a quote or threw above.
      return (quote as { fees: Fees }).fees
    },
    forget() {
      quote = undefined
      if (headroom < 16n) headroom *= 2n
    },
    observe(blockNumber) {
      headroom = 2n
      // At most a few refreshes a second however many settlements land: one automined block each.
      if (quote !== undefined && blockNumber > quote.block && now() - quote.at > options.maxAgeMs / 4) {
        refresh().catch(() => undefined)
      }
    },
  }
}
