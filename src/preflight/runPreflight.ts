import type { PublicClient } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import type { PreflightCheck } from './preflightChecks.js'

/** A contract that failed its check: which, where, and what went wrong, for the operator. */
export interface PreflightProblem {
  contract: string
  address: string
  call: string
  problem: string
}

/**
 * Runs the checks against the chain at its latest block: every address that needs code is asked for it,
 * and every view is called through one Multicall3 round (failures allowed, so one bad contract does not
 * hide the others). Resolves to the problems, none when all is well.
 */
export async function runPreflight(
  chain: PublicClient,
  checks: readonly PreflightCheck[],
): Promise<PreflightProblem[]> {
  const codes = await Promise.all(
    checks.map((c) => (c.needsCode ? chain.getCode({ address: c.address, blockTag: 'latest' }) : undefined)),
  )
  const calls = checks.flatMap((c) => (c.call === undefined ? [] : [{ check: c, call: c.call }]))
  const answers = await chain.multicall({
    contracts: calls.map(({ check, call }) => ({ address: check.address, ...call })) as never[],
    allowFailure: true,
    multicallAddress: BASE_ADDRESSES.Multicall3,
    blockTag: 'latest',
  })
  const problems: PreflightProblem[] = []
  const callName = (c: PreflightCheck) => (c.call === undefined ? 'code' : `${c.call.functionName}()`)
  checks.forEach((check, i) => {
    const code = codes[i]
    if (check.needsCode && (code === undefined || code === '0x'))
      problems.push({
        contract: check.contract,
        address: check.address,
        call: 'code',
        problem: 'no contract at this address',
      })
  })
  answers.forEach((answer, i) => {
    const entry = calls[i]
    if (entry === undefined) return
    const { check } = entry
    if (problems.some((p) => p.address === check.address && p.contract === check.contract)) return
    const problem =
      answer.status === 'failure'
        ? `the call failed${revertName(answer.error)}`
        : check.expect?.(answer.result)
    if (problem !== undefined)
      problems.push({ contract: check.contract, address: check.address, call: callName(check), problem })
  })
  return problems
}

/**
 * A failed call's revert reason, when the chain gave one; never the RPC's own message, which can carry the
 * RPC URL (providers put the API key in its path) and which /ready publishes.
 */
function revertName(error: Error): string {
  const reason = (error as { shortMessage?: string }).shortMessage ?? ''
  const match = /reverted with (?:the following reason|the following signature):?\s*(.*)$/m.exec(reason)
  return match?.[1] ? ` (reverted: ${match[1].slice(0, 80)})` : ''
}

/** The problems as one line an operator reads in /ready and the log. */
export function describePreflight(problems: readonly PreflightProblem[]): string | undefined {
  if (problems.length === 0) return undefined
  return problems.map((p) => `${p.contract} (${p.address}) ${p.call}: ${p.problem}`).join('; ')
}
