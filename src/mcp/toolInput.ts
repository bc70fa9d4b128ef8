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
    if (pathNames.has(key)) params[key] = asText(value)
    else rest[key] = value
  }
  if (route.method === 'POST') return { params, query: {}, body: rest }
  const query: Record<string, string> = {}
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined || value === null) continue
    query[key] = asText(value)
  }
  return { params, query, body: undefined }
}

/**
 * An argument as a path segment or query value carries it. An object is written as its JSON (the route then
 * refuses it, naming the field): `String()` would throw on `{"toString": "x"}` (a JSON object's own
 * `toString` that is not a function), an exception outside the gate that the SDK answers as -32603.
 */
function asText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)
}

/** The HTTP path the tool stands for, with its parameters filled: what the challenge's quote is scoped to. */
export function toolPath(route: Route, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
}
