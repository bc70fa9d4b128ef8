import type { Address, Hex } from 'viem'

// The builder engine's types: a leaf module (imports nothing of ours) so encoders, the engine and the
// route table can all name them.

/** One unsigned call the caller broadcasts. `data` carries the ERC-8021 suffix once the engine is done. */
export interface TxStep {
  to: Address
  data: Hex
  value: bigint
  description: string
}

/** A shortfall the chain would refuse (0x's `issues` shape). */
export interface BalanceIssue {
  token: Address
  actual: string
  expected: string
}

/** A live allowance below what a step pulls: an exact approve step is prepended for it. */
export interface AllowanceIssue {
  token: Address
  spender: Address
  actual: string
  expected: string
}

export interface BuilderIssues {
  balance: BalanceIssue | null
  /** The first short allowance; every short allowance gets its own approve step. */
  allowance: AllowanceIssue | null
}

export interface SimulatedStep {
  gasUsed: string
  /** gasUsed with headroom for state that moves between the simulation and inclusion. */
  gasLimit: string
}

export interface BalanceChange {
  /** The token, or the native sentinel for ETH. */
  token: Address
  before: string
  after: string
  /** after − before, signed decimal. */
  delta: string
}

export interface SimulationReport {
  /** The block the bundle was simulated on top of. */
  blockNumber: string
  gasUsed: string
  steps: SimulatedStep[]
  balanceChanges: BalanceChange[]
}

/** EIP-5792 `wallet_sendCalls` params for smart wallets: the suffix goes in the capability, not the data. */
export interface WalletSendCalls {
  version: '2.0.0'
  chainId: Hex
  from: Address
  atomicRequired: boolean
  calls: { to: Address; data: Hex; value: Hex }[]
  capabilities?: { dataSuffix: { value: Hex; optional: true } }
}

/** The wire shape of a step. */
export interface WireStep {
  to: Address
  data: Hex
  value: string
  description: string
}

/** What every builder answers (the route table's `builderOutput` envelope around its own `action`). */
export interface BuilderEnvelope<A> {
  network: 'eip155:8453'
  steps: WireStep[]
  quotedAt: number
  expiresAt: number
  issues: BuilderIssues
  simulation: SimulationReport
  walletSendCalls: WalletSendCalls
  action: A
}
