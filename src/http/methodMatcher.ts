import { toHonoPath } from './honoPath.js'

export interface Endpoint {
  method: string
  path: string
}

/**
 * Tells which methods a concrete path is served under, so an unmatched request can be answered 405
 * (with Allow) instead of 404 when only the method is wrong.
 */
export function methodMatcher(endpoints: readonly Endpoint[]): (path: string) => string[] {
  const compiled = endpoints.map((e) => ({
    method: e.method,
    pattern: new RegExp(
      `^${toHonoPath(e.path)
        .replace(/[.]/g, '\\.')
        .replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`,
    ),
  }))
  return (path) => [...new Set(compiled.filter((e) => e.pattern.test(path)).map((e) => e.method))]
}
