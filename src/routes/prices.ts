/**
 * The posted price of every operation, in USD, keyed by operationId; null for a free endpoint. Every route
 * record states its price from here (`priceUsd: PRICES.getPortfolio`), so this page is the price list.
 * The payment gate charges it (times surge), the 402 challenge and every discovery document publish it;
 * test/openapiStable.test.ts holds the published prices fixed. Where the spec's machine-readable listing
 * gives a different price than its reference listing, the reference price is posted and the route's
 * description notes the other.
 */

/** Section A: data reads. */
const DATA_READ = 0.001
/** Section B: alpha reads, single-subject ones at half price. */
const ALPHA_READ = 0.01
const ALPHA_SINGLE = 0.005
/** Sections C and E: builders (the machine-readable listing says $0.02). */
const BUILD = 0.01

export const PRICES = {
  // Free (section D)
  getCatalog: null,
  getReferrals: null,
  getUtilCredit: null,

  // Data reads
  getCandles: DATA_READ,
  getCrowd: DATA_READ,
  getVaults: DATA_READ,
  getHistory: DATA_READ,
  getAssetIdea: DATA_READ,
  getFixedBooks: DATA_READ,
  getLoanMarkets: DATA_READ,
  getPendingOrders: DATA_READ,
  getPortfolio: DATA_READ,
  getPositions: DATA_READ,
  getPrices: DATA_READ,
  getRiskPairs: DATA_READ,
  getSignals: DATA_READ,
  getStats: DATA_READ,
  getStocks: DATA_READ,
  getStockPrice: DATA_READ,
  getSwapPrice: DATA_READ,

  // Alpha reads
  getAlpha: ALPHA_READ,
  getArbitrage: ALPHA_READ,
  getIdeas: ALPHA_READ,
  getIdeasCompare: ALPHA_SINGLE,
  getIdeasSummary: ALPHA_READ,
  getLoanAnalysis: ALPHA_READ,
  getTaScan: ALPHA_READ,
  getTa: ALPHA_SINGLE,

  // Prop desk
  propExecute: 0.01,
  propQuote: 0.005,

  // Builders
  buildBurn: BUILD,
  buildAaveSupply: BUILD,
  buildAaveWithdraw: BUILD,
  buildEarnDeposit: BUILD,
  buildEarnWithdraw: BUILD,
  buildFixedBorrow: BUILD,
  buildFixedLend: BUILD,
  buildFixedRepay: BUILD,
  buildFixedSupplyCollateral: BUILD,
  buildFixedWithdraw: BUILD,
  buildFixedWithdrawCollateral: BUILD,
  buildLoanBorrow: BUILD,
  buildLoanRepay: BUILD,
  buildLoanSupplyCollateral: BUILD,
  buildLoanWithdrawCollateral: BUILD,
  buildAeroAdd: BUILD,
  buildAeroRemove: BUILD,
  buildUniAdd: BUILD,
  buildUniCollect: BUILD,
  buildUniRemove: BUILD,
  buildRiskCancel: BUILD,
  buildRiskClose: BUILD,
  buildRiskModify: BUILD,
  buildRiskOpen: BUILD,
  buildStockOrder: BUILD,
  buildSwap: BUILD,
} as const satisfies Record<string, number | null>

export type OperationId = keyof typeof PRICES
