/** `/v1/ta/{sym}` → `/v1/ta/:sym` */
export function toHonoPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')
}
