import { type Address, decodeFunctionData, erc20Abi, type Hex, toHex } from 'viem'
import { appendSuffix, builderCodeSuffix } from '../../builders/builderCode.js'
import { gasLimitFor } from '../../builders/simulateBundle.js'
import type { BuilderEnvelope, WireStep } from '../../builders/txStep.js'
import { CHAIN_ID } from '../../chain/network.js'

/** The code the published examples carry (the devnet's placeholder; production sets its own). */
const EXAMPLE_SUFFIX = builderCodeSuffix(['bc_agentdesk_devnet'])
const EXAMPLE_QUOTED_AT = 1795409940

/**
 * Example calldata written one ABI word per line (the selector on the first): the whitespace is dropped.
 * A template that is not hex data throws when the route table is built.
 */
export function hex(strings: TemplateStringsArray): Hex {
  const data = strings.join('').replace(/\s+/g, '')
  if (!/^0x([0-9a-fA-F]{2})*$/.test(data)) throw new Error(`Not hex data: ${data.slice(0, 24)}…`)
  return data as Hex
}

export interface ExampleSteps<A> {
  network: 'eip155:8453'
  /** Steps as the encoder makes them (bare calldata): the suffix is appended here, as the engine does. */
  steps: WireStep[]
  action: A
}

/**
 * A builder example's whole envelope from its steps, filled in the way the engine fills a live answer
 * (suffix, the issue an approve step implies, EIP-5792 form); gas figures are typical, not measured.
 */
export function exampleBuild<A>(
  owner: Address,
  example: ExampleSteps<A>,
  balanceChanges: BuilderEnvelope<A>['simulation']['balanceChanges'] = [],
): BuilderEnvelope<A> {
  const approve = example.steps[0]?.data.startsWith('0x095ea7b3') ? example.steps[0] : undefined
  const approved = approve && decodeFunctionData({ abi: erc20Abi, data: approve.data })
  const gas = example.steps.map((s) => (s === approve ? 46_000n : 160_000n))
  return {
    network: example.network,
    steps: example.steps.map((s) => ({ ...s, data: appendSuffix(s.data, EXAMPLE_SUFFIX) })),
    quotedAt: EXAMPLE_QUOTED_AT,
    expiresAt: EXAMPLE_QUOTED_AT + 120,
    issues: {
      balance: null,
      allowance:
        approve && approved?.functionName === 'approve'
          ? {
              token: approve.to,
              spender: approved.args[0],
              actual: '0',
              expected: approved.args[1].toString(),
            }
          : null,
    },
    simulation: {
      blockNumber: '38911204',
      gasUsed: gas.reduce((a, b) => a + b, 0n).toString(),
      steps: gas.map((g) => ({ gasUsed: g.toString(), gasLimit: gasLimitFor(g).toString() })),
      balanceChanges,
    },
    walletSendCalls: {
      version: '2.0.0',
      chainId: toHex(CHAIN_ID),
      from: owner,
      atomicRequired: false,
      calls: example.steps.map((s) => ({ to: s.to, data: s.data, value: toHex(BigInt(s.value)) })),
      ...(EXAMPLE_SUFFIX === null
        ? {}
        : { capabilities: { dataSuffix: { value: EXAMPLE_SUFFIX, optional: true as const } } }),
    },
    action: example.action,
  }
}
