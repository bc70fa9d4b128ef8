import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { gunzipSync } from 'node:zlib'

/** A tar entry this reader does not handle (links, pax or GNU long-name headers): the caller falls back. */
export class UnsupportedTarEntryError extends Error {
  constructor(
    readonly entry: string,
    readonly typeflag: string,
  ) {
    super(`tar entry ${entry}: type '${typeflag}' is not supported`)
  }
}

const BLOCK = 512

/**
 * Unpacks a gzipped ustar archive of plain files and directories (what PGlite's `dumpDataDir('gzip')`
 * writes) into `dir`, in Node's own memory. Why not PGlite's `loadDataDir`: it unpacks through the
 * WebAssembly heap, which grows by ~80 MB for the template and never shrinks, so a new ledger would keep
 * that in the service's resident set for its whole life (the soak, issue 28).
 */
export function unpackTarGz(archive: Uint8Array, dir: string): number {
  const tar = gunzipSync(archive)
  const root = resolve(dir)
  let files = 0
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const header = tar.subarray(at, at + BLOCK)
    if (header.every((b) => b === 0)) break
    const name = joinName(field(header, 345, 155), field(header, 0, 100))
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8)
    const typeflag = String.fromCharCode(header[156] ?? 0)
    const target = resolve(root, `.${name.startsWith('/') ? name : `/${name}`}`)
    const inside = relative(root, target)
    if (inside.startsWith('..')) throw new UnsupportedTarEntryError(name, 'outside the directory')
    const body = at + BLOCK
    if (typeflag === '5') mkdirSync(target, { recursive: true })
    else if (typeflag === '0' || typeflag === '\0') {
      mkdirSync(dirname(target), { recursive: true })
      writeFileSync(target, tar.subarray(body, body + size), { mode: 0o600 })
      files += 1
    } else throw new UnsupportedTarEntryError(name, typeflag)
    at = body + Math.ceil(size / BLOCK) * BLOCK
  }
  return files
}

/** A NUL-terminated ASCII field of a header. */
function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length)
  const end = bytes.indexOf(0)
  return Buffer.from(end === -1 ? bytes : bytes.subarray(0, end)).toString('utf8')
}

const joinName = (prefix: string, name: string) => (prefix === '' ? name : join(prefix, name))
