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
import { builder, owner } from './builder.js'
import {
  address,
  atomicAmount,
  humanAmount,
  marketId,
  positiveAtomicAmount,
  side,
  slippageBpsBody,
  symbol,
  tokenOrNative,
  wallet,
} from './fields.js'
import {
  fixedBorrowBuilder,
  fixedLendBuilder,
  fixedRepayBuilder,
  fixedSupplyCollateralBuilder,
  fixedWithdrawBuilder,
  fixedWithdrawCollateralBuilder,
} from './fixedBuilders.js'
import {
  aeroAddBuilder,
  aeroRemoveBuilder,
  uniAddBuilder,
  uniCollectBuilder,
  uniRemoveBuilder,
} from './lpBuilders.js'
import { riskCancelBuilder, riskCloseBuilder, riskModifyBuilder, riskOpenBuilder } from './riskBuilders.js'

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
    slippageBps: slippageBpsBody(),
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
    .describe(
      'Unix seconds (the timestamp of the block the state was read at, which is also the simulation’s `blockNumber`) the debt figures include interest up to',
    ),
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
    slippageBps: slippageBpsBody(),
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
  fixedWithdrawBuilder,
  riskModifyBuilder,
  riskCancelBuilder,
]
