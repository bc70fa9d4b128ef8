import type { RawInput, Route } from '../routes/route.js'

/**
 * A tool call's arguments as the route's raw input: path parameters fill the route's `{…}` segments, GET
 * inputs are query strings (a number or boolean an MCP client sends is written as the query would carry
 * it), POST inputs are the JSON body. The route then validates them exactly as over HTTP.
 */
export function toolInput(route: Route, args: Record<string, unknown>): RawInput {
  const pathNames = new Set(Object.keys(route.input.params?.shape ?? {}))
  const params: Record<string, string> = {}
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(args)) {
    if (pathNames.has(key)) params[key] = String(value)
    else rest[key] = value
  }
  if (route.method === 'POST') return { params, query: {}, body: rest }
  const query: Record<string, string> = {}
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined || value === null) continue
    query[key] = typeof value === 'object' ? JSON.stringify(value) : String(value)
  }
  return { params, query, body: undefined }
}

/** The HTTP path the tool stands for, with its parameters filled: what the challenge's quote is scoped to. */
export function toolPath(route: Route, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
}
