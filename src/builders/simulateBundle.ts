import {
  type Abi,
  type Address,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  multicall3Abi,
  type PublicClient,
  parseAbi,
} from 'viem'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../chain/addresses.js'
import { CHAIN_UPSTREAM } from '../chain/multiRead.js'
import { UpstreamError } from '../errors.js'
import { SimulationRevertedError } from './builderErrors.js'
import type { BalanceChange, SimulationReport, TxStep } from './txStep.js'

/** A view call a plan reads inside the simulated block, before and after its steps (a protocol position). */
export interface Probe {
  to: Address
  data: Hex
}

/** A probe's raw return data before and after the steps (`0x` when the read failed). */
export interface ProbeResult {
  before: Hex
  after: Hex
}

/**
 * A log one step emitted in the simulation. With `traceTransfers`, native ETH moves appear too, as
 * ERC-20 `Transfer` logs from the native sentinel's address.
 */
export interface SimulatedLog {
  address: Address
  topics: readonly Hex[]
  data: Hex
}

/** Errors every bundle can hit (OpenZeppelin 5 tokens and vaults); builders add their protocol's own. */
export const COMMON_REVERTS = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC4626ExceededMaxDeposit(address receiver, uint256 assets, uint256 max)',
  'error ERC4626ExceededMaxWithdraw(address owner, uint256 assets, uint256 max)',
  'error ERC4626ExceededMaxRedeem(address owner, uint256 shares, uint256 max)',
  'error SafeERC20FailedOperation(address token)',
])

/**
 * Headroom on a simulated step's gas for state that moves before inclusion (interest accrual, a pool's
 * timestamp, a price update): ×1.3 + 50k over the most the simulation used.
 */
export function gasLimitFor(used: bigint): bigint {
  return (used * 13n) / 10n + 50_000n
}

/**
 * A revert's data as a sentence: the decoded error with its arguments (Error(string), Panic, the common
 * token and vault errors, the protocol's `abi`), or the raw selector.
 */
export function describeRevert(data: Hex | undefined, abi: Abi): string {
  if (data === undefined || data === '0x')
    return 'reverted without a reason (out of gas or an invalid opcode)'
  try {
    const decoded = decodeErrorResult({ abi: [...COMMON_REVERTS, ...abi], data })
    const args = (decoded.args ?? []).map((a) => String(a)).join(', ')
    return `${decoded.errorName}(${args})`
  } catch {
    return `unknown error ${data.slice(0, 10)}`
  }
}

function balanceRead(token: Address, owner: Address): { to: Address; data: Hex } {
  return token === NATIVE_SENTINEL
    ? {
        to: BASE_ADDRESSES.Multicall3,
        data: encodeFunctionData({ abi: multicall3Abi, functionName: 'getEthBalance', args: [owner] }),
      }
    : { to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner] }) }
}

/**
 * The whole bundle, in order, from the owner, in one `eth_simulateV1` on top of `atBlock` or the latest
 * block (validation off: no signature, no gas price, so native balances move by `value` only). The owner's
 * balance of each `watch` token is read before and after inside the same simulated block, so the changes
 * are what the bundle itself moves; `probes` are read the same way and returned raw beside the report.
 * Each step's logs come back too (`logs`, one array per step), with native ETH moves traced as transfers
 * (`traceTransfers`), so the engine can see every token leaving the owner, not only the watched ones, in
 * the same call. A failing step is a 422 naming its index and decoded reason.
 */
export async function simulateBundle(
  chain: PublicClient,
  bundle: {
    owner: Address
    steps: readonly TxStep[]
    watch: readonly Address[]
    revertAbi?: Abi | undefined
    probes?: readonly Probe[] | undefined
    atBlock?: bigint | undefined
  },
): Promise<{ report: SimulationReport; probes: ProbeResult[]; logs: SimulatedLog[][] }> {
  const { owner, steps, watch, revertAbi = [], probes = [], atBlock } = bundle
  const reads = [...watch.map((token) => balanceRead(token, owner)), ...probes]
  const calls = [...reads, ...steps.map((s) => ({ to: s.to, data: s.data, value: s.value })), ...reads].map(
    (c) => ({ ...c, account: owner }),
  )
  let blocks: Awaited<ReturnType<typeof chain.simulateBlocks>>
  try {
    blocks = await chain.simulateBlocks({
      blocks: [{ calls }],
      validation: false,
      traceTransfers: true,
      ...(atBlock === undefined ? {} : { blockNumber: atBlock }),
    })
  } catch (err) {
    throw new UpstreamError(CHAIN_UPSTREAM, 'the bundle simulation (eth_simulateV1) failed', { cause: err })
  }
  const block = blocks[0]
  const results = block?.calls ?? []
  if (results.length !== calls.length)
    throw new UpstreamError(CHAIN_UPSTREAM, 'the bundle simulation answered the wrong number of calls')
  const stepResults = results.slice(reads.length, reads.length + steps.length)
  const failing = stepResults.findIndex((r) => r.status !== 'success')
  if (failing >= 0) {
    const data = stepResults[failing]?.data
    throw new SimulationRevertedError(failing, describeRevert(data, revertAbi), {
      revertData: data ?? '0x',
      to: steps[failing]?.to,
    })
  }
  const amount = (data: Hex | undefined): bigint => (data === undefined || data === '0x' ? 0n : BigInt(data))
  const balanceChanges: BalanceChange[] = watch.map((token, i) => {
    const before = amount(results[i]?.data)
    const after = amount(results[reads.length + steps.length + i]?.data)
    return { token, before: before.toString(), after: after.toString(), delta: (after - before).toString() }
  })
  const used = stepResults.map((r) =>
    r.maxUsedGas !== undefined && r.maxUsedGas > r.gasUsed ? r.maxUsedGas : r.gasUsed,
  )
  const after = reads.length + steps.length
  return {
    report: {
      // The base block: the one pinned, else the simulated block's number as the node reports it (anvil
      // gives the base block's number; a node that numbers it base + 1 reports that, unpinned only).
      blockNumber: (atBlock ?? block?.number ?? 0n).toString(),
      gasUsed: used.reduce((a, b) => a + b, 0n).toString(),
      steps: used.map((g) => ({ gasUsed: g.toString(), gasLimit: gasLimitFor(g).toString() })),
      balanceChanges,
    },
    logs: stepResults.map((r) =>
      (r.logs ?? []).map((l) => ({ address: l.address, topics: l.topics, data: l.data })),
    ),
    probes: probes.map((_, i) => ({
      before:
        results[watch.length + i]?.status === 'success' ? (results[watch.length + i]?.data ?? '0x') : '0x',
      after:
        results[after + watch.length + i]?.status === 'success'
          ? (results[after + watch.length + i]?.data ?? '0x')
          : '0x',
    })),
  }
}
