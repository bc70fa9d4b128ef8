import { z } from 'zod'
import type { Config } from '../../config.js'
import { SURGE_CAP, surgedAmount } from '../../payments/limits/surgeMeter.js'
import { usdToAtomic } from '../../payments/usdToAtomic.js'
import type { Route } from '../route.js'
import { documentUrls, paymentTerms } from './paymentTerms.js'
import { routeSchemas } from './routeSchemas.js'

export const SERVICE_NAME = 'agentdesk'
export const SERVICE_DESCRIPTION =
  'Pay-per-call market data, analytics and unsigned transaction builders for autonomous agents on Base. Paid ' +
  'per request in USDC over x402 v2: no accounts, no API keys; the paying wallet is the identity. ' +
  'Non-custodial: builders return unsigned steps { to, data, value } that you broadcast yourself.'

const parameterSchema = z.object({
  name: z.string(),
  in: z.enum(['path', 'query']),
  required: z.boolean(),
  description: z.string().optional(),
  schema: z.record(z.string(), z.unknown()),
})

export const catalogSchema = z.object({
  name: z.string(),
  description: z.string(),
  version: z.string(),
  network: z.string(),
  payment: z.record(z.string(), z.unknown()),
  documents: z.record(z.string(), z.string()),
  endpoints: z.array(
    z.object({
      id: z.string(),
      method: z.enum(['GET', 'POST']),
      path: z.string(),
      priceUsd: z.number().nullable().describe('Posted (base) price in USD; null when free'),
      currentPriceUsd: z
        .number()
        .nullable()
        .describe('What a call costs right now: the posted price times the current surge multiplier'),
      tier: z.string(),
      summary: z.string(),
      parameters: z.array(parameterSchema),
      body: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
  surge: z.object({ multiplier: z.number(), cap: z.number(), rule: z.string() }),
  prices: z.record(z.string(), z.number()).optional().describe('Live spot USD of the majors'),
})

export const SURGE_RULE =
  'Surge follows this instance’s load of admitted paid calls over the last 10 s (unpaid probes and refused, ' +
  'replayed or rate-limited requests do not count): none below half of its capacity (SURGE_CAPACITY_RPS), ' +
  'then rising linearly to the 2x cap at full capacity, in steps of 0.1. A quoted amount stays payable ' +
  'for the challenge’s maxTimeoutSeconds. Credit calls are exempt.'

export interface LiveTerms {
  surgeMultiplier: number
  /** Spot USD of the majors; omitted when the market data is unavailable (never invented). */
  prices?: Record<string, number> | undefined
}

export type Catalog = z.infer<typeof catalogSchema>

/** The /v1 catalog: every routed endpoint with its current price and parameters. */
export function buildCatalog(routes: readonly Route[], config: Config, live: LiveTerms): Catalog {
  const payment = paymentTerms(config)
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    version: '1.0.0',
    network: payment.network,
    payment,
    documents: documentUrls(config),
    endpoints: routes.map((route) => {
      const schemas = routeSchemas(route)
      return {
        id: route.id,
        method: route.method,
        path: route.path,
        priceUsd: route.priceUsd,
        currentPriceUsd:
          route.priceUsd === null
            ? null
            : Number(surgedAmount(usdToAtomic(route.priceUsd), live.surgeMultiplier)) / 1e6,
        tier: route.tier,
        summary: route.summary,
        parameters: schemas.parameters,
        body: schemas.body ?? null,
      }
    }),
    surge: { multiplier: live.surgeMultiplier, cap: SURGE_CAP, rule: SURGE_RULE },
    ...(live.prices === undefined ? {} : { prices: live.prices }),
  }
}
