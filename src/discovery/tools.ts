import type { Config } from '../config.js'
import type { JsonSchema } from '../jsonSchema.js'
import type { Route } from '../routes/route.js'
import { routeSchemas } from '../routes/shared/routeSchemas.js'

export interface Tool {
  name: string
  description: string
  inputSchema: JsonSchema
  annotations: { title: string; readOnlyHint: boolean; openWorldHint: boolean }
  'x-http': { method: Route['method']; path: string; url: string; priceUsd: number | null }
}

/**
 * One tool per endpoint, in the shape agent frameworks and MCP clients take (`name`, `description`,
 * `inputSchema`). `x-http` says how to call it: path parameters fill `{…}`, GET inputs go in the query,
 * POST inputs are the JSON body.
 */
export function buildTools(routes: readonly Route[], config: Config): { tools: Tool[] } {
  return {
    tools: routes.map((route) => {
      const price = route.priceUsd === null ? 'Free.' : `Costs $${route.priceUsd} in USDC via x402.`
      return {
        name: route.id,
        description: `${route.summary}. ${route.description} ${price}`,
        inputSchema: routeSchemas(route).toolInput,
        // Reads and builders change nothing (a builder only builds: the caller broadcasts); a desk action trades.
        annotations: { title: route.summary, readOnlyHint: route.actsOnchain !== true, openWorldHint: true },
        'x-http': {
          method: route.method,
          path: route.path,
          url: `${config.publicUrl}${route.path}`,
          priceUsd: route.priceUsd,
        },
      }
    }),
  }
}
