import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createBrotliDecompress } from 'node:zlib'
import { type Browser, chromium } from 'playwright-core'
import { PROJECT_ROOT } from '../../src/projectRoot.js'

/**
 * The browser the web tests open, with nothing installed on the machine beforehand: CHROMIUM_PATH when it
 * is set (a browser of the machine's, e.g. Debian's /usr/bin/chromium), otherwise the headless Chromium
 * that the npm package @sparticuz/chromium carries in its tarball (a devDependency, so `npm ci` brings it
 * from the registry like any other). Its binary ships brotli-compressed; it is inflated once into
 * .cache/chromium/<version>/ (written to a temporary name and renamed, so two workers inflating at once
 * never see half a binary) and reused by every later run. The package's own executablePath() is not used:
 * it inflates into a shared /tmp/chromium that a concurrent reader can find half written.
 */
export async function chromiumExecutable(): Promise<string> {
  const fromEnv = process.env.CHROMIUM_PATH
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv
  const require = createRequire(import.meta.url)
  // The package exports only its entry point (build/cjs/index.cjs); its root is two folders above.
  const root = join(dirname(require.resolve('@sparticuz/chromium')), '..', '..')
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  const bin = join(root, 'bin')
  const dir = join(PROJECT_ROOT, '.cache', 'chromium', version)
  const executable = join(dir, 'chromium')
  if (existsSync(executable)) return executable
  mkdirSync(dir, { recursive: true })
  const partial = `${executable}.${process.pid}.partial`
  try {
    await pipeline(
      createReadStream(join(bin, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o755 }),
    )
    renameSync(partial, executable)
  } finally {
    rmSync(partial, { force: true })
  }
  return executable
}

/**
 * Headless Chromium for a test. As root (CI) Chromium's sandbox cannot start; the background-networking
 * switches keep it from calling out of this closed network at every start.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: await chromiumExecutable(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  })
}
