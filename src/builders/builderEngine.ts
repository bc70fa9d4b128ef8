import { type Abi, type Address, type PublicClient, toHex } from 'viem'
import { CHAIN_ID, NETWORK } from '../chain/network.js'
import type { AddressBook } from './addressBook.js'
import { assertOutflows, type OutflowPolicy } from './assertOutflows.js'
import { appendSuffix } from './builderCode.js'
import { UnlistedTargetError } from './builderErrors.js'
import { type Probe, type ProbeResult, simulateBundle } from './simulateBundle.js'
import type { BuilderEnvelope, BuilderIssues, SimulationReport, TxStep } from './txStep.js'

/** How long a bundle is quoted for; deadlines encoded in calldata use the same `expiresAt`. */
export const BUILD_TTL_SEC = 120

/** What an action's plan hands the engine: the raw ordered steps (approves already prepended). */
export interface BuildPlan<A> {
  owner: Address
  steps: readonly TxStep[]
  /** Tokens whose owner balance the simulation reports (the native sentinel for ETH). */
  watch: readonly Address[]
  issues: BuilderIssues
  action: A
  /** The protocol's custom errors, to decode a revert. */
  revertAbi?: Abi
  /**
   * Targets outside the static book that the plan itself confirmed onchain as made by a listed protocol
   * contract for listed tokens (an Aerodrome pool, i.e. its LP token, that the listed PoolFactory reports
   * for two listed tokens). Never a caller-supplied address taken on trust.
   */
  confirmedTargets?: readonly Address[]
  /** Views read in the simulated block before and after the steps (a protocol position), for `verify`. */
  probes?: readonly Probe[]
  /**
   * The plan's check of the simulated outcome (the owner's balance changes, the probes before/after)
   * against what the answer states; it throws to refuse the bundle (an UpstreamError: 502, never charged).
   */
  verify?: (simulation: SimulationReport, probes: readonly ProbeResult[]) => void
  /**
   * "Nothing else leaves the wallet": what the owner may lose (tokens, at most how much) and the exact
   * approvals it may grant; the engine refuses (502 naming `source`, never charged) a bundle whose
   * simulation shows any other token leaving the owner or any other approval, whatever the token (the
   * steps' logs, not a watch list: assertOutflows). Every builder whose calldata comes from an upstream
   * (0x, the Midnight API) declares it, as do most of the others; without it the rule is off.
   */
  outflows?: OutflowPolicy
  /**
   * The block the plan read its state at, when it knows it: the bundle is then simulated on top of that
   * block, so figures tied to it (a debt accrued to its timestamp, a position's liquidity) are the ones
   * the simulation ran on even when another block lands between the read and the simulation. Without it
   * the simulation runs on the latest block.
   */
  atBlock?: bigint
  quotedAt: number
  expiresAt: number
}

/** The one mechanism every builder ends in: address-book guard, builder-code suffix, simulation, envelope. */
export interface BuilderEngine {
  chain: PublicClient
  book: AddressBook
  /** Unix seconds now (the injected clock). */
  nowSec(): number
  finish<A>(plan: BuildPlan<A>): Promise<BuilderEnvelope<A>>
}

export function createBuilderEngine(deps: {
  chain: PublicClient
  book: AddressBook
  suffix: `0x${string}` | null
  clock: () => number
}): BuilderEngine {
  const { chain, book, suffix } = deps
  return {
    chain,
    book,
    nowSec: () => Math.floor(deps.clock() / 1000),
    async finish(plan) {
      // The invariant that makes a builder safe to call with any address: no step leaves the book.
      const confirmed = new Set((plan.confirmedTargets ?? []).map((a) => a.toLowerCase()))
      for (const step of plan.steps)
        if (!book.has(step.to) && !confirmed.has(step.to.toLowerCase()))
          throw new UnlistedTargetError(step.to)
      const steps = plan.steps.map((s) => ({ ...s, data: appendSuffix(s.data, suffix) }))
      const { report: simulation, probes, logs } = await simulateBundle(chain, { ...plan, steps })
      // The generic rule first: an upstream's calldata that drains a token the plan never names is refused
      // whatever the plan's own check of its named tokens would say.
      if (plan.outflows !== undefined) assertOutflows(plan.owner, steps, logs, plan.outflows)
      plan.verify?.(simulation, probes)
      return {
        network: NETWORK,
        steps: steps.map((s) => ({
          to: s.to,
          data: s.data,
          value: s.value.toString(),
          description: s.description,
        })),
        quotedAt: plan.quotedAt,
        expiresAt: plan.expiresAt,
        issues: plan.issues,
        simulation,
        walletSendCalls: {
          version: '2.0.0',
          chainId: toHex(CHAIN_ID),
          from: plan.owner,
          atomicRequired: false,
          calls: plan.steps.map((s) => ({ to: s.to, data: s.data, value: toHex(s.value) })),
          ...(suffix === null
            ? {}
            : { capabilities: { dataSuffix: { value: suffix, optional: true as const } } }),
        },
        action: plan.action,
      }
    },
  }
}
