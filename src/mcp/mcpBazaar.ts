import { declareDiscoveryExtension } from '@x402/extensions/bazaar'
import type { Route } from '../routes/route.js'
import { routeSchemas } from '../routes/shared/routeSchemas.js'

const cache = new WeakMap<Route, unknown>()

/**
 * The MCP form of x402's `bazaar` discovery extension for a priced tool (`@x402/extensions/bazaar`): the
 * tool's name, its input schema and an example call (the route's example, its path, query and body fields
 * merged as a tool's arguments are), and the example answer. Built once per route.
 */
export function mcpBazaar(route: Route): unknown {
  const hit = cache.get(route)
  if (hit !== undefined) return hit
  const example = route.example
  const args = {
    ...((example?.params ?? {}) as Record<string, unknown>),
    ...(example?.query ?? {}),
    ...((example?.body ?? {}) as Record<string, unknown>),
  }
  const declared = declareDiscoveryExtension({
    toolName: route.id,
    description: route.summary,
    transport: 'streamable-http',
    inputSchema: routeSchemas(route).toolInput,
    example: args,
    ...(example?.output === undefined ? {} : { output: { example: example.output } }),
  }).bazaar
  cache.set(route, declared)
  return declared
}
