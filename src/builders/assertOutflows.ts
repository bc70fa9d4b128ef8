import {
  type Address,
  getAddress,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  toEventSelector,
  zeroAddress,
} from 'viem'
import { NATIVE_SENTINEL } from '../chain/addresses.js'
import { UpstreamError } from '../errors.js'
import type { SimulatedLog } from './simulateBundle.js'
import type { AllowanceIssue, TxStep } from './txStep.js'

/** A token the owner may lose in a bundle (the native sentinel for ETH), and the most of it in all. */
export interface MayLeave {
  token: Address
  amount: bigint
}

/** An approval the owner may grant in a bundle: exactly `amount` of `token` to `spender` (a prepended approve). */
export interface MayApprove {
  token: Address
  spender: Address
  amount: bigint
}

/**
 * What a plan declares may leave the owner's wallet in its bundle; nothing else may. A plan opts into the
 * rule by declaring it (BuildPlan.outflows).
 */
export interface OutflowPolicy {
  mayLeave: readonly MayLeave[]
  mayApprove: readonly MayApprove[]
  /** Who wrote the steps' calldata (an upstream API, or the chain's RPC for our own encoders): the 502 names it. */
  source: string
}

/** The approval a prepended approve grants, from the issue that names it (none when nothing is prepended). */
export function grantsOf(issue: AllowanceIssue | null): MayApprove[] {
  return issue === null
    ? []
    : [{ token: issue.token, spender: issue.spender, amount: BigInt(issue.expected) }]
}

// ERC-20 and ERC-721 share the Transfer and Approval topics; the number of indexed topics tells them apart
// (ERC-721 indexes the token id as well).
const TRANSFER = toEventSelector('Transfer(address,address,uint256)')
const APPROVAL = toEventSelector('Approval(address,address,uint256)')
const APPROVAL_FOR_ALL = toEventSelector('ApprovalForAll(address,address,bool)')
const TRANSFER_SINGLE = toEventSelector('TransferSingle(address,address,address,uint256,uint256)')
const TRANSFER_BATCH = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])')

/** eth_simulateV1's traced native transfers are logged from this address (the sentinel, any case). */
const isNativeLog = (log: SimulatedLog) => isAddressEqual(log.address, NATIVE_SENTINEL)

function topicAddress(topic: Hex | undefined): Address | null {
  if (topic === undefined || topic.length !== 66) return null
  return getAddress(`0x${topic.slice(26)}`)
}

function word(data: Hex): bigint | null {
  return data.length === 66 ? hexToBigInt(data) : null
}

const same = (a: Address | null, b: Address) => a !== null && isAddressEqual(a, b)

/** An ERC-20 (or traced native) transfer out of `owner`: token and amount (null: unreadable), else null. */
function erc20Outflow(log: SimulatedLog | undefined, owner: Address) {
  if (log === undefined || log.topics[0] !== TRANSFER || log.topics.length !== 3) return null
  if (!same(topicAddress(log.topics[1]), owner)) return null
  return { token: isNativeLog(log) ? NATIVE_SENTINEL : getAddress(log.address), amount: word(log.data) }
}

/** What one log means for the owner's wallet. */
type Effect =
  | { kind: 'none' }
  | { kind: 'leaves'; token: Address; amount: bigint }
  | { kind: 'approves'; token: Address; spender: Address; amount: bigint; beside: readonly SimulatedLog[] }
  | { kind: 'refused'; reason: string }

function effectOf(log: SimulatedLog, owner: Address, beside: readonly SimulatedLog[]): Effect {
  const [topic, first, second, third] = log.topics
  const fromOwner = same(topicAddress(first), owner)
  if (topic === TRANSFER && log.topics.length === 3) {
    const out = erc20Outflow(log, owner)
    if (out === null) return { kind: 'none' }
    return out.amount === null
      ? { kind: 'refused', reason: `logs an unreadable transfer of ${out.token} from the owner` }
      : { kind: 'leaves', token: out.token, amount: out.amount }
  }
  if (topic === TRANSFER && log.topics.length === 4 && fromOwner)
    return {
      kind: 'refused',
      reason: `transfers token id ${hexToBigInt(third as Hex)} of ${log.address} out of the owner's wallet`,
    }
  if ((topic === TRANSFER_SINGLE || topic === TRANSFER_BATCH) && same(topicAddress(second), owner))
    return {
      kind: 'refused',
      reason: `transfers ERC-1155 tokens of ${log.address} out of the owner's wallet`,
    }
  if (topic === APPROVAL && fromOwner) {
    const spender = topicAddress(second)
    // ERC-721 Approval(owner, approved, tokenId): only the clearing a transfer logs is tolerated.
    if (log.topics.length === 4)
      return same(spender, zeroAddress)
        ? { kind: 'none' }
        : { kind: 'refused', reason: `approves ${spender} for a token id of ${log.address}` }
    const amount = word(log.data)
    if (spender === null || amount === null)
      return { kind: 'refused', reason: `logs an unreadable approval of ${log.address} by the owner` }
    // A revocation grants nothing.
    if (amount === 0n || same(spender, zeroAddress)) return { kind: 'none' }
    return { kind: 'approves', token: getAddress(log.address), spender, amount, beside }
  }
  if (topic === APPROVAL_FOR_ALL && fromOwner && word(log.data) !== 0n)
    return { kind: 'refused', reason: `approves ${topicAddress(second)} for all tokens of ${log.address}` }
  return { kind: 'none' }
}

/**
 * An approval the policy allows: declared exactly (token, spender, amount), or the allowance bookkeeping
 * that some tokens (OpenZeppelin 4, Aave's aTokens) log on `transferFrom` — logged right beside a transfer
 * of the same token out of the owner, in the same step. Such an event only lowers an allowance, and the
 * transfer it accompanies is counted against `mayLeave`.
 */
function approvalAllowed(
  a: Extract<Effect, { kind: 'approves' }>,
  owner: Address,
  policy: OutflowPolicy,
): boolean {
  const declared = policy.mayApprove.some(
    (m) => isAddressEqual(m.token, a.token) && isAddressEqual(m.spender, a.spender) && m.amount === a.amount,
  )
  return (
    declared || a.beside.some((n) => erc20Outflow(n, owner) !== null && isAddressEqual(n.address, a.token))
  )
}

/**
 * The generic rule "nothing else leaves the wallet", on the simulated logs of the bundle's steps: the owner
 * may lose only the tokens the plan declares, at most the amounts it declares (summed over every step), and
 * may grant no approval but the exact ones declared. It sees every token, not a watch list: any ERC-20
 * `Transfer` from the owner, native ETH leaving it (traced by eth_simulateV1 as transfers from the
 * sentinel; the steps' own `value` is counted too, so a node that ignored `traceTransfers` cannot hide
 * it), any ERC-721 or ERC-1155 transfer from it (no plan declares one: always refused), and any `Approval`
 * or `ApprovalForAll` it grants (revocations aside: an approval of zero or to the zero address, as ERC-721
 * transfers log). This is what catches an upstream's calldata pulling a third token through a standing
 * allowance, which checks of the balances a builder watches cannot see. Throws an UpstreamError naming
 * `policy.source`: 502, never charged.
 */
export function assertOutflows(
  owner: Address,
  steps: readonly TxStep[],
  logs: readonly (readonly SimulatedLog[])[],
  policy: OutflowPolicy,
): void {
  const refusal = (reason: string) => new UpstreamError(policy.source, `the bundle, simulated, ${reason}`)
  const total = (entries: readonly { token: Address; amount: bigint }[]) => {
    const sums = new Map<string, bigint>()
    for (const e of entries)
      sums.set(e.token.toLowerCase(), (sums.get(e.token.toLowerCase()) ?? 0n) + e.amount)
    return sums
  }
  const leaving: { token: Address; amount: bigint }[] = []
  for (const [i, stepLogs] of logs.entries())
    for (const [j, log] of stepLogs.entries()) {
      const beside = [stepLogs[j - 1], stepLogs[j + 1]].filter((l): l is SimulatedLog => l !== undefined)
      const effect = effectOf(log, owner, beside)
      if (effect.kind === 'refused') throw refusal(`${effect.reason} (step ${i})`)
      if (effect.kind === 'leaves') leaving.push(effect)
      if (effect.kind === 'approves' && !approvalAllowed(effect, owner, policy))
        throw refusal(
          `grants ${effect.spender} an allowance of ${effect.amount} of ${effect.token}, beyond the exact approvals of its steps (step ${i})`,
        )
    }
  const left = total(leaving)
  // The steps' own ETH, in case the node did not trace it: never count less than what the calls carry.
  const native = NATIVE_SENTINEL.toLowerCase()
  const sent = steps.reduce((s, step) => s + step.value, 0n)
  if (sent > (left.get(native) ?? 0n)) left.set(native, sent)
  const allowed = total(policy.mayLeave)
  for (const [token, amount] of left) {
    const most = allowed.get(token) ?? 0n
    if (amount > most)
      throw refusal(
        most === 0n
          ? `takes ${amount} of ${getAddress(token)} from the owner, a token the request never spends`
          : `takes ${amount} of ${getAddress(token)} from the owner, more than the ${most} the request spends`,
      )
  }
}
