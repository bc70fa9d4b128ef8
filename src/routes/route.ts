import type { z } from 'zod'
import type { AppDeps } from '../deps.js'
import { AppError, NotImplementedError } from '../errors.js'
import type { Logger } from '../logger.js'
import type { ErrorCode } from './shared/errorCodes.js'
import { parseInput } from './shared/parseInput.js'
import { routeErrorCodes } from './shared/routeErrorCodes.js'

export type HttpMethod = 'GET' | 'POST'
/** Pricing tiers as the catalog groups them. */
export type Tier = 'free' | 'data' | 'alpha' | 'builder' | 'prop'

type AnyObject = z.ZodObject
type EmptyObject = z.ZodObject<Record<string, never>>

/** What every handler receives besides its parsed input. */
export interface HandlerContext {
  deps: AppDeps
  /** The table this app was built from (the catalog describes exactly what is routed). */
  routes: readonly Route[]
  requestId: string
  logger: Logger
}

/** Raw request pieces, before validation. `body` is the parsed JSON value (or undefined when absent). */
export interface RawInput {
  params: Record<string, string>
  query: Record<string, string>
  body: unknown
}

export interface RouteDef<
  P extends AnyObject,
  Q extends AnyObject,
  B extends AnyObject,
  O extends z.ZodType,
> {
  /** Stable operation id: OpenAPI operationId and tool name. */
  id: string
  method: HttpMethod
  /** OpenAPI-style path: `/v1/portfolio/{address}`. */
  path: string
  /** Posted price in USD; null for free endpoints. */
  priceUsd: number | null
  /**
   * The error codes the handler's code path can answer, beyond the ones every route of its kind answers
   * (`impliedErrorCodes` in shared/routeErrorCodes.ts). The OpenAPI responses and the docs' error lists are
   * generated from it; a handler throwing a code missing here is logged `undeclared_error_code`.
   */
  errors: readonly ErrorCode[]
  tier: Tier
  summary: string
  description: string
  input: { params?: P; query?: Q; body?: B }
  output: O
  /** Required on priced routes (a test checks it): see RouteExample. */
  example?: RouteExample<P, B, O>
  handler: (
    input: { params: z.output<P>; query: z.output<Q>; body: z.output<B> },
    ctx: HandlerContext,
  ) => Promise<z.input<O>>
}

/**
 * A real request and the answer it gets, published in every 402's `bazaar` discovery extension so
 * indexers can list the endpoint and agents can call it without reading the docs. A test sends the input
 * with a payment (served, or 501 while its capability is not built, never 400) and checks the output
 * against the output schema. `query` is what goes on the wire: strings.
 */
export interface RouteExample<P extends AnyObject, B extends AnyObject, O extends z.ZodType> {
  params?: z.input<P>
  query?: Record<string, string>
  body?: z.input<B>
  output: z.input<O>
}

/** A route with its input types erased: what the router and the documents consume. */
export interface Route {
  id: string
  method: HttpMethod
  path: string
  priceUsd: number | null
  errors: readonly ErrorCode[]
  tier: Tier
  summary: string
  description: string
  input: { params?: AnyObject; query?: AnyObject; body?: AnyObject }
  output: z.ZodType
  example?: RouteExample<AnyObject, AnyObject, z.ZodType>
  /** Validate raw input (400 naming the field on failure), then run the handler. */
  run(raw: RawInput, ctx: HandlerContext): Promise<unknown>
}

/**
 * Turns a typed definition into a table entry. Validation happens inside this closure, so the handler
 * sees fully typed input and the table can still hold routes of every shape.
 */
export function defineRoute<
  O extends z.ZodType,
  P extends AnyObject = EmptyObject,
  Q extends AnyObject = EmptyObject,
  B extends AnyObject = EmptyObject,
>(def: RouteDef<P, Q, B, O>): Route {
  const { handler, ...meta } = def
  const declared = new Set<string>(routeErrorCodes(def))
  return {
    ...meta,
    async run(raw, ctx) {
      const params = parseInput(def.input.params, raw.params, 'path')
      const query = parseInput(def.input.query, raw.query, 'query')
      const body = parseInput(def.input.body, raw.body, 'body')
      try {
        return await handler({ params, query, body }, ctx)
      } catch (err) {
        // The answer is unchanged; the log tells the route's `errors` (and so its documents) are incomplete.
        if (err instanceof AppError && !declared.has(err.code))
          ctx.logger.error({
            msg: 'undeclared_error_code',
            route: def.id,
            code: err.code,
            status: err.status,
          })
        throw err
      }
    },
  }
}

/** Handler for a specified endpoint whose capability a later change builds. Answers 501, charges nothing. */
export function notImplemented(capability: string): () => Promise<never> {
  return async () => {
    throw new NotImplementedError(capability)
  }
}
