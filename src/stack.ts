import type { Config } from './config.js'
import {
  type DevnetWorld,
  type StartDevnetWorldOptions,
  startDevnetWorld,
} from './devnet/startDevnetWorld.js'
import { createHttpService, type HttpService } from './httpService.js'
import { createLogger, type Logger } from './logger.js'
import type { SettleDeadline } from './payments/facilitator/createFacilitator.js'
import { createReadiness, type Readiness } from './readiness.js'
import { createServices, type Services } from './services.js'

/** How the devnet world is started beside the services (its config and logger are the stack's). */
export type StackWorld = Omit<StartDevnetWorldOptions, 'config' | 'logger'>

export interface StackOptions {
  config: Config
  /** Default: silent. */
  logger?: Logger
  readiness?: Readiness
  /** The devnet world to start beside the services; none when omitted (another process or a real chain). */
  world?: StackWorld
  /** The services' own config when it differs from the world's (an RPC proxy between the two). */
  servicesConfig?: Config
  /** The services' clock (default Date.now) and the settlement deadline they wait on. */
  clock?: () => number
  settleDeadline?: SettleDeadline
}

/** The service as it runs: the devnet world (when asked), the services, the HTTP service over them. */
export interface Stack {
  world: DevnetWorld | undefined
  services: Services
  http: HttpService
  /** The services closed, then the world stopped. */
  stop(): Promise<void>
}

/**
 * World, services, HTTP service: the one place they are put together, for `npm start` (src/main.ts), the
 * benches and the scripts. The world (anvil, the simulators) and the services (the store opening, its
 * migrations) start side by side, since neither needs the other until the first request; if either fails,
 * whatever started is stopped before the error is thrown. Listening is the caller's: a port, a test's.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const logger = options.logger ?? createLogger('silent')
  const readiness = options.readiness ?? createReadiness()
  const [worldStart, servicesStart] = await Promise.allSettled([
    options.world === undefined
      ? undefined
      : startDevnetWorld({ ...options.world, config: options.config, logger }),
    createServices(
      options.servicesConfig ?? options.config,
      logger,
      readiness,
      options.clock,
      options.settleDeadline,
    ),
  ])
  const world = worldStart.status === 'fulfilled' ? worldStart.value : undefined
  if (worldStart.status === 'rejected' || servicesStart.status === 'rejected') {
    await world?.stop()
    if (servicesStart.status === 'fulfilled') await servicesStart.value.close()
    throw worldStart.status === 'rejected'
      ? worldStart.reason
      : (servicesStart as PromiseRejectedResult).reason
  }
  const services = servicesStart.value
  return {
    world,
    services,
    http: createHttpService({ deps: services.deps }),
    async stop() {
      await services.close()
      await world?.stop()
    },
  }
}
