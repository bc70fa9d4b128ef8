import { type Address, encodeFunctionData, erc20Abi } from 'viem'
import type { MayApprove } from './assertOutflows.js'
import type { AllowanceIssue, TxStep } from './txStep.js'

export interface AllowanceNeed {
  token: Address
  spender: Address
  /** What the spender pulls in the steps that follow. */
  needed: bigint
  /** The live allowance, read in the plan's multicall. */
  allowance: bigint
  /** For the step's description: "250 USDC". */
  label: string
  spenderName: string
}

/**
 * The approve step for a need, only when the live allowance is short, for exactly what is pulled (never
 * unlimited), to the spender that pulls it; with the issue that names the shortfall and, for a plan's
 * `outflows.mayApprove`, the one approval the step grants (none when nothing is prepended).
 */
export function approveIfShort(need: AllowanceNeed): {
  steps: TxStep[]
  issue: AllowanceIssue | null
  grants: MayApprove[]
} {
  if (need.allowance >= need.needed) return { steps: [], issue: null, grants: [] }
  return {
    grants: [{ token: need.token, spender: need.spender, amount: need.needed }],
    steps: [
      {
        to: need.token,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [need.spender, need.needed],
        }),
        value: 0n,
        description: `Approve ${need.label} to ${need.spenderName}`,
      },
    ],
    issue: {
      token: need.token,
      spender: need.spender,
      actual: need.allowance.toString(),
      expected: need.needed.toString(),
    },
  }
}
