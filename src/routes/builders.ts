import { z } from 'zod'
import { buildAaveSupply } from '../builders/aaveSupply.js'
import { buildAaveWithdraw } from '../builders/aaveWithdraw.js'
import { buildBurn } from '../builders/burn.js'
import { buildLoanBorrow } from '../builders/loanBorrow.js'
import { buildLoanRepay } from '../builders/loanRepay.js'
import { buildLoanSupplyCollateral } from '../builders/loanSupplyCollateral.js'
import { buildLoanWithdrawCollateral } from '../builders/loanWithdrawCollateral.js'
import { buildStockOrder, MAX_FEED_DEVIATION_PCT } from '../builders/stockOrder.js'
import { buildSwap } from '../builders/swap.js'
import { buildVaultDeposit } from '../builders/vaultDeposit.js'
import { buildVaultWithdraw } from '../builders/vaultWithdraw.js'
import { STOCK_TICKERS } from '../chain/tokenizedStocks.js'
import { type ExampleSteps, exampleBuild } from './builderExample.js'
import { builderOutput } from './builderOutput.js'
import {
  address,
  atomicAmount,
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
  wallet,
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

type NoExtra = Record<never, never>
/** The example's extra fields: nothing when the builder has none. */
type ExtraInput<E extends z.ZodRawShape> = keyof E extends never ? unknown : z.input<z.ZodObject<E>>

/** What a builder returns: the envelope of `builderOutput` around its own action schema (and extra fields). */
export type BuilderResult<A extends z.ZodRawShape, E extends z.ZodRawShape = NoExtra> = z.input<
  ReturnType<typeof builderOutput<A, E>>
>

/**
 * A builder's logic: the parsed body (typed by the body schema) in, the checked envelope out. Keep it one
 * line calling a builders/ function declared to return `BuilderResult<typeof action>`: an inline object
 * literal here loses its literal types (`action.type`) to inference and fails the check.
 */
export type BuilderHandler<
  B extends z.ZodObject,
  A extends z.ZodRawShape,
  E extends z.ZodRawShape = NoExtra,
> = (body: z.output<B>, ctx: HandlerContext) => Promise<BuilderResult<A, E>>

interface BuilderMeta<B extends z.ZodObject, A extends z.ZodRawShape, E extends z.ZodRawShape> {
  id: string
  path: string
  summary: string
  description: string
  body: B
  action: A
  /** Top-level fields beside the envelope's (the stock order's `advisory`). */
  extra?: E
  /**
   * A real body and the steps it gets; `builder()` fills in the rest of the envelope the way the engine
   * does (suffix, issues, simulation, EIP-5792 form), see `exampleBuild`.
   */
  example: {
    body: z.input<NoInfer<B>>
    output: ExampleSteps<z.input<z.ZodObject<NoInfer<A>>>> & ExtraInput<NoInfer<E>>
  }
}

/** A builder with its logic, or one whose capability a later change builds (501, nothing charged). */
export type BuilderSpec<
  B extends z.ZodObject,
  A extends z.ZodRawShape,
  E extends z.ZodRawShape = NoExtra,
> = BuilderMeta<B, A, E> &
  // NoInfer: B and A come from `body` and `action` only; the handler is checked against them.
  ({ handler: BuilderHandler<NoInfer<B>, NoInfer<A>, NoInfer<E>> } | { capability: string })

/** The wallet an example body builds for (`owner`, or `taker` for swaps and stock orders). */
function exampleOwner(body: unknown): `0x${string}` {
  const b = body as { owner?: `0x${string}`; taker?: `0x${string}` }
  return b.owner ?? b.taker ?? '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
}

/**
 * One builder route: POST, the builder price and tier, `body` validated strictly, the output the
 * `builderOutput` envelope around `action`. The body schema's type flows to the handler, and the
 * handler's result is type-checked against the route's output schema.
 */
export function builder<B extends z.ZodObject, A extends z.ZodRawShape, E extends z.ZodRawShape = NoExtra>(
  spec: BuilderSpec<B, A, E>,
): Route {
  const handler = 'handler' in spec ? spec.handler : notImplemented(spec.capability)
  const { network, steps, action, ...extra } = spec.example.output
  return defineRoute({
    id: spec.id,
    method: 'POST',
    path: spec.path,
    priceUsd: PRICE,
    tier: 'builder',
    summary: spec.summary,
    description: spec.description + PRICE_NOTE,
    input: { body: spec.body },
    output: builderOutput(spec.action, spec.extra),
    example: {
      body: spec.example.body,
      // The spread of a generic `E` is beyond TypeScript's inference; the example test parses the result.
      output: {
        ...exampleBuild(exampleOwner(spec.example.body), { network, steps, action }),
        ...extra,
      } as BuilderResult<A, E>,
    },
    handler: ({ body }, ctx) => handler(body, ctx),
  })
}

const owner = wallet.describe('The wallet that signs and broadcasts the steps')
const positiveInt = z.number().int().min(0)
const leverage = z.number().min(1.1).describe('Human leverage, >= 1.1, capped by the pair maximum')
const price = nonNegative.describe('Human price (the service scales to 1e10)')
const uniFee = z.union([z.literal(100), z.literal(500), z.literal(3000), z.literal(10000)])
const TICK_MAX = 887272
const tick = z.number().int().min(-TICK_MAX).max(TICK_MAX)

export const swapBuilder = builder({
  id: 'buildSwap',
  path: '/v1/tx/swap',
  summary: 'Swap calldata: the 0x quote, or the best Uniswap v3 / Aerodrome pool',
  description:
    'Ordered unsigned steps that swap `fromAmount` (atomic) of `fromToken` into `toToken` for `taker`, who holds fromToken, sends the steps and receives toToken. Both tokens must be in the network’s address book (USDC, WETH, cbBTC, the catalog’s vault and Aave tokens, the tokenized stocks, UTIL); anything else is 422 `unlisted_target` naming the field. Native ETH is the sentinel 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE on either side. ' +
    'Source (`action.quotedBy`): `0x` when the service has a 0x API key: the 0x Swap API v2 allowance-holder `quote` for taker (slippageBps passed on); an exact approve of fromToken to 0x AllowanceHolder (the quote’s `issues.allowance.spender`; any other spender, a transaction to anything but AllowanceHolder, ETH attached other than the ETH sold, or a minBuyAmount looser than slippageBps is refused as 502), then the quote’s transaction exactly as quoted (to, data, value); expectedOut = its buyAmount, minOut = its minBuyAmount (enforced by 0x’s Settler), route = its fills, zid = its id. ' +
    '`onchain` otherwise: one multicall reads the taker’s balance and allowances and every venue’s quote (Uniswap v3 QuoterV2 over the 0.01/0.05/0.3/1 % tiers; the Aerodrome router’s volatile and stable pools, for ERC-20 pairs only), the best output wins (route: that one pool, `source` Uniswap_V3, Aerodrome_V2 or WETH, from/to as in the body), minOut = floor(expectedOut × (10000 − slippageBps) / 10000); Uniswap: SwapRouter02 `multicall(deadline, [exactInputSingle])` (ETH in as value; ETH out swapped to the router then `unwrapWETH9(minOut, taker)`); Aerodrome: `swapExactTokensForTokens`; router deadlines = `expiresAt`; ETH ⇄ WETH is WETH9 `deposit`/`withdraw`. An approve step (exact, to the router that pulls) is prepended only when the live allowance is short. ' +
    '`signerAddress` (smart wallets): passed to 0x as `txOrigin` (the externally owned account that starts the transaction when taker is a contract); taker stays the payer and recipient; the onchain path does not use it. The allowance-holder flow needs no signature, so `action.signingPayload` is always null (0x’s Permit2 flow, which needs one, is not used). ' +
    'Errors: 400 naming the field (unknown property, fromAmount 0, slippageBps outside 0..5000, toToken = fromToken); 422 `insufficient_balance` (fromAmount), `unlisted_target` or `not_a_token` (the token field); 409 `no_liquidity`; 422 `simulation_reverted` with the failing step and decoded reason (e.g. a minimum the pool can no longer meet); 502 when 0x or the RPC fails or 0x quotes something refused, and when the bundle, simulated from taker, takes more than fromAmount or pays taker less than minOut (a quote that pays someone else). taker and signerAddress may not be the zero address (400). None is charged.',
  body: z.strictObject({
    fromToken: tokenOrNative,
    toToken: tokenOrNative,
    fromAmount: positiveAtomicAmount,
    taker: wallet.describe('Pays fromToken, sends the steps, receives toToken'),
    signerAddress: wallet.optional().describe('Smart wallets: the EOA that signs (0x txOrigin)'),
    slippageBps: slippageBpsBody(5000),
  }),
  action: {
    type: z.literal('swap'),
    quotedBy: z.enum(['0x', 'onchain']),
    expectedOut: atomicAmount,
    minOut: atomicAmount.describe('The swap reverts below it'),
    route: z.array(
      z.object({ source: z.string(), from: address, to: address, proportionBps: z.number().int() }),
    ),
    zid: z.string().nullable(),
    signingPayload: z.null(),
  },
  // The smallest real build (a wrap): a pool swap's calldata would push the 402 challenge, which clients
  // echo in a request header, past header limits. The description covers the swap paths.
  example: {
    body: {
      fromToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      toToken: '0x4200000000000000000000000000000000000006',
      fromAmount: '250000000000000000',
      taker: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 50,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x4200000000000000000000000000000000000006',
          data: '0xd0e30db0',
          value: '250000000000000000',
          description: 'Wrap 0.25 ETH into WETH',
        },
      ],
      action: {
        type: 'swap',
        quotedBy: 'onchain',
        expectedOut: '250000000000000000',
        minOut: '248750000000000000',
        route: [
          {
            source: 'WETH',
            from: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
            to: '0x4200000000000000000000000000000000000006',
            proportionBps: 10000,
          },
        ],
        zid: null,
        signingPayload: null,
      },
    },
  },
  handler: (body, ctx) => buildSwap(ctx.deps.builders, ctx.deps.market.zeroEx, body),
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
  example: {
    body: {
      vault: '0xde7e000000000000000000000000000000000030',
      assets: '1000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b3000000000000000000000000de7e000000000000000000000000000000000030000000000000000000000000000000000000000000000000000000003b9aca00',
          value: '0',
          description: 'Approve 1000 USDC to agentdesk devnet USDC vault',
        },
        {
          to: '0xdE7e000000000000000000000000000000000030',
          data: '0x6e553f65000000000000000000000000000000000000000000000000000000003b9aca0000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8',
          value: '0',
          description: 'Deposit 1000 USDC into agentdesk devnet USDC vault',
        },
      ],
      action: {
        type: 'vaultDeposit',
        vault: '0xdE7e000000000000000000000000000000000030',
        assets: '1000000000',
        expectedShares: '1000000000000000000000',
      },
    },
  },
  handler: (body, ctx) => buildVaultDeposit(ctx.deps.builders, ctx.deps.lending, body),
})

export const earnWithdrawBuilder = builder({
  id: 'buildEarnWithdraw',
  path: '/v1/tx/earn/withdraw',
  summary: 'Withdraw from an ERC-4626 vault',
  description: 'Withdraw `assets` from `vault`; `owner` is owner and receiver.',
  body: vaultBody,
  action: { type: z.literal('vaultWithdraw'), vault: address, assets: atomicAmount },
  example: {
    body: {
      vault: '0xde7e000000000000000000000000000000000030',
      assets: '500000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xdE7e000000000000000000000000000000000030',
          data: '0xb460af94000000000000000000000000000000000000000000000000000000001dcd650000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8',
          value: '0',
          description: 'Withdraw 500 USDC from agentdesk devnet USDC vault',
        },
      ],
      action: {
        type: 'vaultWithdraw',
        vault: '0xdE7e000000000000000000000000000000000030',
        assets: '500000000',
      },
    },
  },
  handler: (body, ctx) => buildVaultWithdraw(ctx.deps.builders, ctx.deps.lending, body),
})

export const aaveSupplyBuilder = builder({
  id: 'buildAaveSupply',
  path: '/v1/tx/earn/aave/supply',
  summary: 'Supply to the pool lender',
  description:
    'Aave v3 Pool.supply(asset, amount, onBehalfOf = owner, referralCode 0); an exact approve of `amount` to the Pool is prepended when the allowance is short. `asset` must be one of the Aave reserves GET /v1/earn/vaults lists (else 422 unlisted_target); holding less than `amount` is 422 insufficient_balance. The simulation reports the asset and the aToken.',
  body: z.strictObject({
    asset: address.describe('Underlying token of a listed Aave reserve (USDC, WETH, cbBTC)'),
    amount: positiveAtomicAmount.describe('Atomic amount of `asset` to supply'),
    owner,
  }),
  action: {
    type: z.literal('aaveSupply'),
    asset: address,
    amount: atomicAmount.describe('Atomic amount supplied, as requested'),
    aToken: address.describe('The reserve’s aToken (receipt token) minted to the owner'),
    expectedATokenBalanceAfter: atomicAmount.describe(
      'Owner’s aToken balance at the quote + `amount`: Aave’s scaled balances round the mint by up to 1 wei, and interest accrues until inclusion',
    ),
  },
  example: {
    body: {
      asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      amount: '1000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b3000000000000000000000000a238dd80c259a72e81d7e4664a9801593f98d1c5000000000000000000000000000000000000000000000000000000003b9aca00',
          value: '0',
          description: 'Approve 1000 USDC to the Aave v3 Pool',
        },
        {
          to: '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5',
          data: '0x617ba037000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913000000000000000000000000000000000000000000000000000000003b9aca0000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Supply 1000 USDC to Aave v3 (receipt: Aave Base USDC)',
        },
      ],
      action: {
        type: 'aaveSupply',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amount: '1000000000',
        aToken: '0x4e65fE4DbA92790696d040ac24Aa414708F5c0AB',
        expectedATokenBalanceAfter: '1000000000',
      },
    },
  },
  handler: (body, ctx) => buildAaveSupply(ctx.deps.builders, ctx.deps.lending, body),
})

export const aaveWithdrawBuilder = builder({
  id: 'buildAaveWithdraw',
  path: '/v1/tx/earn/aave/withdraw',
  summary: 'Withdraw from the pool lender',
  description:
    'Aave v3 Pool.withdraw(asset, amount, to = owner). `amount` is atomic, or "max" (encoded as type(uint256).max) for the whole aToken balance at inclusion, interest included, leaving no dust. `asset` must be a listed Aave reserve (else 422 unlisted_target); an amount above the owner’s aToken balance is 422 insufficient_balance (details.issues.balance names the aToken and the balance), "max" of nothing is 422 nothing_to_withdraw. A withdraw that would leave an Aave borrower’s health below 1 fails the simulation (422 simulation_reverted, the Aave error named). The simulation reports the asset and the aToken.',
  body: z.strictObject({
    asset: address.describe('Underlying token of a listed Aave reserve (USDC, WETH, cbBTC)'),
    amount: z.union([z.literal('max'), positiveAtomicAmount], {
      error: 'must be a positive atomic amount (digits, no leading zeros) or the literal "max".',
    }),
    owner,
  }),
  action: {
    type: z.literal('aaveWithdraw'),
    asset: address,
    amount: z.string().describe('As requested: atomic digits, or "max"'),
    aToken: address.describe('The reserve’s aToken (receipt token) burned from the owner'),
    expectedAmount: atomicAmount.describe(
      'Atomic `asset` the owner receives: `amount`, or for "max" the aToken balance at the quote (plus the interest accrued until inclusion)',
    ),
    expectedATokenBalanceAfter: atomicAmount.describe(
      'Owner’s aToken balance at the quote − expectedAmount ("0" for "max"); interest accrues on the rest until inclusion',
    ),
  },
  example: {
    // An owner with USDC supplied to Aave on the devnet (its deployer), so the example is served there.
    body: {
      asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      amount: '500000000',
      owner: '0xbcd4042de499d14e55001ccbb24a551f3b954096',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5',
          data: '0x69328dec000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913000000000000000000000000000000000000000000000000000000001dcd6500000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b954096',
          value: '0',
          description: 'Withdraw 500 USDC from Aave v3',
        },
      ],
      action: {
        type: 'aaveWithdraw',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amount: '500000000',
        aToken: '0x4e65fE4DbA92790696d040ac24Aa414708F5c0AB',
        expectedAmount: '500000000',
        expectedATokenBalanceAfter: '19999612345678',
      },
    },
  },
  handler: (body, ctx) => buildAaveWithdraw(ctx.deps.builders, ctx.deps.lending, body),
})

const loanBody = z.strictObject({
  marketId: marketId.describe(
    'Morpho Blue market id (0x + 64 hex): its params are read from the chain and the id re-derived from them',
  ),
  assets: positiveAtomicAmount,
  owner,
})

/** The market id and amount every loan action echoes, and the owner's position after the bundle. */
const loanActionFields = {
  marketId: marketId.describe('The market, lowercase'),
  assets: atomicAmount.describe('As asked'),
  loanToken: address.describe('The market’s loan token'),
  collateralToken: address.describe('The market’s collateral token'),
  accruedTo: z
    .number()
    .int()
    .describe('Unix seconds (the latest block’s timestamp) the debt figures include interest up to'),
  oraclePrice: atomicAmount
    .nullable()
    .describe(
      'The market oracle’s price: loan-token units per collateral unit × 1e36 (decimals included); null when the oracle does not answer (supply only)',
    ),
  collateralAfter: atomicAmount.describe('The owner’s collateral after the bundle (atomic collateral token)'),
  borrowSharesAfter: atomicAmount.describe('The owner’s borrow shares after the bundle, at the quote'),
  debtAfter: atomicAmount.describe(
    'The debt after the bundle (atomic loan token): borrow shares to assets, rounded up, with interest accrued to `accruedTo`',
  ),
  maxBorrowAfter: atomicAmount
    .nullable()
    .describe(
      'collateralAfter × oraclePrice / 1e36 × LLTV: the most the position may owe before Morpho refuses it (atomic loan token); null without a price',
    ),
  healthAfter: z
    .number()
    .nullable()
    .describe(
      'maxBorrowAfter / debtAfter; liquidatable at or below 1; null without debt (or without a price)',
    ),
}

const LOAN_COMMON =
  ' `marketId` must be one of the catalog markets GET /v1/loan/markets lists (422 `unlisted_market` otherwise: anyone can create a Morpho market on listed tokens with an oracle they control); it is read from Morpho Blue (`idToMarketParams`) and the id re-derived from the params (cached once verified: params are immutable); an id that is not a market, does not re-derive or is idle is 422 (`unknown_market`, `market_id_mismatch`, `idle_market`) naming `marketId`, as is a market whose tokens are outside the address book (`unlisted_target`). The action reports the position after the bundle, with the debt accrued (by Morpho’s own accrueInterest, in the read multicall) to the latest block: `collateralAfter`, `borrowSharesAfter`, `debtAfter`, `maxBorrowAfter`, `healthAfter`, `accruedTo`, `oraclePrice`.'
const UNHEALTHY =
  ' Refused before simulating when the position would be left with health ≤ 1 (debt at or above collateral × price × LLTV): 422 `unhealthy_after` naming `assets`, details `healthFactor` (number), `healthFactorWad`, `debtAfter`, `maxBorrowAfter`, `oraclePrice`, `accruedTo`, `blockNumber`.'

const EXAMPLE_MARKET = '0xd490e1596fe156525ba0564974c4069ea03907a81298ab87c889beddaab4e413'
const EXAMPLE_TOKENS = {
  loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  collateralToken: '0x4200000000000000000000000000000000000006',
  accruedTo: 1795409938,
  oraclePrice: '3000000000000000000000000000',
} as const

export const loanSupplyCollateralBuilder = builder({
  id: 'buildLoanSupplyCollateral',
  path: '/v1/tx/loan/supply-collateral',
  summary: 'Supply collateral to an isolated market',
  description: `Morpho Blue supplyCollateral(params, assets, onBehalf = owner, data = ""): \`assets\` is atomic collateral. Approve of exactly \`assets\` of the collateral token to Morpho prepended when the allowance is short; a balance below \`assets\` is 422 insufficient_balance.${LOAN_COMMON}`,
  body: loanBody,
  action: { type: z.literal('supplyCollateral'), ...loanActionFields },
  example: {
    body: {
      marketId: EXAMPLE_MARKET,
      assets: '1000000000000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x4200000000000000000000000000000000000006',
          data: '0x095ea7b3000000000000000000000000bbbbbbbbbb9cc5e90e3b3af64bdaf62c37eeffcb0000000000000000000000000000000000000000000000000de0b6b3a7640000',
          value: '0',
          description: 'Approve 1 WETH to Morpho Blue',
        },
        {
          to: '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb',
          data: '0x238d6579000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000004200000000000000000000000000000000000006000000000000000000000000de7e00000000000000000000000000000000002000000000000000000000000046415998764c29ab2a25cbea6254146d50d226870000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000de0b6b3a764000000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Supply 1 WETH as collateral to the WETH/USDC 86% Morpho market',
        },
      ],
      action: {
        type: 'supplyCollateral',
        marketId: EXAMPLE_MARKET,
        assets: '1000000000000000000',
        ...EXAMPLE_TOKENS,
        collateralAfter: '1000000000000000000',
        borrowSharesAfter: '0',
        debtAfter: '0',
        maxBorrowAfter: '2580000000',
        healthAfter: null,
      },
    },
  },
  handler: (body, ctx) => buildLoanSupplyCollateral(ctx.deps.builders, body),
})

export const loanBorrowBuilder = builder({
  id: 'buildLoanBorrow',
  path: '/v1/tx/loan/borrow',
  summary: 'Borrow from an isolated market',
  description: `Morpho Blue borrow(params, assets, shares = 0, onBehalf = owner, receiver = owner): \`assets\` is atomic loan token, borrowed against the owner’s collateral in the market. \`shares\`: the borrow shares minted at the quote (Morpho rounds up; a later block mints slightly fewer as interest accrues). More than the market’s free liquidity is 422 \`insufficient_liquidity\` naming \`assets\` (details \`available\`).${UNHEALTHY}${LOAN_COMMON}`,
  body: loanBody,
  action: {
    type: z.literal('borrow'),
    ...loanActionFields,
    shares: atomicAmount.describe('Borrow shares minted, at the quote'),
  },
  example: {
    body: {
      marketId: EXAMPLE_MARKET,
      assets: '1500000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb',
          data: '0x50d8cd4b000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000004200000000000000000000000000000000000006000000000000000000000000de7e00000000000000000000000000000000002000000000000000000000000046415998764c29ab2a25cbea6254146d50d226870000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000000000059682f00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8',
          value: '0',
          description: 'Borrow 1500 USDC from the WETH/USDC 86% Morpho market',
        },
      ],
      action: {
        type: 'borrow',
        marketId: EXAMPLE_MARKET,
        assets: '1500000000',
        ...EXAMPLE_TOKENS,
        shares: '1428571428571429',
        collateralAfter: '1000000000000000000',
        borrowSharesAfter: '1428571428571429',
        debtAfter: '1500000000',
        maxBorrowAfter: '2580000000',
        healthAfter: 1.72,
      },
    },
  },
  handler: (body, ctx) => buildLoanBorrow(ctx.deps.builders, body),
})

export const loanRepayBuilder = builder({
  id: 'buildLoanRepay',
  path: '/v1/tx/loan/repay',
  summary: 'Repay an isolated-market loan',
  description: `Morpho Blue repay for \`owner\`; \`assets\` is atomic loan token. Below the debt (interest accrued to the latest block): repay(params, assets, 0, owner, "") repays exactly \`assets\` (\`mode\` "assets"). At or above it: repay(params, 0, borrowShares, owner, "") repays the whole debt by shares, so no interest dust is left (\`mode\` "shares"); it pulls the debt as accrued at inclusion, at most \`maxRepaid\` = the debt accrued to \`expiresAt\` (Morpho’s own accrual evaluated at that timestamp; exact while nobody else moves the market’s rate before inclusion), which may exceed \`assets\`. The approve of exactly \`maxRepaid\` of the loan token to Morpho is prepended when the allowance is short (a by-shares repay included earlier than \`expiresAt\` leaves the unpulled interest approved). A balance below \`maxRepaid\` is 422 insufficient_balance; no debt is 422 \`nothing_to_repay\` naming \`assets\`. \`shares\`: the borrow shares burned (by assets: at the quote, rounded down); \`debtBefore\`: the debt accrued to \`accruedTo\`.${LOAN_COMMON}`,
  body: loanBody,
  action: {
    type: z.literal('repay'),
    ...loanActionFields,
    mode: z
      .enum(['assets', 'shares'])
      .describe('"shares": the whole debt repaid by shares; "assets": exactly `assets` repaid'),
    shares: atomicAmount.describe('Borrow shares burned'),
    debtBefore: atomicAmount.describe('The debt before, with interest accrued to `accruedTo`'),
    maxRepaid: atomicAmount.describe(
      'The most the repay pulls and what the approve covers: `assets`, or by shares the debt accrued to `expiresAt`',
    ),
  },
  example: {
    body: {
      marketId: EXAMPLE_MARKET,
      assets: '500000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b3000000000000000000000000bbbbbbbbbb9cc5e90e3b3af64bdaf62c37eeffcb000000000000000000000000000000000000000000000000000000001dcd6500',
          value: '0',
          description: 'Approve 500 USDC to Morpho Blue',
        },
        {
          to: '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb',
          data: '0x20b76e81000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000004200000000000000000000000000000000000006000000000000000000000000de7e00000000000000000000000000000000002000000000000000000000000046415998764c29ab2a25cbea6254146d50d226870000000000000000000000000000000000000000000000000bef55718ad60000000000000000000000000000000000000000000000000000000000001dcd6500000000000000000000000000000000000000000000000000000000000000000000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000001200000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Repay 500 USDC in the WETH/USDC 86% Morpho market',
        },
      ],
      action: {
        type: 'repay',
        marketId: EXAMPLE_MARKET,
        assets: '500000000',
        ...EXAMPLE_TOKENS,
        mode: 'assets',
        shares: '476126992591464',
        debtBefore: '1500200000',
        maxRepaid: '500000000',
        collateralAfter: '1000000000000000000',
        borrowSharesAfter: '952444435979965',
        debtAfter: '1000200000',
        maxBorrowAfter: '2580000000',
        healthAfter: 2.579484103179364,
      },
    },
  },
  handler: (body, ctx) => buildLoanRepay(ctx.deps.builders, body),
})

export const loanWithdrawCollateralBuilder = builder({
  id: 'buildLoanWithdrawCollateral',
  path: '/v1/tx/loan/withdraw-collateral',
  summary: 'Withdraw collateral from an isolated market',
  description: `Morpho Blue withdrawCollateral(params, assets, onBehalf = owner, receiver = owner): \`assets\` is atomic collateral. More than the owner’s collateral is 422 \`exceeds_collateral\` naming \`assets\` (details \`collateral\`).${UNHEALTHY}${LOAN_COMMON}`,
  body: loanBody,
  action: { type: z.literal('withdrawCollateral'), ...loanActionFields },
  example: {
    body: {
      marketId: EXAMPLE_MARKET,
      assets: '250000000000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb',
          data: '0x8720316d000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000004200000000000000000000000000000000000006000000000000000000000000de7e00000000000000000000000000000000002000000000000000000000000046415998764c29ab2a25cbea6254146d50d226870000000000000000000000000000000000000000000000000bef55718ad6000000000000000000000000000000000000000000000000000003782dace9d9000000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8',
          value: '0',
          description: 'Withdraw 0.25 WETH of collateral from the WETH/USDC 86% Morpho market',
        },
      ],
      action: {
        type: 'withdrawCollateral',
        marketId: EXAMPLE_MARKET,
        assets: '250000000000000000',
        ...EXAMPLE_TOKENS,
        collateralAfter: '750000000000000000',
        borrowSharesAfter: '952444435979965',
        debtAfter: '1000200000',
        maxBorrowAfter: '1935000000',
        healthAfter: 1.934613077384523,
      },
    },
  },
  handler: (body, ctx) => buildLoanWithdrawCollateral(ctx.deps.builders, body),
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
  example: {
    body: {
      pairIndex: 0,
      long: true,
      leverage: 10,
      collateralUsdc: 100,
      markPrice: 95000,
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      tradeType: 0,
      tp: 104500,
      sl: 90250,
      slippagePct: 1,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b30000000000000000000000006cd5ac19a07518a8092eeffda4f1174c72704eeb0000000000000000000000000000000000000000000000000000000005f5e100',
          value: '0',
          description: 'Approve 100 USDC to the perp venue',
        },
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0x5bfcc4f800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000271000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000005f5e100000000000000000000000000000000000000000000000000000360051c8960000000000000000000000000000000000000000000000000000003b66c05ca5000000000000000000000000000000000000000000000000000000334d1a7e8e80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003e80000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Open BTC/USD long 10x, 100 USDC, TP 104500, SL 90250',
        },
      ],
      action: { type: 'riskOpen', pairIndex: 0, long: true, leverage: 10 },
    },
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
  example: {
    body: { index: 0, expectedPrice: 95250, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0x36ce736b00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003624b30260800',
          value: '0',
          description: 'Market-close trade 0 near 95250',
        },
      ],
      action: { type: 'riskClose', index: 0 },
    },
  },
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
  example: {
    body: { index: 0, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', tp: 104000, sl: 92500 },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0xf401f2bb00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003b1dfde910000',
          value: '0',
          description: 'Set TP of trade 0 to 104000',
        },
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0xb5d9e9d0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000034948586ad000',
          value: '0',
          description: 'Set SL of trade 0 to 92500',
        },
      ],
      action: { type: 'riskModify', index: 0, changes: ['tp', 'sl'] },
    },
  },
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
  example: {
    body: { index: 1, owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x6cD5aC19a07518A8092eEFfDA4f1174C72704eeb',
          data: '0x858863330000000000000000000000000000000000000000000000000000000000000001',
          value: '0',
          description: 'Cancel resting order 1; its 200 USDC returns',
        },
      ],
      action: { type: 'riskCancel', index: 1 },
    },
  },
  capability: 'perp builders',
})

export const stocksBuilder = builder({
  id: 'buildStockOrder',
  path: '/v1/tx/stocks',
  summary: 'Buy or sell a tokenized stock',
  description: `Buys (USDC in) or sells (shares in) a tokenized stock through its Uniswap v3 stock/USDC pool. \`amount\` is human-scale: USDC to spend on a buy (at most 6 decimals), shares to sell on a sell (at most 8, the token's decimals). One multicall reads the ticker's state (feed, supply, oracle registry, every fee tier's pool and reserves), a QuoterV2 quote in every tier and the taker's allowance and balance; the pool paying out most is used. Steps: an exact approve of amountIn to SwapRouter02, only when the live allowance is short (USDC on a buy; on a sell the approve is on the stock token), then SwapRouter02 \`multicall(deadline = expiresAt, [exactInputSingle])\` whose recipient is taker and whose amountOutMinimum is advisory.amountOutMin (amountOut less slippageBps). The calldata already carries the ERC-8021 builder code; do not re-encode it. \`advisory\` states the fill against the ticker's feed, including a stale feed (feedStale: its answer is older than the 24 h heartbeat, e.g. frozen off-hours; the order is still built when the fill is within the bound, checked against that older price). Refusals, none charged: 400 \`invalid_input\` naming \`sym\` for a ticker that is not one of the 13 registered; 409 \`stock_not_minted\` for a registered ticker without supply (no pool, no quote); 409 \`stock_paused\` when the issuer has paused the token (the oracle registry's paused flag: transfers, so swaps, revert), 409 \`stock_not_registered\`, 409 \`stock_no_pool\` (no pool fills the amount); 422 \`stock_feed_unavailable\` when the feed has no answer; 422 \`fill_deviates_from_feed\` naming \`amount\` when |vsFeedPct| exceeds ${MAX_FEED_DEVIATION_PCT}% in either direction (the pool is too thin for the amount, or the pool or the feed is off), with the fill, the feed and its age in \`details\`; 422 \`insufficient_balance\` naming \`amount\`; 422 \`simulation_reverted\`. The stock reference states $0.001 for this call.`,
  body: z.strictObject({
    sym: symbol.describe('Ticker, any case (GET /v1/stocks lists the 13)'),
    side,
    amount: humanAmount.describe('USDC to spend on a buy (≤ 6 dp), shares to sell on a sell (≤ 8 dp)'),
    taker: wallet.describe('Signs, sends and receives'),
    slippageBps: slippageBpsBody(5000),
  }),
  action: {
    type: z.literal('stockOrder'),
    sym: z.enum(STOCK_TICKERS).describe('The ticker, as registered'),
    side,
    tokenIn: address.describe('USDC on a buy, the stock token on a sell'),
    amountIn: atomicAmount.describe('Atomic: USDC (6 dp) on a buy, stock tokens (8 dp) on a sell'),
    tokenOut: address.describe('The stock token on a buy, USDC on a sell'),
    pool: address.describe('The Uniswap v3 stock/USDC pool the swap goes through'),
  },
  extra: {
    advisory: z
      .object({
        amountOut: atomicAmount.describe(
          'What the pool pays for amountIn at the quoted block (QuoterV2): stock tokens on a buy, USDC on a sell',
        ),
        amountOutMin: atomicAmount.describe(
          'amountOut less slippageBps, rounded down: the swap’s amountOutMinimum',
        ),
        pricePerShare: z.number().describe('USDC per stock token of this fill'),
        feedUsd: z.number().describe('The oracle feed’s price of one token (underlying × multiplier), USD'),
        feedUpdatedAt: z.number().int().describe('Unix seconds: the feed’s own timestamp of that answer'),
        feedStale: z
          .boolean()
          .describe(
            'The feed is older than its 24 h heartbeat (frozen off-hours or not updating): vsFeedPct compares with an old price',
          ),
        vsFeedPct: z
          .number()
          .describe(
            'Pool fill against the feed, percent (4 dp): positive on a buy is a premium, negative on a sell a discount',
          ),
        multiplier: z.number().describe('Shares per token: token price = underlying price × multiplier'),
        pool: z.object({
          fee: z.number().int().describe('Fee tier, hundredths of a basis point (3000 = 0.3%)'),
          usdc: z.number().describe('The pool’s USDC reserve (its balance), whole USDC'),
          shares: z.number().describe('The pool’s stock-token reserve (its balance), whole tokens'),
        }),
      })
      .describe('The fill against the feed; advisory, the chain enforces only amountOutMin and the deadline'),
  },
  example: {
    body: {
      sym: 'NVDAc',
      side: 'buy',
      amount: '500',
      taker: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 100,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x2626664c2603336E57B271c5C0b26F421741e481',
          data: '0x5ae401dc000000000000000000000000000000000000000000000000000000006b03c88c00000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000e404e45aaf000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913000000000000000000000000b20000000000000000000078ee7ce2fe4908108c0000000000000000000000000000000000000000000000000000000000000bb800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000001dcd65000000000000000000000000000000000000000000000000000000000010283134000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Buy at least 2.71069492 NVDAc with 500 USDC in the 0.3% pool',
        },
      ],
      action: {
        type: 'stockOrder',
        sym: 'NVDAc',
        side: 'buy',
        tokenIn: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amountIn: '500000000',
        tokenOut: '0xb20000000000000000000078ee7ce2fE4908108C',
        pool: '0x60661b315553EB81872deEA9a66d567Cf0CCd33B',
      },
      advisory: {
        amountOut: '273807568',
        amountOutMin: '271069492',
        pricePerShare: 182.61,
        feedUsd: 182.25,
        feedUpdatedAt: 1795409898,
        feedStale: false,
        vsFeedPct: 0.1975,
        multiplier: 1.0001,
        pool: { fee: 3000, usdc: 1250000, shares: 6850 },
      },
    },
  },
  handler: (body, ctx) => buildStockOrder(ctx.deps.builders, body),
})

export const burnBuilder = builder({
  id: 'buildBurn',
  path: '/v1/tx/burn',
  summary: 'Burn UTIL (transfer to the dead address)',
  description:
    'One step: UTIL.transfer(0x…dEaD, amount). UTIL has no burn function and its totalSupply never changes: a burn moves tokens to the dead address, so what it reduces is the circulating supply, totalSupply − balanceOf(0x…dEaD). `action.supplyAfter` is that circulating supply once this burn is mined (as read at the quote; other burns mined first lower it further). Holding less than `amount` is 422 insufficient_balance. On a network profile without UTIL (no UTIL_TOKEN configured) the answer is 501 util_not_deployed, not charged. Pass the mined hash as burnTxHash to the prop desk.',
  body: z.strictObject({
    amount: positiveAtomicAmount.describe('Atomic UTIL (18 decimals), above 0'),
    owner,
  }),
  action: {
    type: z.literal('burn'),
    token: address.describe('The UTIL token'),
    burnAddress: address.describe('0x000000000000000000000000000000000000dEaD, where burned UTIL goes'),
    amount: atomicAmount.describe('Atomic UTIL burned, as requested'),
    totalSupply: atomicAmount.describe('UTIL totalSupply(): fixed, a burn does not change it'),
    burnedAfter: atomicAmount.describe('balanceOf(0x…dEaD) after this burn: all UTIL ever burned'),
    supplyAfter: atomicAmount.describe(
      'Circulating supply after this burn: totalSupply − burnedAfter (read at the quote)',
    ),
  },
  example: {
    body: { amount: '250000000000000000000000', owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xDE7e000000000000000000000000000000000001',
          data: '0xa9059cbb000000000000000000000000000000000000000000000000000000000000dead0000000000000000000000000000000000000000000034f086f3b33b68400000',
          value: '0',
          description: 'Transfer 250000 UTIL to the dead address (burn)',
        },
      ],
      action: {
        type: 'burn',
        token: '0xDE7e000000000000000000000000000000000001',
        burnAddress: '0x000000000000000000000000000000000000dEaD',
        amount: '250000000000000000000000',
        totalSupply: '100000000000000000000000000000',
        burnedAfter: '1250000000000000000000000',
        supplyAfter: '99998750000000000000000000000',
      },
    },
  },
  handler: (body, ctx) => buildBurn(ctx.deps.builders, ctx.deps.config.utilToken, body),
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
  example: {
    body: {
      tokenA: '0x4200000000000000000000000000000000000006',
      tokenB: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      amountA: '100000000000000000',
      amountB: '300000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 50,
      deadlineSec: 1200,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x4200000000000000000000000000000000000006',
          data: '0x095ea7b3000000000000000000000000cf77a3ba9a5ca399b7c97c74d54e5b1beb874e43000000000000000000000000000000000000000000000000016345785d8a0000',
          value: '0',
          description: 'Approve 0.1 WETH to the router',
        },
        {
          to: '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43',
          data: '0x5a47ddc30000000000000000000000004200000000000000000000000000000000000006000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000016345785d8a00000000000000000000000000000000000000000000000000000000000011e1a30000000000000000000000000000000000000000000000000001617eb90b26c0000000000000000000000000000000000000000000000000000000000011cabfa000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000006b03cd00',
          value: '0',
          description: 'Add 0.1 WETH + 300 USDC to vAMM-WETH/USDC',
        },
      ],
      action: {
        type: 'aeroAdd',
        pool: '0xcDAC0d6c6C59727a65F871236188350531885C43',
        expectedLiquidity: '5477225575051',
      },
    },
  },
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
  example: {
    body: {
      tokenA: '0x4200000000000000000000000000000000000006',
      tokenB: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      liquidity: '5477225575051',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 50,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xcDAC0d6c6C59727a65F871236188350531885C43',
          data: '0x095ea7b3000000000000000000000000cf77a3ba9a5ca399b7c97c74d54e5b1beb874e43000000000000000000000000000000000000000000000000000004fb4415b28b',
          value: '0',
          description: 'Approve the LP tokens to the router',
        },
        {
          to: '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43',
          data: '0x0dede6c40000000000000000000000004200000000000000000000000000000000000006000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000004fb4415b28b00000000000000000000000000000000000000000000000001617eb90b26c0000000000000000000000000000000000000000000000000000000000011cabfa000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000006b03cd00',
          value: '0',
          description: 'Remove liquidity from vAMM-WETH/USDC',
        },
      ],
      action: {
        type: 'aeroRemove',
        pool: '0xcDAC0d6c6C59727a65F871236188350531885C43',
        amountAMin: '99500000000000000',
        amountBMin: '298500000',
      },
    },
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
  example: {
    body: {
      tokenA: '0x4200000000000000000000000000000000000006',
      tokenB: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      fee: 500,
      amountA: '100000000000000000',
      amountB: '300000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 100,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b300000000000000000000000003a520b32c04bf3beef7beb72e919cf822ed34f10000000000000000000000000000000000000000000000000000000011e1a300',
          value: '0',
          description: 'Approve 300 USDC to the position manager',
        },
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: '0x883164560000000000000000000000004200000000000000000000000000000000000006000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda0291300000000000000000000000000000000000000000000000000000000000001f4fffffffffffffffffffffffffffffffffffffffffffffffffffffffffff2761a00000000000000000000000000000000000000000000000000000000000d89e6000000000000000000000000000000000000000000000000016345785d8a00000000000000000000000000000000000000000000000000000000000011e1a300000000000000000000000000000000000000000000000000015fb7f9b8c380000000000000000000000000000000000000000000000000000000000011b3dc4000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000006b03cd00',
          value: '0',
          description: 'Mint a full-range WETH/USDC 0.05% position',
        },
      ],
      action: {
        type: 'uniAdd',
        pool: '0xd0b53D9277642d899DF5C87A3966A349A798F224',
        tickLower: -887270,
        tickUpper: 887270,
      },
    },
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
  example: {
    body: {
      tokenId: '3912845',
      liquidity: '2738612787525',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 100,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: '0xac9650d8000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000000000012000000000000000000000000000000000000000000000000000000000000000a40c49ccbe00000000000000000000000000000000000000000000000000000000003bb48d0000000000000000000000000000000000000000000000000000027da20ad94500000000000000000000000000000000000000000000000000afdbfcdc61c0000000000000000000000000000000000000000000000000000000000008d9ee20000000000000000000000000000000000000000000000000000000006b03cd00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000084fc6f786500000000000000000000000000000000000000000000000000000000003bb48d00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000ffffffffffffffffffffffffffffffff00000000000000000000000000000000ffffffffffffffffffffffffffffffff00000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Remove half the liquidity of position 3912845 and collect',
        },
      ],
      action: { type: 'uniRemove', tokenId: '3912845', liquidity: '2738612787525' },
    },
  },
  capability: 'liquidity builders',
})

export const uniCollectBuilder = builder({
  id: 'buildUniCollect',
  path: '/v1/tx/lp/uni/collect',
  summary: 'Collect a position’s accrued fees',
  description: 'NonfungiblePositionManager.collect(tokenId, recipient = owner, max, max).',
  body: z.strictObject({ tokenId: nftTokenId, owner }),
  action: { type: z.literal('uniCollect'), tokenId: nftTokenId },
  example: {
    body: { tokenId: '3912845', owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: '0xfc6f786500000000000000000000000000000000000000000000000000000000003bb48d00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000ffffffffffffffffffffffffffffffff00000000000000000000000000000000ffffffffffffffffffffffffffffffff',
          value: '0',
          description: 'Collect the fees of position 3912845',
        },
      ],
      action: { type: 'uniCollect', tokenId: '3912845' },
    },
  },
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
  example: {
    body: {
      marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
      assets: '5000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 50,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b3000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000000000000000000000000000000000012a05f200',
          value: '0',
          description: 'Approve 5000 USDC to the fixed-rate lender',
        },
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0x6a14c9ef00000000000000000000000000000000000000000000000000000000000000e00000000000000000000000000000000000000000000000000000000000000480000000000000000000000000000000000000000000000000000000012c0cfeb600000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000000001e00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000d648a784895d03b720ceedc7a3cfd351728793280000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000006b36ec800000000000000000000000000000000000000000000000000000000000000dc80e035f9d140a47893eb296baa8960b8172a8fca1154980652666c3de0dcbf69e00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000380000000000000000000000000d648a784895d03b720ceedc7a3cfd35172879328000000000000000000000000800b5f12a61b8198a5a6efd794cac6699b294d6300000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ba43b7400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000006b36ec80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000100000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000fea2d58cefcb9fcb597723c6bae66ffe4193afe40000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000006059f14c73585aad5d7552f8fa3724b821cf3913efd36f79de9ed8d75f84936ed9000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Lend 5000 USDC to maturity at 6.37% APR or better',
        },
      ],
      action: {
        type: 'fixedLend',
        marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
        assets: '5000000000',
        worstApr: 0.0637,
      },
    },
  },
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
  example: {
    body: {
      marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
      assets: '2000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 50,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0x6a14c9ef00000000000000000000000000000000000000000000000000000000000000e000000000000000000000000000000000000000000000000000000000000004800000000000000000000000000000000000000000000000000000000078122c9a00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000000001e00000000000000000000000000000000000000000000000000000000000000001000000000000000000000000d648a784895d03b720ceedc7a3cfd351728793280000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000006b36ec800000000000000000000000000000000000000000000000000000000000000da801984c165ad9631f5ca3c01a2ed9844954e0df5f377714c670b7543e1072839d00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000380000000000000000000000000d648a784895d03b720ceedc7a3cfd35172879328000000000000000000000000800b5f12a61b8198a5a6efd794cac6699b294d6300000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ba43b7400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000006b36ec80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000100000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000fea2d58cefcb9fcb597723c6bae66ffe4193afe40000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000006059f14c73585aad5d7552f8fa3724b821cf3913efd36f79de9ed8d75f84936ed9000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Borrow 2000 USDC to maturity at 6.84% APR or better',
        },
      ],
      action: {
        type: 'fixedBorrow',
        marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
        assets: '2000000000',
        worstApr: 0.0684,
      },
    },
  },
  capability: 'fixed-rate builders',
})

export const fixedRepayBuilder = builder({
  id: 'buildFixedRepay',
  path: '/v1/tx/fixed/repay',
  summary: 'Repay a fixed-rate loan',
  description: 'Repays `assets` of owner’s debt in the market; loan-token approve prepended when short.',
  body: fixedBody,
  action: { type: z.literal('fixedRepay'), marketId, assets: atomicAmount },
  example: {
    body: {
      marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
      assets: '1000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b3000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000000000000000000000000000000000003b9aca00',
          value: '0',
          description: 'Approve 1000 USDC to the fixed-rate lender',
        },
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0x6b210f9e00000000000000000000000000000000000000000000000000000000000000a0000000000000000000000000000000000000000000000000000000003b9aca0000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002400000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000006b36ec80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000100000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000fea2d58cefcb9fcb597723c6bae66ffe4193afe40000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Repay 1000 USDC of debt',
        },
      ],
      action: {
        type: 'fixedRepay',
        marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
        assets: '1000000000',
      },
    },
  },
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
  example: {
    body: {
      marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
      collateralToken: '0x4200000000000000000000000000000000000006',
      assets: '1000000000000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x4200000000000000000000000000000000000006',
          data: '0x095ea7b3000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a0000000000000000000000000000000000000000000000000de0b6b3a7640000',
          value: '0',
          description: 'Approve 1 WETH to the fixed-rate lender',
        },
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0x32292d96000000000000000000000000000000000000000000000000000000000000008000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000de0b6b3a764000000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000006b36ec80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000100000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000fea2d58cefcb9fcb597723c6bae66ffe4193afe4',
          value: '0',
          description: 'Supply 1 WETH as collateral',
        },
      ],
      action: {
        type: 'fixedSupplyCollateral',
        marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
        collateralToken: '0x4200000000000000000000000000000000000006',
        assets: '1000000000000000000',
      },
    },
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
  example: {
    body: {
      marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
      collateralToken: '0x4200000000000000000000000000000000000006',
      assets: '250000000000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0xa121e2a900000000000000000000000000000000000000000000000000000000000000a0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003782dace9d9000000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000006b36ec80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000100000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000fea2d58cefcb9fcb597723c6bae66ffe4193afe4',
          value: '0',
          description: 'Withdraw 0.25 WETH of collateral',
        },
      ],
      action: {
        type: 'fixedWithdrawCollateral',
        marketId: '0xb923f363ffd8aed9f0cd13af8ff47ed96d615e48c0aff9f524c9ff3d576b5126',
        collateralToken: '0x4200000000000000000000000000000000000006',
        assets: '250000000000000000',
      },
    },
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
