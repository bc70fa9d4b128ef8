import type { BuilderEngine } from './builders/builderEngine.js'
import type { LendingChain } from './market/lendingChain.js'
import type { MarketData } from './market/marketData.js'
import type { CreditBook } from './payments/credit/creditBook.js'
import type { PaymentServices } from './payments/paymentServices.js'
import type { PropDesk } from './prop/createPropDesk.js'
import type { Readiness } from './readiness.js'
import type { OpsReport } from './store/opsReport.js'

// The dependency container. It sits between the route layer and the layers below it (see
// test/layering.test.ts): the app, the router, the HTTP adapters and every handler name the bag here, and
// it names only types from below, so no import of it can close a circle. The payment gate, below it, asks
// for the part it uses (PaymentServices), which this bag extends.

/** Everything the app needs, passed in: tests build the same graph. */
export interface AppDeps extends PaymentServices {
  readiness: Readiness
  market: MarketData
  /** Chain state of the catalog's vaults, Aave reserves and Morpho markets, cached (earn and loan reads). */
  lending: LendingChain
  /** The builder engine: address book, builder-code suffix, bundle simulation (every /v1/tx builder). */
  builders: BuilderEngine
  /** The UTIL credit rail's book: what `GET /v1/util-credit/{wallet}` shows. */
  creditBook: CreditBook
  /** The prop desk: quotes and actions with the desk's own capital (src/prop/). */
  prop: PropDesk
  /** The operator's figures from the books (`/ops`, `/metrics`). */
  opsReport(): Promise<OpsReport>
}
