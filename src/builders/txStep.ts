import type { Address, Hex } from 'viem'
import { z } from 'zod'
import { address, atomicAmount, hexData, isHex } from '../chain/fields.js'
import { prose } from '../prose.js'

/**
 * What a builder answers, declared once: the zod schemas the route table publishes and checks, and the
 * types the engine and the encoders build with (inferred from them). `TxStep` is the engine's own step,
 * before the value is written as a decimal string.
 */

/** One unsigned call the caller broadcasts. `data` carries the ERC-8021 suffix once the engine is done. */
export interface TxStep {
  to: Address
  data: Hex
  value: bigint
  description: string
}

/** A hex quantity as EIP-5792 writes it (lowercase hex digits), typed `Hex`. */
const quantity = z
  .string()
  .regex(/^0x[0-9a-f]+$/, { abort: true })
  .refine(isHex)

/** One unsigned transaction step, as the wire carries it. */
export const wireStep = z.object({
  to: address,
  data: hexData.describe('Encoded calldata, ending with the ERC-8021 builder-code suffix; do not modify'),
  value: z
    .string()
    .regex(/^[0-9]+$/)
    .describe('Native value in wei, decimal string'),
  description: z.string().describe('What this step does'),
})

export const signedAmount = z
  .string()
  .regex(/^-?[0-9]+$/)
  .describe('Signed atomic amount')

/** 0x-style shortfalls, named before simulating. */
export const builderIssues = z
  .object({
    balance: z
      .object({ token: address, actual: atomicAmount, expected: atomicAmount })
      .nullable()
      .describe(
        'Always null on a 200: a balance shortfall is answered 422 insufficient_balance, not charged',
      ),
    allowance: z
      .object({ token: address, spender: address, actual: atomicAmount, expected: atomicAmount })
      .nullable()
      .describe(
        'The live allowance that was short, so an exact approve step was prepended (with several, the first; each gets its step); null when none was needed',
      ),
  })
  .describe('Shortfalls the chain would refuse (0x’s `issues` shape)')

export const simulationReport = z
  .object({
    blockNumber: atomicAmount.describe('The block the bundle was simulated on top of'),
    gasUsed: atomicAmount.describe('Sum over the steps'),
    steps: z
      .array(
        z.object({
          gasUsed: atomicAmount,
          gasLimit: atomicAmount.describe(
            'gasUsed × 1.3 + 50,000: a limit with headroom for state that moves before inclusion',
          ),
        }),
      )
      .describe('Per step, in order'),
    balanceChanges: z
      .array(
        z.object({
          token: address.describe('The token; 0xEeee…EEeE for native ETH'),
          before: atomicAmount,
          after: atomicAmount,
          delta: signedAmount,
        }),
      )
      .describe(
        "The owner's balances of the tokens the bundle moves, before and after it, inside the simulation",
      ),
  })
  .describe(
    prose`
      What one eth_simulateV1 of the whole bundle, in order, from the owner, saw on top of \`blockNumber\`:
      the latest block, or for the loan builders and the Uniswap/Aerodrome removes the block their state
      (debt, position) was read at`,
  )

export const walletSendCalls = z
  .object({
    version: z.literal('2.0.0'),
    chainId: quantity,
    from: address,
    atomicRequired: z.boolean(),
    calls: z.array(z.object({ to: address, data: hexData, value: quantity })),
    capabilities: z
      .object({ dataSuffix: z.object({ value: hexData, optional: z.literal(true) }) })
      .optional()
      .describe('ERC-8021 builder codes: the wallet appends the suffix (calls carry the bare calldata)'),
  })
  .describe('The same bundle as EIP-5792 `wallet_sendCalls` params, for smart wallets')

/** The envelope's own fields, around the builder's `action`. */
const envelope = {
  network: z.literal('eip155:8453'),
  steps: z.array(wireStep).min(1).describe('Broadcast in this order, from the owner wallet'),
  quotedAt: z.number().int().describe('Unix seconds: when the live state was read'),
  expiresAt: z
    .number()
    .int()
    .describe(
      'Unix seconds: deadlines in the calldata equal this; rebuild after it, never re-broadcast stale steps',
    ),
  issues: builderIssues,
  simulation: simulationReport,
  walletSendCalls,
}

/**
 * The envelope every builder returns around its own `action` (and `extra` top-level fields, such as the
 * stock order's `advisory`): ordered steps to broadcast from the owner, valid until `expiresAt`.
 */
export function builderOutput<A extends z.ZodRawShape, E extends z.ZodRawShape = Record<never, never>>(
  action: A,
  extra?: E,
) {
  return z.object({
    ...envelope,
    action: z.object(action).describe('What the steps do, in the caller’s units'),
    ...((extra ?? {}) as E),
  })
}

/** An action's type, from the raw shape a builder declares it with. */
export type ActionOf<A extends z.ZodRawShape> = z.output<z.ZodObject<A>>

/** The wire shape of a step. */
export type WireStep = z.output<typeof wireStep>
/** A shortfall the chain would refuse (0x's `issues` shape). */
export type BalanceIssue = NonNullable<BuilderIssues['balance']>
/** A live allowance below what a step pulls: an exact approve step is prepended for it. */
export type AllowanceIssue = NonNullable<BuilderIssues['allowance']>
export type BuilderIssues = z.output<typeof builderIssues>
export type SimulationReport = z.output<typeof simulationReport>
export type BalanceChange = SimulationReport['balanceChanges'][number]
/** EIP-5792 `wallet_sendCalls` params for smart wallets: the suffix goes in the capability, not the data. */
export type WalletSendCalls = z.output<typeof walletSendCalls>

/** What every builder answers (the route table's `builderOutput` envelope around its own `action`). */
export type BuilderEnvelope<A> = z.output<z.ZodObject<typeof envelope>> & { action: A }
