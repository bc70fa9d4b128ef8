import type { Config } from '../config.js'
import type { JsonSchema } from '../jsonSchema.js'
import type { Route } from '../routes/route.js'
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../routes/shared/catalog.js'
import { documentUrls } from '../routes/shared/paymentTerms.js'
import { routeSchemas } from '../routes/shared/routeSchemas.js'
import { authMarkdown } from './authMd.js'

/** /llms-full.txt: the whole API in plain text, for a model to read in one go. */
export function llmsFull(routes: readonly Route[], config: Config): string {
  const urls = documentUrls(config)
  const sections = routes.map((route) => {
    const s = routeSchemas(route)
    const price = route.priceUsd === null ? 'free' : `$${route.priceUsd} (USDC via x402)`
    const params = s.parameters.map(
      (p) => `  - ${p.name} (${p.in}${p.required ? ', required' : ''}): ${describe(p.schema, p.description)}`,
    )
    const body = s.body ? bodyLines(s.body) : []
    return [
      `## ${route.method} ${route.path}`,
      `Price: ${price}. Tier: ${route.tier}. Tool name: ${route.id}.`,
      `${route.summary}. ${route.description}`,
      params.length > 0 ? `Parameters:\n${params.join('\n')}` : '',
      body.length > 0 ? `JSON body (unknown properties are rejected):\n${body.join('\n')}` : '',
      `Response fields: ${fieldList(s.output).join(', ')}`,
    ]
      .filter((line) => line !== '')
      .join('\n')
  })
  return `# ${SERVICE_NAME}

${SERVICE_DESCRIPTION}

Base URL: ${config.publicUrl}. Machine-readable: ${urls.openapi} (OpenAPI 3.1), ${urls.tools} (tools), ${urls.catalog} (catalog).
Errors: { "error": { "code", "message", "field"? } }; a 400 names the offending field.

${authMarkdown(config)}
# Endpoints

${sections.join('\n\n')}
`
}

function bodyLines(body: JsonSchema): string[] {
  const props = (body.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set((body.required ?? []) as string[])
  return Object.entries(props).map(
    ([name, schema]) =>
      `  - ${name}${required.has(name) ? ' (required)' : ''}: ${describe(schema, undefined)}`,
  )
}

function describe(schema: JsonSchema, description: unknown): string {
  const parts: string[] = []
  const text = typeof description === 'string' ? description : schema.description
  if (typeof text === 'string') parts.push(text)
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.join(', ')}`)
  if (typeof schema.type === 'string') parts.push(schema.type)
  if (typeof schema.pattern === 'string') parts.push(`pattern ${schema.pattern}`)
  if (typeof schema.minimum === 'number') parts.push(`min ${schema.minimum}`)
  if (typeof schema.maximum === 'number') parts.push(`max ${schema.maximum}`)
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`)
  return parts.join('; ') || 'see OpenAPI'
}

function fieldList(schema: JsonSchema, prefix = ''): string[] {
  const props = schema.properties as Record<string, JsonSchema> | undefined
  if (!props) return []
  return Object.entries(props).flatMap(([name, child]) => {
    const path = `${prefix}${name}`
    const items = child.items as JsonSchema | undefined
    const nested = child.properties
      ? fieldList(child, `${path}.`)
      : items?.properties
        ? fieldList(items, `${path}[].`)
        : []
    return [path, ...nested]
  })
}
