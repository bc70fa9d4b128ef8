import type { Config } from '../config.js'
import type { JsonSchema } from '../jsonSchema.js'
import { PAYMENT_ERRORS } from '../payments/paymentError.js'
import { usdToAtomic } from '../payments/usdToAtomic.js'
import type { Route } from '../routes/route.js'
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../routes/shared/catalog.js'
import { paymentTerms } from '../routes/shared/paymentTerms.js'
import { routeSchemas } from '../routes/shared/routeSchemas.js'

const errorRef = { $ref: '#/components/schemas/Error' }
const jsonError = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorRef } },
})

const DESCRIPTION = `${SERVICE_DESCRIPTION}

**Payment.** Call any priced path without payment: the answer is HTTP 402 with the challenge in the \
PAYMENT-REQUIRED header (base64 JSON, x402Version 2) and the same object as the JSON body. Sign an EIP-3009 \
transferWithAuthorization of USDC for exactly the challenged amount and repeat the request with \
PAYMENT-SIGNATURE (or its alias X-PAYMENT). A failed call (any status >= 400) settles nothing. The 402 \
challenge is the authoritative price; \`x-x402\` gives the posted price.

**Conventions.** Addresses are 0x + 40 hex; atomic amounts are digit strings in the token's smallest unit; \
marketIds are 0x + 64 hex; bps are integers (100 = 1%). Builders take human-scale numbers where a field says \
so and return ordered unsigned steps; broadcast them in order, from the owner wallet.

**Input rules.** Ambiguous or meaningless input is a 400 naming the field, and like every failed call it is \
never charged. A query key given more than once is refused (\`invalid_input\`). A numeric query field takes \
a plain decimal (\`100\`, \`0.5\`, \`1e3\`): an empty value or hex is refused rather than read as 0 or 16. \
An address in mixed case must carry a valid EIP-55 checksum; all-lowercase or all-uppercase hex is accepted. \
Atomic amounts are canonical decimal: no leading zeros (\`"0"\` alone is zero), at most 2^256 - 1, and \
positive wherever the amount moves tokens (swap, deposit, withdraw, supply, borrow, repay, burn, add or \
remove liquidity). These checks run before the handler, so an endpoint not built yet still answers 400 \
first. On /v1/prices, symbols that no venue prices are listed in \`unknown\`; if all of them are unknown the \
call is refused with \`unknown_symbol\`.

**Errors.** Every error has the body { "error": { "code", "message", "field"?, "details"? } }. Bad input is a 400 whose \`field\` names the offending input.

**Design choices where the spec is silent.** Price legs are nested as \`spot\` and \`perp\`. Section E \
builders (burn, lp/aero, lp/uni, fixed, risk/modify, risk/cancel) use the conventions above: atomic amounts, \
\`owner\`, \`slippageBps\` (0..5000). Referral rewards are non-payable points. Where the machine-readable \
listing gives a different price than the reference listing, the reference price is posted and the other is \
noted in the operation's description.`

/** OpenAPI 3.1.0 document of the whole route table. */
export function buildOpenApi(routes: readonly Route[], config: Config): JsonSchema {
  const terms = paymentTerms(config)
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const route of routes) {
    const method = route.method.toLowerCase()
    paths[route.path] = { ...paths[route.path], [method]: operation(route, terms) }
  }
  return {
    openapi: '3.1.0',
    info: { title: SERVICE_NAME, version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: config.publicUrl }],
    tags: [
      { name: 'free', description: 'Free endpoints' },
      { name: 'data', description: 'Data reads' },
      { name: 'alpha', description: 'Analytics reads; indicative, not advice' },
      { name: 'builder', description: 'Unsigned transaction builders' },
      { name: 'prop', description: 'Prop desk, gated by onchain UTIL transfers' },
    ],
    security: [{ x402: [] }],
    paths,
    components: {
      securitySchemes: {
        x402: {
          type: 'apiKey',
          in: 'header',
          name: 'PAYMENT-SIGNATURE',
          description:
            'x402 v2 payment: base64 JSON PaymentPayload carrying an EIP-3009 USDC authorization for the ' +
            'challenged amount. X-PAYMENT is accepted as an alias. Payment is the credential: there are no ' +
            'API keys.',
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', description: 'Stable snake_case code' },
                message: { type: 'string' },
                field: { type: 'string', description: 'The offending input, when there is one' },
                details: { type: 'object' },
              },
            },
          },
        },
        PaymentRequired: {
          type: 'object',
          description: 'x402 v2 challenge, also base64-encoded in the PAYMENT-REQUIRED header.',
          required: ['x402Version', 'accepts'],
          properties: {
            x402Version: { const: 2 },
            error: { type: 'string' },
            resource: { type: 'object' },
            accepts: {
              type: 'array',
              items: {
                type: 'object',
                required: ['scheme', 'network', 'asset', 'amount', 'payTo', 'maxTimeoutSeconds', 'extra'],
                properties: {
                  scheme: { const: 'exact' },
                  network: { const: terms.network },
                  asset: { type: 'string' },
                  amount: { type: 'string', pattern: '^[0-9]+$' },
                  payTo: { type: 'string' },
                  maxTimeoutSeconds: { type: 'integer' },
                  extra: { type: 'object' },
                },
              },
            },
            promote: { type: 'object' },
            utilCredit: { type: 'object' },
          },
        },
      },
    },
  }
}

function operation(route: Route, terms: ReturnType<typeof paymentTerms>): JsonSchema {
  const schemas = routeSchemas(route)
  const responses: Record<string, JsonSchema> = {
    '200': { description: 'Success', content: { 'application/json': { schema: schemas.output } } },
    '400': jsonError('Missing or malformed input; `field` names it'),
    '429': jsonError('Rate limited; retry after the Retry-After header'),
    '501': jsonError('Specified but not yet available; never charged'),
    '502': jsonError(
      'upstream_unavailable: an upstream the read depends on (a market API, or the chain RPC) did not answer usefully; never charged, retry after the Retry-After header',
    ),
  }
  if (route.tier === 'builder') {
    responses['422'] = jsonError(
      'The body is valid but the chain would refuse the bundle, so nothing is built and nothing is charged: ' +
        'simulation_reverted (details.stepIndex, details.reason: the whole bundle simulated in order from ' +
        'the owner with eth_simulateV1 reverts at that step), insufficient_balance ' +
        '(details.issues.balance: token, actual, expected), unlisted_target (an address outside the ' +
        'network address book), or a guard of the builder named by its code and `field`',
    )
  }
  if (route.priceUsd !== null) {
    responses['503'] = jsonError(
      'payment_facilitator_unavailable: payments cannot be processed right now, nothing was charged and the ' +
        'authorization stays usable; payment_settlement_unknown: the settlement failed and may still land, ' +
        'the call was not served, do not reuse the authorization (a transfer that lands anyway is recorded ' +
        'paid and unserved, for a refund); store_unavailable: nothing was charged. ' +
        'payment_facilitator_unavailable and store_unavailable carry Retry-After',
    )
  }
  const op: JsonSchema = {
    operationId: route.id,
    summary: route.summary,
    description: route.description,
    tags: [route.tier],
    parameters: schemas.parameters,
    responses,
  }
  if (schemas.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: schemas.body } } }
  }
  if (route.priceUsd === null) {
    op.security = []
    return op
  }
  const amount = usdToAtomic(route.priceUsd).toString()
  responses['402'] = {
    description:
      `Payment required: the x402 v2 challenge (also in the PAYMENT-REQUIRED header). A refused ` +
      `payment adds \`error\` { code, message } with one of: ${Object.keys(PAYMENT_ERRORS).join(', ')}.`,
    headers: {
      'PAYMENT-REQUIRED': { description: 'base64 JSON of the challenge', schema: { type: 'string' } },
    },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/PaymentRequired' } } },
  }
  op['x-x402'] = {
    x402Version: 2,
    price: `$${route.priceUsd}`,
    priceUsd: route.priceUsd,
    amount,
    network: terms.network,
    asset: terms.asset,
    scheme: terms.scheme,
    payTo: terms.payTo,
  }
  op['x-payment-info'] = {
    protocols: ['x402'],
    price: { amount: String(route.priceUsd), currency: 'USD' },
    settlement: { asset: terms.asset, symbol: 'USDC', amount, network: terms.network, scheme: terms.scheme },
    payTo: terms.payTo,
  }
  return op
}
