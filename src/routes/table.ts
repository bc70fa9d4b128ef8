import { alphaRoutes } from './alpha.js'
import { builderRoutes } from './builders.js'
import { dataRoutes } from './data.js'
import { freeRoutes, propRoutes } from './free.js'
import type { Route } from './route.js'

/**
 * THE route table: every endpoint of the API, once. The router, the payment gate's prices and every
 * discovery document are derived from this list.
 */
export const routeTable: readonly Route[] = [
  ...freeRoutes,
  ...dataRoutes,
  ...alphaRoutes,
  ...builderRoutes,
  ...propRoutes,
]
