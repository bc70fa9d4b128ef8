import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createDatabase } from './database.js'
import { ensurePgliteTemplate } from './pgliteTemplate.js'
import { UnsupportedTarEntryError, unpackTarGz } from './unpackTarGz.js'

/** Every file under `dir`, relative, with its bytes' SHA-256 (a 16 MB WAL segment compared as bytes is slow). */
function filesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name)
      if (statSync(path).isDirectory()) walk(path)
      else out.set(relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex'))
    }
  }
  walk(dir)
  return out
}

describe('unpackTarGz', () => {
  test('behavior: the PGlite template unpacks to exactly what GNU tar extracts, and PGlite opens it migrated', async () => {
    const template = await ensurePgliteTemplate()
    const ours = mkdtempSync(join(tmpdir(), 'untar-ours-'))
    const theirs = mkdtempSync(join(tmpdir(), 'untar-gnu-'))
    const count = unpackTarGz(readFileSync(template), ours)
    execFileSync('tar', ['-xzf', template, '-C', theirs])
    const expected = filesOf(theirs)
    expect(count).toBe(expected.size)
    expect(filesOf(ours)).toEqual(expected)

    const db = await createDatabase({ dataDir: ours })
    try {
      const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM payments')
      expect(rows).toEqual([{ n: '0' }])
    } finally {
      await db.close()
    }
  })

  test('error: an unpack that fails midway (disk full, killed) is redone at the next start, not opened half', async () => {
    // A file `base`, then `base/1/x`: the second entry cannot be written (ENOTDIR) after PG_VERSION and
    // `base` were, as a full disk or a kill mid-unpack would leave a directory with some of its files.
    const one = mkdtempSync(join(tmpdir(), 'untar-one-'))
    writeFileSync(join(one, 'PG_VERSION'), '17\n')
    writeFileSync(join(one, 'base'), 'x')
    const two = mkdtempSync(join(tmpdir(), 'untar-two-'))
    mkdirSync(join(two, 'base', '1'), { recursive: true })
    writeFileSync(join(two, 'base', '1', 'x'), 'x')
    const tar = join(mkdtempSync(join(tmpdir(), 'untar-arc-')), 'a.tar')
    execFileSync('tar', ['-cf', tar, '-C', one, 'PG_VERSION', 'base'])
    execFileSync('tar', ['-rf', tar, '-C', two, 'base/1/x'])
    execFileSync('gzip', [tar])
    const broken = new Blob([readFileSync(`${tar}.gz`)])
    const dataDir = join(mkdtempSync(join(tmpdir(), 'untar-data-')), 'pglite')
    await expect(createDatabase({ dataDir, template: broken })).rejects.toThrow()

    const template = new Blob([readFileSync(await ensurePgliteTemplate())])
    const db = await createDatabase({ dataDir, template })
    try {
      const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM payments')
      expect(rows).toEqual([{ n: '0' }])
    } finally {
      await db.close()
    }
    expect(readdirSync(dataDir)).toContain('PG_VERSION')
    expect(readdirSync(dataDir).filter((n) => n.startsWith('.agentdesk'))).toEqual([])

    // Killed midway: the marker and a few files are all there is; the next start unpacks it again.
    const killed = join(mkdtempSync(join(tmpdir(), 'untar-killed-')), 'pglite')
    mkdirSync(join(killed, 'base'), { recursive: true })
    writeFileSync(join(killed, '.agentdesk-unpacking'), '')
    writeFileSync(join(killed, 'PG_VERSION'), '17\n')
    const again = await createDatabase({ dataDir: killed, template })
    try {
      const { rows } = await again.query<{ n: string }>('SELECT count(*)::text AS n FROM payments')
      expect(rows).toEqual([{ n: '0' }])
    } finally {
      await again.close()
    }
  })

  test('error: a symlink entry is refused (the database falls back to PGlite’s own loader)', () => {
    const src = mkdtempSync(join(tmpdir(), 'untar-src-'))
    mkdirSync(join(src, 'd'))
    writeFileSync(join(src, 'd', 'f'), 'x')
    symlinkSync('f', join(src, 'd', 'link'))
    const archive = join(mkdtempSync(join(tmpdir(), 'untar-arc-')), 'a.tar.gz')
    execFileSync('tar', ['-czf', archive, '-C', src, 'd'])
    expect(() => unpackTarGz(readFileSync(archive), mkdtempSync(join(tmpdir(), 'untar-out-')))).toThrow(
      UnsupportedTarEntryError,
    )
  })
})
