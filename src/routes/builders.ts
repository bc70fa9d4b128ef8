import { z } from 'zod'
import {
  address,
  atomicAmount,
  builderOutput,
  humanAmount,
  marketId,
  nftTokenId,
  nonNegative,
  positive,
  positiveAtomicAmount,
  side,
  slippageBpsBody,
  symbol,
  tokenOrNative,
  txStep,
} from './fields.js'
import { defineRoute, type HandlerContext, notImplemented, type Route } from './route.js'

/**
 * Sections C and E: builders. Each returns unsigned, ordered steps `{ to, data, value }` that the caller
 * broadcasts itself; an approve step is prepended only when the live allowance is short. Bodies are
 * strict: unknown properties are rejected. Reference price $0.01 each; the machine-readable description
 * lists $0.02.
 */
const PRICE = 0.01
const PRICE_NOTE = ' Reference price $0.01; the machine-readable description lists $0.02.'

/** What a builder returns: the envelope of `builderOutput` around its own action schema. */
export type BuilderResult<A extends z.ZodRawShape> = z.input<ReturnType<typeof builderOutput<A>>>

/**
 * A builder's logic: the parsed body (typed by the body schema) in, the checked envelope out. Keep it one
 * line calling a builders/ function declared to return `BuilderResult<typeof action>`: an inline object
 * literal here loses its literal types (`action.type`) to inference and fails the check.
 */
export type BuilderHandler<B extends z.ZodObject, A extends z.ZodRawShape> = (
  body: z.output<B>,
  ctx: HandlerContext,
) => Promise<BuilderResult<A>>

interface BuilderMeta<B extends z.ZodObject, A extends z.ZodRawShape> {
  id: string
  path: string
  summary: string
  description: string
  body: B
  action: A
}

/** A builder with its logic, or one whose capability a later change builds (501, nothing charged). */
export type BuilderSpec<B extends z.ZodObject, A extends z.ZodRawShape> = BuilderMeta<B, A> &
  // NoInfer: B and A come from `body` and `action` only; the handler is checked against them.
  ({ handler: BuilderHandler<NoInfer<B>, NoInfer<A>> } | { capability: string })

/**
 * One builder route: POST, the builder price and tier, `body` validated strictly, the output the
 * `builderOutput` envelope around `action`. The body schema's type flows to the handler, and the
 * handler's result is type-checked against the route's output schema.
 */
export function builder<B extends z.ZodObject, A extends z.ZodRawShape>(spec: BuilderSpec<B, A>): Route {
  const handler = 'handler' in spec ? spec.handler : notImplemented(spec.capability)
  return defineRoute({
    id: spec.id,
    method: 'POST',
    path: spec.path,
    priceUsd: PRICE,
    tier: 'builder',
    summary: spec.summary,
    description: spec.description + PRICE_NOTE,
    input: { body: spec.body },
    output: builderOutput(spec.action),
    handler: ({ body }, ctx) => handler(body, ctx),
  })
}

const owner = address.describe('The wallet that signs and broadcasts the steps')
const positiveInt = z.number().int().min(0)
const leverage = z.number().min(1.1).describe('Human leverage, >= 1.1, capped by the pair maximum')
const price = nonNegative.describe('Human price (the service scales to 1e10)')
const uniFee = z.union([z.literal(100), z.literal(500), z.literal(3000), z.literal(10000)])
const TICK_MAX = 887272
const tick = z.number().int().min(-TICK_MAX).max(TICK_MAX)

export const swapBuilder = builder({
  id: 'buildSwap',
  path: '/v1/tx/swap',
  summary: 'Swap calldata from the aggregator quote',
  description:
    'The unsigned swap transaction and the signing payload as quoted by the swap aggregation service, for `fromAmount` of `fromToken` into `toToken`; slippageBps 0..5000.',
  body: z.strictObject({
    fromToken: tokenOrNative,
    toToken: tokenOrNative,
    fromAmount: positiveAtomicAmount,
    taker: address,
    signerAddress: address.optional().describe('Smart-wallet flows: the EOA that signs'),
    slippageBps: slippageBpsBody(5000),
  }),
  action: { type: z.literal('swap'), expectedOut: atomicAmount, minOut: atomicAmount },
  capability: 'swap builder (aggregator adapter)',
})

const vaultBody = z.strictObject({ vault: address, assets: positiveAtomicAmount, owner })

export const earnDepositBuilder = builder({
  id: 'buildEarnDeposit',
  path: '/v1/tx/earn/deposit',
  summary: 'Deposit into an ERC-4626 vault',
  description:
    'Deposit `assets` into `vault`; `owner` is depositor and receiver. Approve prepended if short.',
  body: vaultBody,
  action: {
    type: z.literal('vaultDeposit'),
    vault: address,
    assets: atomicAmount,
    expectedShares: atomicAmount,
  },
  capability: 'vault builders',
})

export const earnWithdrawBuilder = builder({
  id: 'buildEarnWithdraw',
  path: '/v1/tx/earn/withdraw',
  summary: 'Withdraw from an ERC-4626 vault',
  description: 'Withdraw `assets` from `vault`; `owner` is owner and receiver.',
  body: vaultBody,
  action: { type: z.literal('vaultWithdraw'), vault: address, assets: atomicAmount },
  capability: 'vault builders',
})

export const aaveSupplyBuilder = builder({
  id: 'buildAaveSupply',
  path: '/v1/tx/earn/aave/supply',
  summary: 'Supply to the pool lender',
  description: 'Pool.supply(asset, amount, onBehalfOf = owner, referralCode 0). Approve prepended if short.',
  body: z.strictObject({ asset: address, amount: positiveAtomicAmount, owner }),
  action: { type: z.literal('aaveSupply'), asset: address, amount: atomicAmount },
  capability: 'pool-lender builders',
})

export const aaveWithdrawBuilder = builder({
  id: 'buildAaveWithdraw',
  path: '/v1/tx/earn/aave/withdraw',
  summary: 'Withdraw from the pool lender',
  description:
    'Pool.withdraw(asset, amount, to = owner). `amount` is atomic, or "max" for the whole receipt-token balance.',
  body: z.strictObject({
    asset: address,
    amount: z.union([z.literal('max'), positiveAtomicAmount], {
      error: 'must be a positive atomic amount (digits, no leading zeros) or the literal "max".',
    }),
    owner,
  }),
  action: { type: z.literal('aaveWithdraw'), asset: address, amount: z.string() },
  capability: 'pool-lender builders',
})

const loanBody = z.strictObject({ marketId, assets: positiveAtomicAmount, owner })
const loanAction = (type: string) => ({ type: z.literal(type), marketId, assets: atomicAmount })

export const loanSupplyCollateralBuilder = builder({
  id: 'buildLoanSupplyCollateral',
  path: '/v1/tx/loan/supply-collateral',
  summary: 'Supply collateral to an isolated market',
  description:
    'Market params are fetched live and the id re-derived; collateral approve prepended when needed. `assets` is atomic collateral.',
  body: loanBody,
  action: loanAction('supplyCollateral'),
  capability: 'isolated-market builders',
})

export const loanBorrowBuilder = builder({
  id: 'buildLoanBorrow',
  path: '/v1/tx/loan/borrow',
  summary: 'Borrow from an isolated market',
  description: 'Borrow `assets` (atomic loan asset) to `owner`. The chain enforces health.',
  body: loanBody,
  action: loanAction('borrow'),
  capability: 'isolated-market builders',
})

export const loanRepayBuilder = builder({
  id: 'buildLoanRepay',
  path: '/v1/tx/loan/repay',
  summary: 'Repay an isolated-market loan',
  description: 'Repay `assets` (atomic loan asset) for `owner`; loan-asset approve prepended when needed.',
  body: loanBody,
  action: loanAction('repay'),
  capability: 'isolated-market builders',
})

export const loanWithdrawCollateralBuilder = builder({
  id: 'buildLoanWithdrawCollateral',
  path: '/v1/tx/loan/withdraw-collateral',
  summary: 'Withdraw collateral from an isolated market',
  description: 'Withdraw `assets` (atomic collateral) to `owner`; the chain enforces health.',
  body: loanBody,
  action: loanAction('withdrawCollateral'),
  capability: 'isolated-market builders',
})

const tradeType = z
  .union([z.literal(0), z.literal(1), z.literal(2)], { error: 'must be 0 (MARKET), 1 (LIMIT) or 2 (STOP).' })
  .default(0)

export const riskOpenBuilder = builder({
  id: 'buildRiskOpen',
  path: '/v1/tx/risk/open',
  summary: 'Open a leveraged trade on the perp venue',
  description:
    'Human-scale inputs; the service applies venue scaling (leverage x1e3, prices x1e10, USDC 6 dp, slippage x1e3). tradeType 0 MARKET, 1 LIMIT, 2 STOP (triggerPrice required for 1 and 2). Set tp and sl at open. USDC approve prepended when needed.',
  body: z
    .strictObject({
      pairIndex: positiveInt,
      long: z.boolean(),
      leverage,
      collateralUsdc: positive.describe('Human USDC, above 0'),
      markPrice: price,
      owner,
      tradeType,
      triggerPrice: price.optional(),
      tp: price.optional(),
      sl: price.optional(),
      slippagePct: z.number().min(0).max(100).default(1).describe('Max slippage in percent, default 1'),
    })
    .refine((b) => b.tradeType === 0 || b.triggerPrice !== undefined, {
      error: 'is required for LIMIT (1) and STOP (2) orders.',
      path: ['triggerPrice'],
    }),
  action: {
    type: z.literal('riskOpen'),
    pairIndex: z.number().int(),
    long: z.boolean(),
    leverage: z.number(),
  },
  capability: 'perp builders',
})

export const riskCloseBuilder = builder({
  id: 'buildRiskClose',
  path: '/v1/tx/risk/close',
  summary: 'Market-close an open leveraged trade',
  description:
    '`index` is the wallet’s open-trade index; `expectedPrice` guards the fill. `owner` is optional: when given, the trade is checked to exist before calldata is returned.',
  body: z.strictObject({ index: positiveInt, expectedPrice: price, owner: owner.optional() }),
  action: { type: z.literal('riskClose'), index: z.number().int() },
  capability: 'perp builders',
})

export const riskModifyBuilder = builder({
  id: 'buildRiskModify',
  path: '/v1/tx/risk/modify',
  summary: 'Modify an open trade: leverage, size, TP or SL',
  description:
    'Pass at least one of `leverage` (new leverage; a decrease tops up collateral, with the USDC approve prepended), `sizeDeltaUsdc` (positive increases the position by that collateral, negative decreases it), `tp`, `sl` (0 removes). `expectedPrice` guards size changes.',
  body: z
    .strictObject({
      index: positiveInt,
      owner,
      leverage: leverage.optional(),
      sizeDeltaUsdc: z
        .number()
        .refine((v) => v !== 0, { error: 'must not be 0: positive increases, negative decreases.' })
        .optional()
        .describe('Collateral delta in human USDC, + increase / - decrease, never 0'),
      tp: price.optional(),
      sl: price.optional(),
      expectedPrice: price.optional(),
      slippagePct: z.number().min(0).max(100).default(1),
    })
    .refine((b) => [b.leverage, b.sizeDeltaUsdc, b.tp, b.sl].some((v) => v !== undefined), {
      error: 'is required: pass at least one of leverage, sizeDeltaUsdc, tp, sl.',
      path: ['leverage'],
    })
    .refine((b) => b.sizeDeltaUsdc === undefined || b.expectedPrice !== undefined, {
      error: 'is required when sizeDeltaUsdc is set.',
      path: ['expectedPrice'],
    }),
  action: { type: z.literal('riskModify'), index: z.number().int(), changes: z.array(z.string()) },
  capability: 'perp builders',
})

export const riskCancelBuilder = builder({
  id: 'buildRiskCancel',
  path: '/v1/tx/risk/cancel',
  summary: 'Cancel a resting limit or stop order',
  description:
    'Cancels the resting order `index` of `owner` (see /v1/pending-orders/{address}); collateral returns.',
  body: z.strictObject({ index: positiveInt, owner }),
  action: { type: z.literal('riskCancel'), index: z.number().int() },
  capability: 'perp builders',
})

export const stocksBuilder = defineRoute({
  id: 'buildStockOrder',
  method: 'POST',
  path: '/v1/tx/stocks',
  priceUsd: PRICE,
  tier: 'builder',
  summary: 'Buy or sell a tokenized stock',
  description:
    'amount is human-scale: USDC to spend on a buy, shares on a sell. Steps: approve (only when short; on a sell the approve is on the stock token) then the pool swap, whose recipient is taker. The calldata already carries the ERC-8021 builder code; do not re-encode it. 409 for a ticker that is not minted. Reference price $0.01; the stock reference lists $0.001.',
  input: {
    body: z.strictObject({
      sym: symbol,
      side,
      amount: humanAmount,
      taker: address,
      slippageBps: slippageBpsBody(5000),
    }),
  },
  output: z.object({
    network: z.literal('eip155:8453'),
    steps: z.array(txStep).min(1),
    advisory: z.object({
      amountOut: atomicAmount,
      amountOutMin: atomicAmount,
      pricePerShare: z.number(),
      feedUsd: z.number(),
      feedUpdatedAt: z.number().int(),
      vsFeedPct: z.number(),
      multiplier: z.number(),
      pool: z.object({ fee: z.number().int(), usdc: z.number(), shares: z.number() }),
    }),
  }),
  handler: notImplemented('stock builders'),
})

export const burnBuilder = builder({
  id: 'buildBurn',
  path: '/v1/tx/burn',
  summary: 'Burn UTIL (transfer to the dead address)',
  description:
    'One step: UTIL.transfer(0x…dEaD, amount). Supply only ever decreases this way. Pass the mined hash as burnTxHash to the prop desk.',
  body: z.strictObject({
    amount: positiveAtomicAmount.describe('Atomic UTIL (18 decimals), above 0'),
    owner,
  }),
  action: { type: z.literal('burn'), amount: atomicAmount },
  capability: 'burn builder',
})

const aeroPair = { tokenA: address, tokenB: address }

export const aeroAddBuilder = builder({
  id: 'buildAeroAdd',
  path: '/v1/tx/lp/aero/add',
  summary: 'Add liquidity to a volatile Aerodrome pair',
  description:
    'Router.addLiquidity(tokenA, tokenB, stable = false, amountADesired, amountBDesired, mins, to = owner, deadline). Approves for both sides prepended when short; mins follow slippageBps.',
  body: z.strictObject({
    ...aeroPair,
    amountA: positiveAtomicAmount,
    amountB: positiveAtomicAmount,
    owner,
    slippageBps: slippageBpsBody(5000),
    deadlineSec: z
      .number()
      .int()
      .min(30)
      .max(86_400)
      .default(1200)
      .describe('Seconds from now, default 1200'),
  }),
  action: { type: z.literal('aeroAdd'), pool: address, expectedLiquidity: atomicAmount },
  capability: 'liquidity builders',
})

export const aeroRemoveBuilder = builder({
  id: 'buildAeroRemove',
  path: '/v1/tx/lp/aero/remove',
  summary: 'Remove liquidity from a volatile Aerodrome pair',
  description: 'Router.removeLiquidity for `liquidity` LP tokens to owner; LP approve prepended when short.',
  body: z.strictObject({
    ...aeroPair,
    liquidity: positiveAtomicAmount,
    owner,
    slippageBps: slippageBpsBody(5000),
    deadlineSec: z.number().int().min(30).max(86_400).default(1200),
  }),
  action: {
    type: z.literal('aeroRemove'),
    pool: address,
    amountAMin: atomicAmount,
    amountBMin: atomicAmount,
  },
  capability: 'liquidity builders',
})

export const uniAddBuilder = builder({
  id: 'buildUniAdd',
  path: '/v1/tx/lp/uni/add',
  summary: 'Mint a concentrated-liquidity position (full range by default)',
  description:
    'NonfungiblePositionManager.mint for tokenA/tokenB at `fee`. Full range unless tickLower and tickUpper are both given (keep unattended positions full range). Approves for both sides prepended when short.',
  body: z
    .strictObject({
      ...aeroPair,
      fee: uniFee.describe('Pool fee tier: 100, 500, 3000 or 10000'),
      amountA: atomicAmount.describe('Atomic tokenA; 0 only with a tick range that takes tokenB alone'),
      amountB: atomicAmount.describe('Atomic tokenB; 0 only with a tick range that takes tokenA alone'),
      owner,
      tickLower: tick.optional(),
      tickUpper: tick.optional(),
      slippageBps: slippageBpsBody(5000),
    })
    .refine((b) => (b.tickLower === undefined) === (b.tickUpper === undefined), {
      error: 'must be given together with tickUpper (or neither, for full range).',
      path: ['tickLower'],
    })
    .refine((b) => b.tickLower === undefined || b.tickUpper === undefined || b.tickLower < b.tickUpper, {
      error: 'must be below tickUpper.',
      path: ['tickLower'],
    })
    // A full-range position takes both tokens; only a range entirely off the price takes one side alone.
    .refine((b) => b.amountA !== '0' || (b.tickLower !== undefined && b.amountB !== '0'), {
      error: 'must be positive: 0 is allowed only with tickLower/tickUpper, and never on both sides.',
      path: ['amountA'],
    })
    .refine((b) => b.amountB !== '0' || (b.tickLower !== undefined && b.amountA !== '0'), {
      error: 'must be positive: 0 is allowed only with tickLower/tickUpper, and never on both sides.',
      path: ['amountB'],
    }),
  action: {
    type: z.literal('uniAdd'),
    pool: address,
    tickLower: z.number().int(),
    tickUpper: z.number().int(),
  },
  capability: 'liquidity builders',
})

export const uniRemoveBuilder = builder({
  id: 'buildUniRemove',
  path: '/v1/tx/lp/uni/remove',
  summary: 'Decrease a position’s liquidity and collect (0 claims fees only)',
  description:
    'decreaseLiquidity(tokenId, liquidity) then collect to owner, in one multicall. `liquidity` 0 claims the fees without closing the position.',
  body: z.strictObject({
    tokenId: nftTokenId,
    liquidity: atomicAmount.describe('uint128 liquidity to remove; "0" collects fees only'),
    owner,
    slippageBps: slippageBpsBody(5000),
  }),
  action: { type: z.literal('uniRemove'), tokenId: nftTokenId, liquidity: atomicAmount },
  capability: 'liquidity builders',
})

export const uniCollectBuilder = builder({
  id: 'buildUniCollect',
  path: '/v1/tx/lp/uni/collect',
  summary: 'Collect a position’s accrued fees',
  description: 'NonfungiblePositionManager.collect(tokenId, recipient = owner, max, max).',
  body: z.strictObject({ tokenId: nftTokenId, owner }),
  action: { type: z.literal('uniCollect'), tokenId: nftTokenId },
  capability: 'liquidity builders',
})

const fixedBody = z.strictObject({ marketId, assets: positiveAtomicAmount, owner })

export const fixedLendBuilder = builder({
  id: 'buildFixedLend',
  path: '/v1/tx/fixed/lend',
  summary: 'Lend at a fixed rate (take the ask book)',
  description:
    'Lends `assets` of the loan token until maturity by taking resting borrow offers, refusing to fill below a slippage-guarded worst rate. Approve prepended when short.',
  body: z.strictObject({ marketId, assets: positiveAtomicAmount, owner, slippageBps: slippageBpsBody(5000) }),
  action: { type: z.literal('fixedLend'), marketId, assets: atomicAmount, worstApr: z.number() },
  capability: 'fixed-rate builders',
})

export const fixedBorrowBuilder = builder({
  id: 'buildFixedBorrow',
  path: '/v1/tx/fixed/borrow',
  summary: 'Borrow at a fixed rate (walk the bid book)',
  description:
    'Walks the live bid book for `assets` and refuses to fill beyond a slippage-guarded worst price. Collateral must be supplied first (POST /v1/tx/fixed/supply-collateral).',
  body: z.strictObject({ marketId, assets: positiveAtomicAmount, owner, slippageBps: slippageBpsBody(5000) }),
  action: { type: z.literal('fixedBorrow'), marketId, assets: atomicAmount, worstApr: z.number() },
  capability: 'fixed-rate builders',
})

export const fixedRepayBuilder = builder({
  id: 'buildFixedRepay',
  path: '/v1/tx/fixed/repay',
  summary: 'Repay a fixed-rate loan',
  description: 'Repays `assets` of owner’s debt in the market; loan-token approve prepended when short.',
  body: fixedBody,
  action: { type: z.literal('fixedRepay'), marketId, assets: atomicAmount },
  capability: 'fixed-rate builders',
})

const fixedCollateralBody = z.strictObject({
  marketId,
  collateralToken: address,
  assets: positiveAtomicAmount,
  owner,
})

export const fixedSupplyCollateralBuilder = builder({
  id: 'buildFixedSupplyCollateral',
  path: '/v1/tx/fixed/supply-collateral',
  summary: 'Supply collateral to a fixed-rate market',
  description: 'Supplies `assets` of `collateralToken` for owner; approve prepended when short.',
  body: fixedCollateralBody,
  action: {
    type: z.literal('fixedSupplyCollateral'),
    marketId,
    collateralToken: address,
    assets: atomicAmount,
  },
  capability: 'fixed-rate builders',
})

export const fixedWithdrawCollateralBuilder = builder({
  id: 'buildFixedWithdrawCollateral',
  path: '/v1/tx/fixed/withdraw-collateral',
  summary: 'Withdraw collateral from a fixed-rate market',
  description: 'Withdraws `assets` of `collateralToken` to owner; the chain enforces health.',
  body: fixedCollateralBody,
  action: {
    type: z.literal('fixedWithdrawCollateral'),
    marketId,
    collateralToken: address,
    assets: atomicAmount,
  },
  capability: 'fixed-rate builders',
})

export const builderRoutes = [
  swapBuilder,
  earnDepositBuilder,
  earnWithdrawBuilder,
  aaveSupplyBuilder,
  aaveWithdrawBuilder,
  loanSupplyCollateralBuilder,
  loanBorrowBuilder,
  loanRepayBuilder,
  loanWithdrawCollateralBuilder,
  riskOpenBuilder,
  riskCloseBuilder,
  stocksBuilder,
  burnBuilder,
  aeroAddBuilder,
  aeroRemoveBuilder,
  uniAddBuilder,
  uniRemoveBuilder,
  uniCollectBuilder,
  fixedLendBuilder,
  fixedBorrowBuilder,
  fixedRepayBuilder,
  fixedSupplyCollateralBuilder,
  fixedWithdrawCollateralBuilder,
  riskModifyBuilder,
  riskCancelBuilder,
]
