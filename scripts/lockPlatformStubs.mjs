// Adds lockfile entries for platform-specific optional packages that this npm registry does not carry
// (other OS/CPU builds of biome, rollup, …). Without them `npm ci` refuses the lock as "out of sync";
// with their os/cpu/libc recorded, npm skips them on platforms they do not match. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs'

const OS = [
  'android',
  'darwin',
  'linux',
  'win32',
  'freebsd',
  'openbsd',
  'openharmony',
  'netbsd',
  'sunos',
  'aix',
]
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  arm: 'arm',
  loongarch64: 'loong64',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'))
let added = 0
for (const [path, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const at = `node_modules/${name}`
    if (lock.packages[at]) continue
    const parts = name.split('/').pop().split('-')
    const os = parts.find((p) => OS.includes(p))
    const cpu = parts.map((p) => CPU[p]).find(Boolean)
    if (!os || !cpu) continue // not a platform package: leave npm's judgement alone
    const entry = { version, cpu: [cpu], dev: pkg.dev, optional: true, os: [os] }
    if (name.includes('musl')) entry.libc = ['musl']
    else if (os === 'linux') entry.libc = ['glibc']
    if (!pkg.dev) delete entry.dev
    lock.packages[at] = entry
    added++
    console.log(`stub ${at}@${version} (${os}/${cpu}) for ${path || '(root)'}`)
  }
}
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`)
console.log(`${added} platform stubs added`)
