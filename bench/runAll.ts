import { spawnSync } from 'node:child_process'

/**
 * `npm run bench`: each benchmark in its own process, one after another, stopping at the first failure.
 * `BENCH_ONLY` (comma-separated names below, e.g. `BENCH_ONLY=rails`) runs only those.
 */
const BENCHES: Record<string, string> = {
  http: 'bench/run.ts',
  reads: 'bench/reads.ts',
  builders: 'bench/builders.ts',
  payments: 'bench/payments.ts',
  rails: 'bench/paymentRails.ts',
  startup: 'bench/startup.ts',
}

const only = process.env.BENCH_ONLY?.split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '')
const unknown = only?.filter((name) => !(name in BENCHES)) ?? []
if (unknown.length > 0) {
  console.error(`BENCH_ONLY: unknown ${unknown.join(', ')}; one of ${Object.keys(BENCHES).join(', ')}`)
  process.exit(2)
}
for (const [name, file] of Object.entries(BENCHES)) {
  if (only !== undefined && only.length > 0 && !only.includes(name)) continue
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' })
  if (run.status !== 0) process.exit(run.status ?? 1)
}
