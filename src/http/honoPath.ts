/** `/v1/ta/{sym}` → `/v1/ta/:sym` */
export function toHonoPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')
}

/** How many `{param}` segments a path template has: the app registers fewer first (static before parametric). */
export function paramCount(path: string): number {
  return (path.match(/\{/g) ?? []).length
}
