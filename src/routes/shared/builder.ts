import type { z } from 'zod'
import { builderOutput } from '../../builders/txStep.js'
import { defineRoute, type HandlerContext, notImplemented, type Route } from '../route.js'

import type { ErrorCode } from './errorCodes.js'

/**
 * Sections C and E: builders. Each returns unsigned, ordered steps `{ to, data, value }` that the caller
 * broadcasts itself; an approve step is prepended only when the live allowance is short. Bodies are
 * strict: unknown properties are rejected. Prices: `PRICES` (routes/prices.ts); the machine-readable
 * description lists $0.02.
 */
const priceNote = (priceUsd: number) =>
  ` Reference price $${priceUsd}; the machine-readable description lists $0.02.`

type NoExtra = Record<never, never>

/** What a builder returns: the envelope of `builderOutput` around its own action schema (and extra fields). */
export type BuilderResult<A extends z.ZodRawShape, E extends z.ZodRawShape = NoExtra> = z.input<
  ReturnType<typeof builderOutput<A, E>>
>

/**
 * A builder's logic: the parsed body (typed by the body schema) in, the checked envelope out. Keep it one
 * line calling the builders/ function that declares the body and action schemas the route publishes (its
 * result is `BuilderEnvelope<…Action>`, the action type inferred from them): an inline object literal here
 * loses its literal types (`action.type`) to inference and fails the check.
 */
export type BuilderHandler<
  B extends z.ZodObject,
  A extends z.ZodRawShape,
  E extends z.ZodRawShape = NoExtra,
> = (body: z.output<B>, ctx: HandlerContext) => Promise<BuilderResult<A, E>>

interface BuilderMeta<B extends z.ZodObject, A extends z.ZodRawShape, E extends z.ZodRawShape> {
  id: string
  path: string
  /** From `PRICES` (routes/prices.ts). */
  priceUsd: number
  /** The builder's own refusals (RouteDef.errors); the engine's, the payment's and the body's are implied. */
  errors: readonly ErrorCode[]
  summary: string
  description: string
  body: B
  action: A
  /** Top-level fields beside the envelope's (the stock order's `advisory`). */
  extra?: E
  /** A real body and the whole envelope the devnet builds for it: see `RouteExample` (routes/route.ts). */
  example: {
    body: z.input<NoInfer<B>>
    output: unknown
  }
}

/** A builder with its logic, or one whose capability a later change builds (501, nothing charged). */
export type BuilderSpec<
  B extends z.ZodObject,
  A extends z.ZodRawShape,
  E extends z.ZodRawShape = NoExtra,
> = BuilderMeta<B, A, E> &
  // NoInfer: B and A come from `body` and `action` only; the handler is checked against them.
  ({ handler: BuilderHandler<NoInfer<B>, NoInfer<A>, NoInfer<E>> } | { capability: string })

/**
 * One builder route: POST, the builder price and tier, `body` validated strictly, the output the
 * `builderOutput` envelope around `action`. The body schema's type flows to the handler, and the
 * handler's result is type-checked against the route's output schema.
 */
export function builder<B extends z.ZodObject, A extends z.ZodRawShape, E extends z.ZodRawShape = NoExtra>(
  spec: BuilderSpec<B, A, E>,
): Route {
  const handler = 'handler' in spec ? spec.handler : notImplemented(spec.capability)
  return defineRoute({
    id: spec.id,
    method: 'POST',
    path: spec.path,
    priceUsd: spec.priceUsd,
    errors: spec.errors,
    tier: 'builder',
    summary: spec.summary,
    description: spec.description + priceNote(spec.priceUsd),
    input: { body: spec.body },
    output: builderOutput(spec.action, spec.extra),
    example: spec.example,
    handler: ({ body }, ctx) => handler(body, ctx),
  })
}
