import { type Address, toHex } from 'viem'
import { describe, expect, expectTypeOf, test } from 'vitest'
import { z } from 'zod'
import type { BuilderEnvelope, WireStep } from '../../builders/txStep.js'
import { address, atomicAmount, positiveAtomicAmount } from '../../chain/fields.js'
import { InvalidInputError, NotImplementedError } from '../../errors.js'
import type { HandlerContext } from '../route.js'
import { routeTable } from '../table.js'
import { type BuilderResult, builder } from './builder.js'

const OWNER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' as const
const body = z.strictObject({
  owner: address,
  assets: positiveAtomicAmount,
  memo: z.string().default('none'),
})
const action = { type: z.literal('demo'), assets: atomicAmount }
const meta = {
  id: 'buildDemo',
  path: '/v1/tx/demo',
  priceUsd: 0.01,
  errors: [],
  summary: 'demo',
  description: 'demo',
  body,
  action,
  example: {
    body: { owner: OWNER, assets: '5' },
    output: {
      network: 'eip155:8453' as const,
      steps: [{ to: OWNER, data: '0x' as const, value: '0', description: 'demo none' }],
      action: { type: 'demo' as const, assets: '5' },
    },
  },
}

type DemoBody = z.output<typeof body>

/** The envelope the engine wraps a plan in (no suffix, nothing short, nothing simulated), for these tests. */
function envelope<A>(owner: Address, steps: WireStep[], action: A): BuilderEnvelope<A> {
  return {
    network: 'eip155:8453',
    steps,
    quotedAt: 1795305600,
    expiresAt: 1795305720,
    issues: { balance: null, allowance: null },
    simulation: { blockNumber: '1', gasUsed: '0', steps: [], balanceChanges: [] },
    walletSendCalls: {
      version: '2.0.0',
      chainId: toHex(8453),
      from: owner,
      atomicRequired: false,
      calls: steps.map((s) => ({ to: s.to, data: s.data, value: toHex(BigInt(s.value)) })),
    },
    action,
  }
}

/** As a builders/ module would: a plan typed by the route's schemas. */
async function buildDemo(input: DemoBody): Promise<BuilderResult<typeof action>> {
  return envelope(input.owner, [{ to: OWNER, data: '0x', value: '0', description: `demo ${input.memo}` }], {
    type: 'demo',
    assets: input.assets.toString(),
  })
}

/** Builder handlers here never touch the context; the route runner only passes it through. */
const ctx = {} as HandlerContext
const raw = (b: unknown) => ({ params: {}, query: {}, body: b })

const demo = builder({
  ...meta,
  handler: async (input) => {
    // The body schema's output type reaches the handler, defaults applied, fields parsed to their types.
    expectTypeOf(input).toEqualTypeOf<{ owner: Address; assets: bigint; memo: string }>()
    return buildDemo(input)
  },
})

describe('builder()', () => {
  test('behavior: the handler gets the parsed body and its result is the route output', async () => {
    const out = await demo.run(raw({ owner: OWNER, assets: '5' }), ctx)
    expect(out).toMatchObject({
      network: 'eip155:8453',
      steps: [{ to: OWNER, value: '0', description: 'demo none' }],
      action: { type: 'demo', assets: '5' },
    })
    expect(demo.output.safeParse(out).success).toBe(true)
  })

  test('error: the body is validated before the handler runs', async () => {
    await expect(demo.run(raw({ owner: OWNER, assets: '0' }), ctx)).rejects.toBeInstanceOf(InvalidInputError)
    await expect(demo.run(raw({ owner: OWNER, assets: '5', extra: 1 }), ctx)).rejects.toBeInstanceOf(
      InvalidInputError,
    )
  })

  test('default: without a handler the route answers 501 for its capability', async () => {
    const pending = builder({ ...meta, capability: 'demo builders' })
    await expect(pending.run(raw({ owner: OWNER, assets: '5' }), ctx)).rejects.toBeInstanceOf(
      NotImplementedError,
    )
    for (const route of routeTable.filter((r) => r.path.startsWith('/v1/tx/'))) {
      expect([route.method, route.tier, route.priceUsd]).toEqual(['POST', 'builder', 0.01])
    }
  })

  test('behavior: handlers whose result or body use does not match the schemas do not compile', () => {
    const otherAction = async (): Promise<BuilderResult<{ type: z.ZodLiteral<'other'> }>> =>
      envelope(OWNER, [], { type: 'other' as const })
    // @ts-expect-error the result is for another action schema
    builder({ ...meta, handler: otherAction })
    const noSteps = async (input: DemoBody) => ({
      network: 'eip155:8453' as const,
      action: { type: 'demo' as const, assets: input.assets },
    })
    // @ts-expect-error steps are required by the output schema
    builder({ ...meta, handler: noSteps })
    builder({
      ...meta,
      handler: async (input) => {
        // @ts-expect-error the body schema has no such field
        void input.receiver
        return buildDemo(input)
      },
    })
    expect(true).toBe(true)
  })
})
