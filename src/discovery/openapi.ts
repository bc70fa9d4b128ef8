import type { Config } from '../config.js'
import type { ErrorStatus } from '../errors.js'
import type { JsonSchema } from '../jsonSchema.js'
import { usdToAtomic } from '../payments/usdToAtomic.js'
import type { Route } from '../routes/route.js'
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../routes/shared/catalog.js'
import { ERROR_CODES, type ErrorCode } from '../routes/shared/errorCodes.js'
import { paymentTerms } from '../routes/shared/paymentTerms.js'
import { routeErrorCodes } from '../routes/shared/routeErrorCodes.js'
import { routeSchemas } from '../routes/shared/routeSchemas.js'

/** What each error status means before its codes; the codes and their meanings come from the registry. */
const STATUS_LEADS: Partial<Record<ErrorStatus, string>> = {
  400: 'Missing or malformed input; `field` names it. Never charged.',
  404: 'What the request names does not exist. Never charged.',
  409: 'The request is valid but cannot be served in the current state. Never charged.',
  422: 'The body is valid but the chain would refuse the bundle (or a guard refuses it on the caller’s behalf), so nothing is built. Never charged.',
  429: 'Rate limited; retry after the Retry-After header. Never charged.',
  501: 'Specified but not yet available. Never charged.',
  502: 'An upstream the call depends on did not answer usefully; retry after the Retry-After header. Never charged.',
  503: 'A fault on our side (each code says what was charged).',
}

/** The route's codes (its own and the implied ones, routeErrorCodes) grouped by the status they answer. */
function codesByStatus(route: Route): Map<ErrorStatus, ErrorCode[]> {
  const byStatus = new Map<ErrorStatus, ErrorCode[]>()
  for (const code of routeErrorCodes(route)) {
    const status = ERROR_CODES[code].status
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return byStatus
}

const codeList = (codes: readonly ErrorCode[]) =>
  codes.map((code) => `- \`${code}\`: ${ERROR_CODES[code].meaning}`).join('\n')

/**
 * One response per error status the route answers (402 aside: its body is the challenge): the codes with
 * their meanings in the description, and the Error schema's `code` narrowed to exactly those codes. The
 * narrowing sits beside the `$ref` (OpenAPI 3.1 schemas are JSON Schema 2020-12, where `$ref` takes
 * sibling keywords), so the response still refers to the one Error schema.
 */
function errorResponses(route: Route): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {}
  for (const [status, codes] of [...codesByStatus(route)].sort(([a], [b]) => a - b)) {
    if (status === 402) continue
    const lead = STATUS_LEADS[status]
    responses[String(status)] = {
      description: `${lead === undefined ? '' : `${lead} `}Codes:\n${codeList(codes)}`,
      content: {
        'application/json': {
          schema: {
            $ref: '#/components/schemas/Error',
            properties: { error: { properties: { code: { enum: codes } } } },
          },
        },
      },
    }
  }
  return responses
}

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

**Errors.** Every error has the body { "error": { "code", "message", "field"?, "details"? } }. Bad input is a 400 whose \`field\` names the offending input. \
Each operation lists, per status, the codes it can answer with their meanings, and narrows \`code\` to them.

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
    paths,
    components: {
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
    ...errorResponses(route),
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
  // Payment is no credential scheme (there are no keys): a priced operation says how it is paid in
  // `x-payment-info` (the shape x402 discovery tools parse) and `x-x402`, and answers 402 with the challenge.
  if (route.priceUsd === null) return op
  const amount = usdToAtomic(route.priceUsd).toString()
  responses['402'] = {
    description:
      'Payment required: the x402 v2 challenge (also in the PAYMENT-REQUIRED header). A refused payment ' +
      `adds \`error\` { code, message } with one of:\n${codeList(codesByStatus(route).get(402) ?? [])}`,
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
    protocols: [{ x402: {} }],
    price: { mode: 'fixed', amount: String(route.priceUsd), currency: 'USD' },
    settlement: { asset: terms.asset, symbol: 'USDC', amount, network: terms.network, scheme: terms.scheme },
    payTo: terms.payTo,
  }
  return op
}
