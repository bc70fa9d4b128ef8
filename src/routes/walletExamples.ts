/** Examples of the wallet reads, taken from real devnet answers for demo account #1. */
export const EXAMPLE_WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dC79C8'

export const POSITIONS_EXAMPLE = {
  params: { address: EXAMPLE_WALLET },
  output: {
    address: EXAMPLE_WALLET,
    block: null,
    asOf: null,
    borrows: [],
    aave: null,
    vaults: [],
    trades: [],
    fixed: [],
    sources: {
      lending: { ok: true as const },
      vaultApy: { ok: true as const },
      vaultHistory: { ok: true as const },
      gtrade: { ok: true as const },
      gtradeMark: { ok: true as const },
      midnight: { ok: true as const },
    },
  },
}

export const LOAN_ANALYSIS_EXAMPLE = {
  params: { address: EXAMPLE_WALLET },
  output: {
    address: EXAMPLE_WALLET,
    block: null,
    asOf: null,
    targetHealth: 1.5,
    positions: [],
    skipped: [],
    sources: { lending: { ok: true as const }, midnight: { ok: true as const } },
  },
}
