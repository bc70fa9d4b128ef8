import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    pool: 'forks',
    // A worker runs its files one after another in one process (isolate: false), so the modules it
    // loaded and the devnet world it started (test/helpers/serviceWorld.ts) serve all of them; each file
    // still gets its world reset to the start and service instances of its own.
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
