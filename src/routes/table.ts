import { getAlphaRoute } from './alpha/getAlpha.js'
import { getArbitrageRoute } from './arbitrage/getArbitrage.js'
import { getCandlesRoute } from './candles/getCandles.js'
import { getCrowdRoute } from './crowd/getCrowd.js'
import { getVaultsRoute } from './earn/getVaults.js'
import { getHistoryRoute } from './history/getHistory.js'
import { getAssetIdeaRoute } from './ideas/getAssetIdea.js'
import { getIdeasRoute } from './ideas/getIdeas.js'
import { getIdeasCompareRoute } from './ideas/getIdeasCompare.js'
import { getIdeasSummaryRoute } from './ideas/getIdeasSummary.js'
import { getFixedBooksRoute } from './loan/getFixedBooks.js'
import { getLoanAnalysisRoute } from './loan/getLoanAnalysis.js'
import { getLoanMarketsRoute } from './loan/getLoanMarkets.js'
import { getPendingOrdersRoute } from './pendingOrders/getPendingOrders.js'
import { getPortfolioRoute } from './portfolio/getPortfolio.js'
import { getPositionsRoute } from './positions/getPositions.js'
import { getPricesRoute } from './prices/getPrices.js'
import { propExecuteRoute } from './prop/propExecute.js'
import { propQuoteRoute } from './prop/propQuote.js'
import { getReferralsRoute } from './referrals/getReferrals.js'
import { getRiskPairsRoute } from './risk/getRiskPairs.js'
import { getCatalogRoute } from './root/getCatalog.js'
import type { Route } from './route.js'
import { getSignalsRoute } from './signals/getSignals.js'
import { getStatsRoute } from './stats/getStats.js'
import { getStockPriceRoute } from './stocks/getStockPrice.js'
import { getStocksRoute } from './stocks/getStocks.js'
import { getSwapPriceRoute } from './swap/getSwapPrice.js'
import { getTaRoute } from './ta/getTa.js'
import { getTaScanRoute } from './ta/getTaScan.js'
import { buildBurnRoute } from './tx/buildBurn.js'
import { buildStockOrderRoute } from './tx/buildStockOrder.js'
import { buildSwapRoute } from './tx/buildSwap.js'
import { buildAaveSupplyRoute } from './tx/earn/aave/buildAaveSupply.js'
import { buildAaveWithdrawRoute } from './tx/earn/aave/buildAaveWithdraw.js'
import { buildEarnDepositRoute } from './tx/earn/buildEarnDeposit.js'
import { buildEarnWithdrawRoute } from './tx/earn/buildEarnWithdraw.js'
import { buildFixedBorrowRoute } from './tx/fixed/buildFixedBorrow.js'
import { buildFixedLendRoute } from './tx/fixed/buildFixedLend.js'
import { buildFixedRepayRoute } from './tx/fixed/buildFixedRepay.js'
import { buildFixedSupplyCollateralRoute } from './tx/fixed/buildFixedSupplyCollateral.js'
import { buildFixedWithdrawRoute } from './tx/fixed/buildFixedWithdraw.js'
import { buildFixedWithdrawCollateralRoute } from './tx/fixed/buildFixedWithdrawCollateral.js'
import { buildLoanBorrowRoute } from './tx/loan/buildLoanBorrow.js'
import { buildLoanRepayRoute } from './tx/loan/buildLoanRepay.js'
import { buildLoanSupplyCollateralRoute } from './tx/loan/buildLoanSupplyCollateral.js'
import { buildLoanWithdrawCollateralRoute } from './tx/loan/buildLoanWithdrawCollateral.js'
import { buildAeroAddRoute } from './tx/lp/aero/buildAeroAdd.js'
import { buildAeroRemoveRoute } from './tx/lp/aero/buildAeroRemove.js'
import { buildUniAddRoute } from './tx/lp/uni/buildUniAdd.js'
import { buildUniCollectRoute } from './tx/lp/uni/buildUniCollect.js'
import { buildUniRemoveRoute } from './tx/lp/uni/buildUniRemove.js'
import { buildRiskCancelRoute } from './tx/risk/buildRiskCancel.js'
import { buildRiskCloseRoute } from './tx/risk/buildRiskClose.js'
import { buildRiskModifyRoute } from './tx/risk/buildRiskModify.js'
import { buildRiskOpenRoute } from './tx/risk/buildRiskOpen.js'
import { getUtilCreditRoute } from './utilCredit/getUtilCredit.js'

/**
 * THE route table: every endpoint of the API, once. The router, the payment gate's prices and every
 * discovery document are derived from this list. Prices: `PRICES` in ./prices.ts.
 *
 * Where a route lives, from its URL alone: `src/routes/<folder>/<operationId>.ts`, exporting
 * `<operationId>Route`. The folder is made of the path's static segments after `/v1` (parameters such as
 * `{address}` are skipped), each written in camelCase (`pending-orders` → `pendingOrders`): all of them but
 * the last when there are two or more, the only one when there is one, `root` when there is none.
 *   GET /v1/portfolio/{address}  → portfolio/getPortfolio.ts
 *   GET /v1/loan/analysis/{address} → loan/getLoanAnalysis.ts
 *   GET /v1/ideas                → ideas/getIdeas.ts
 *   POST /v1/tx/risk/open        → tx/risk/buildRiskOpen.ts
 *   POST /v1/tx/swap             → tx/buildSwap.ts
 *   GET /v1                      → root/getCatalog.ts
 * Route folders hold route files only (and their tests); what several records share is in ./shared/.
 * The table is sorted by path, then method. test/routeFiles.test.ts checks all of this.
 */
export const routeTable: readonly Route[] = [
  getCatalogRoute,
  getAlphaRoute,
  getArbitrageRoute,
  getCandlesRoute,
  getCrowdRoute,
  getVaultsRoute,
  getHistoryRoute,
  getIdeasRoute,
  getAssetIdeaRoute,
  getIdeasCompareRoute,
  getIdeasSummaryRoute,
  getLoanAnalysisRoute,
  getFixedBooksRoute,
  getLoanMarketsRoute,
  getPendingOrdersRoute,
  getPortfolioRoute,
  getPositionsRoute,
  getPricesRoute,
  propExecuteRoute,
  propQuoteRoute,
  getReferralsRoute,
  getRiskPairsRoute,
  getSignalsRoute,
  getStatsRoute,
  getStocksRoute,
  getStockPriceRoute,
  getSwapPriceRoute,
  getTaScanRoute,
  getTaRoute,
  buildBurnRoute,
  buildAaveSupplyRoute,
  buildAaveWithdrawRoute,
  buildEarnDepositRoute,
  buildEarnWithdrawRoute,
  buildFixedBorrowRoute,
  buildFixedLendRoute,
  buildFixedRepayRoute,
  buildFixedSupplyCollateralRoute,
  buildFixedWithdrawRoute,
  buildFixedWithdrawCollateralRoute,
  buildLoanBorrowRoute,
  buildLoanRepayRoute,
  buildLoanSupplyCollateralRoute,
  buildLoanWithdrawCollateralRoute,
  buildAeroAddRoute,
  buildAeroRemoveRoute,
  buildUniAddRoute,
  buildUniCollectRoute,
  buildUniRemoveRoute,
  buildRiskCancelRoute,
  buildRiskCloseRoute,
  buildRiskModifyRoute,
  buildRiskOpenRoute,
  buildStockOrderRoute,
  buildSwapRoute,
  getUtilCreditRoute,
]
