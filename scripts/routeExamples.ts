/**
 * The route examples' world and how an example is served, shared by `npm run examples`
 * (scripts/generateExamples.ts, which writes the files) and test/routeExamples.test.ts (which checks them).
 *
 * Nothing is normalized: a run is pinned so that every figure repeats, on any machine, for as long as the
 * sources are the same (docs/discovery.md#route-examples).
 * - Its own devnet state, built apart (`.cache/devnet-examples/`) from a genesis at a fixed time with one
 *   second per block, so accrual, Midnight maturities and market ids do not depend on when or how fast it
 *   was built (the shared devnet's state follows the wall clock).
 * - One frozen clock, `EXAMPLE_NOW`, for the market simulator (prices, candles, signals, ideas), the
 *   service (quote times and deadlines, `asOf`) and the chain (set to it after the state loads, then one
 *   second per block).
 * - Nothing mines in the background (no price pusher or keeper timer); the one price push at start writes
 *   the simulator's prices at `EXAMPLE_NOW`.
 * - The examples are served one after another in table order, through `route.run` with the service's
 *   dependencies, and the result goes through JSON as the app's `c.json` sends it. The payment is left out
 *   on purpose: the gate does not change the body, and its settlement would mine blocks between examples
 *   (and its authorization is signed against the wall clock).
 */
import { join } from 'node:path'
import { loadConfig, UPSTREAM_PORT_COUNT } from '../src/config.js'
import { freePortRange, onFreePort } from '../src/devnet/anvil.js'
import { demoAccounts } from '../src/devnet/devnetAccounts.js'
import type { DevnetWorld } from '../src/devnet/startDevnetWorld.js'
import { NotImplementedError } from '../src/errors.js'
import { createLogger } from '../src/logger.js'
import { CACHE_DIR, PROJECT_ROOT } from '../src/projectRoot.js'
import type { Route } from '../src/routes/route.js'
import { routeTable } from '../src/routes/table.js'
import type { Services } from '../src/services.js'
import { startStack } from '../src/stack.js'

/** The examples' clock: 2026-11-22 00:00 UTC, for the simulator, the service and the chain. */
export const EXAMPLE_NOW = Date.UTC(2026, 10, 22)
/** The examples' devnet state: built apart, from a genesis one day before EXAMPLE_NOW. */
const EXAMPLE_STATE = {
  cacheDir: join(CACHE_DIR, 'devnet-examples'),
  genesisTimestamp: EXAMPLE_NOW / 1000 - 86_400,
  chainTime: EXAMPLE_NOW / 1000,
}

/**
 * What serving an example gave: the JSON body; 501 for a capability not built yet; `unreplayable` for an
 * input that authorizes with a one-time onchain action (prop execute's transfer), which is never re-served.
 * Both of the latter keep the output written in the record.
 */
export type Served = { status: 200; output: unknown } | { status: 501 } | { status: 'unreplayable' }

export interface ExampleWorld {
  world: DevnetWorld
  services: Services
  /** Serves one route's example input; anything but 200 or 501 throws, naming the route. */
  serve(route: Route): Promise<Served>
  stop(): Promise<void>
}

/** The priced routes: each publishes an example in its 402's `bazaar` extension. */
export const exampleRoutes = (): Route[] => routeTable.filter((r) => r.priceUsd !== null)

export async function startExampleWorld(): Promise<ExampleWorld> {
  const clock = () => EXAMPLE_NOW
  const logger = createLogger('silent')
  const stack = await onFreePort(async (rpcPort) => {
    const config = loadConfig({
      DEVNET_BLOCK_TIME: '0',
      // Our code is measured here, not the upstreams' documented limits (test/upstreams/ holds those).
      DEVNET_UPSTREAM_LIMITS: 'off',
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      QUOTE_SECRET: 'route-examples-quote-secret',
      DEVNET_RPC_PORT: String(rpcPort),
      DEVNET_UPSTREAM_PORT: String(await freePortRange(UPSTREAM_PORT_COUNT)),
    })
    return startStack({
      config,
      logger,
      clock,
      world: {
        clock,
        pushIntervalMs: 0,
        // setTimeout's longest delay: the keeper never ticks on its own.
        keeperIntervalMs: 2 ** 31 - 1,
        pinned: EXAMPLE_STATE,
      },
    })
  })
  const { services } = stack
  const world = stack.world as DevnetWorld
  // Priced handlers learn who paid from the gate; the examples are paid by demo account #1 (it holds UTIL,
  // so the prop desk's quote is a member's).
  const ctx = { deps: services.deps, routes: routeTable, logger, payer: demoAccounts[1]?.address }
  return {
    world,
    services,
    async serve(route) {
      const example = route.example
      if (example === undefined) throw new Error(`${route.id} has no example input`)
      if (example.replayable === false) return { status: 'unreplayable' }
      const raw = {
        params: (example.params ?? {}) as Record<string, string>,
        query: example.query ?? {},
        body: example.body,
      }
      try {
        const result = await route.run(raw, { ...ctx, requestId: `example-${route.id}` })
        return { status: 200, output: JSON.parse(JSON.stringify(result)) as unknown }
      } catch (err) {
        if (err instanceof NotImplementedError) return { status: 501 }
        throw new Error(`${route.id}: its example input is not served: ${String(err)}`, { cause: err })
      }
    },
    stop: () => stack.stop(),
  }
}

/** Serves every priced route's example input in table order (the order is part of the pinned run). */
export async function serveAll(world: ExampleWorld): Promise<Map<Route, Served>> {
  const served = new Map<Route, Served>()
  for (const route of exampleRoutes()) served.set(route, await world.serve(route))
  return served
}

/** A generated file's text: two-space JSON and a final newline. */
export const exampleText = (output: unknown): string => `${JSON.stringify(output, null, 2)}\n`

/**
 * Where a route's example output is written: beside its record, which the folder rule of src/routes/table.ts
 * places from its URL (`/v1/tx/loan/borrow` → `src/routes/tx/loan/buildLoanBorrow.example.json`). The record
 * reads the same file from its own location (routes/shared/exampleOutput.ts); the test compares the two.
 */
export function exampleFile(route: Route): string {
  const segments = route.path.split('/').filter(Boolean)
  const statics = (segments[0] === 'v1' ? segments.slice(1) : segments).filter((s) => !s.startsWith('{'))
  const camel = (segment: string) => segment.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
  const folder = statics.length <= 1 ? statics : statics.slice(0, -1)
  return join(PROJECT_ROOT, 'src/routes', ...folder.map(camel), `${route.id}.example.json`)
}
