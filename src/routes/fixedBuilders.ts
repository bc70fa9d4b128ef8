import { z } from 'zod'
import { buildFixedBorrow } from '../builders/fixedBorrow.js'
import { buildFixedLend } from '../builders/fixedLend.js'
import { buildFixedRepay } from '../builders/fixedRepay.js'
import { buildFixedSupplyCollateral } from '../builders/fixedSupplyCollateral.js'
import { buildFixedWithdraw } from '../builders/fixedWithdraw.js'
import { buildFixedWithdrawCollateral } from '../builders/fixedWithdrawCollateral.js'
import { builder, owner } from './builder.js'
import { address, atomicAmount, marketId, positiveAtomicAmount, slippageBpsBody } from './fields.js'

/**
 * Section E: fixed-rate lending (Morpho Midnight, protocols.md §7a). One unit pays one atomic loan token
 * at maturity; `assets` is always loan token NOW (borrow: received, lend: paid), `units` what is owed or
 * owed to you at maturity.
 */

const COMMON =
  ' `marketId` is read from Midnight (`toMarket`) and must hash back to the id: else 422 `unknown_market` naming `marketId`; a market whose loan token or collateral is outside the address book is 422 `unlisted_target`.'
const TAKE = `${COMMON} The live book comes from Morpho's API (GET /v0/midnight/books for tick prices, …/{bids|asks}/takeable-offers for the signed offers and their ratifier data); the market must be an open one of that listing (422 \`unlisted_market\`, \`matured\` naming \`marketId\`). Offers are taken best price first, each at the taker's price (tick price ∓ Midnight's settlement fee), never beyond the guard \`slippageBps\` from the best price; the depth within the guard short of \`assets\` is 422 \`book_too_thin\` naming \`assets\`, details \`availableAssets\`, \`availableUnits\`, \`bestPrice\`, \`guardPrice\`, \`guardApr\`. Offers of the other side, the owner's own, ones not live now (not started or expired) and ones whose own market does not hash to \`marketId\` are left out. After the one simulation of the bundle, takes that pay the owner less than the planned \`assets\` (borrow), cost it more (lend), or move its position by other than the planned \`units\` are 502 \`upstream_unavailable\` (Morpho Midnight: the book misreported them), never charged. One take is one \`take(offer, ratifierData, units, …)\` step; several are one step of Midnight's \`multicall\` (atomic: every fill lands or none). APR = (1/P − 1) × 31,536,000 / (maturity − quotedAt), a fraction.`

const takeFields = {
  marketId,
  maturity: z.number().int().describe('Unix seconds: when each unit pays one loan token'),
  assets: atomicAmount.describe('Loan token now (atomic): received on a borrow, paid on a lend'),
  units: atomicAmount.describe(
    'Units sold (borrow: debt added) or bought (lend: credit added); 1 unit = 1 atomic loan token at maturity',
  ),
  averagePrice: atomicAmount.describe('Σ assets / Σ units, WAD'),
  averageApr: z.number().describe('APR at averagePrice (0.05 = 5%)'),
  worstPrice: atomicAmount.describe('The least favourable fill’s price, WAD'),
  worstApr: z.number().describe('APR at worstPrice'),
  guardPrice: atomicAmount.describe('The slippage bound no fill crosses, WAD'),
  fills: z
    .array(
      z.object({
        price: atomicAmount.describe('Taker price, WAD'),
        units: atomicAmount,
        assets: atomicAmount,
      }),
    )
    .describe('One entry per offer taken, best first'),
}

const EXAMPLE_OWNER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
/** The devnet's demo markets (fixed maturities 2029-01-01 and 2030-01-01), where account #1 holds positions. */
const LEND_MARKET = '0x4183be0a905e735a704a587d73cff76e5af8b9ff3ca236bf61ded22b679cafec'
const BORROW_MARKET = '0xf2e40d3e419a0b8ae1cb50e59951890fc1bfe23bbdb69c1af778b5c957c7fc16'

export const fixedLendBuilder = builder({
  id: 'buildFixedLend',
  path: '/v1/tx/fixed/lend',
  summary: 'Lend at a fixed rate (take the ask book)',
  description: `Lends \`assets\` of loan token now until maturity by buying units from the ask book (borrower-makers). The exact loan-token approve to Midnight is prepended when short; a balance below what the fills pay is 422 insufficient_balance. Buying units first cancels debt the owner has in the market, then adds credit (\`creditAfter\`).${TAKE}`,
  body: z.strictObject({
    marketId,
    assets: positiveAtomicAmount.describe('Loan token paid now, atomic (at most)'),
    owner,
    slippageBps: slippageBpsBody().describe('Max bps above the best ask price'),
  }),
  action: {
    type: z.literal('fixedLend'),
    ...takeFields,
    creditAfter: atomicAmount.describe('Credit in units after the bundle'),
  },
  example: {
    body: { marketId: LEND_MARKET, assets: '100000000', owner: EXAMPLE_OWNER, slippageBps: 50 },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b3000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a0000000000000000000000000000000000000000000000000000000005f5e100',
          value: '0',
          description: 'Approve 100 USDC to Morpho Midnight',
        },
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0x6a14c9ef00000000000000000000000000000000000000000000000000000000000000e00000000000000000000000000000000000000000000000000000000000000500000000000000000000000000000000000000000000000000000000000696027b00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000058000000000000000000000000000000000000000000000000000000000000001e00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b9540960000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000006efaa5000000000000000000000000000000000000000000000000000000000000000ef0f56984b22af0e30d7ac5d73fa70ca20edd2c05ae99bd3399c389ec9fa8a5879c00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000400000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b954096000000000000000000000000800b5f12a61b8198a5a6efd794cac6699b294d6300000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ba43b7400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000006efaa500000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000200000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000020000000000000000000000000cbb7c0000ab88b473b1f5afd9ef808440eed33bf0000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e00000000000000000000000000000000002100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000060c90b0b96771153e5048d3a5da800fbae748b90840723ab696942f98ab46d01f0000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description:
            'Lend 100 USDC until maturity (receive 110.494331 USDC) at 4.98% APR, worst 4.98%, over 1 offer(s)',
        },
      ],
      action: {
        type: 'fixedLend',
        marketId: '0x4183be0a905e735a704a587d73cff76e5af8b9ff3ca236bf61ded22b679cafec',
        maturity: 1861920000,
        assets: '100000000',
        units: '110494331',
        averagePrice: '905023806153457773',
        averageApr: 0.049779292345724244,
        worstPrice: '905023800000000000',
        worstApr: 0.04977929590935904,
        guardPrice: '909548919000000000',
        fills: [
          {
            price: '905023800000000000',
            units: '110494331',
            assets: '100000000',
          },
        ],
        creditAfter: '1110494331',
      },
    },
  },
  handler: (body, ctx) => buildFixedLend(ctx.deps.builders, ctx.deps.market.midnight, body),
})

export const fixedBorrowBuilder = builder({
  id: 'buildFixedBorrow',
  path: '/v1/tx/fixed/borrow',
  summary: 'Borrow at a fixed rate (walk the bid book)',
  description: `Borrows \`assets\` of loan token now by selling units to the bid book (lender-makers): the owner owes \`units\` at maturity. With \`collateral\`, its approve (when short) and supplyCollateral are prepended. Health is read live: when the debt after the fills would exceed Σ collateral × oracle price / 1e36 × LLTV (collateral supplied in this bundle included), 422 \`unhealthy_after\` naming \`collateral\`, details \`debtAfter\`, \`maxDebtAfter\`. An unknown \`collateral.token\` is 422 \`unknown_collateral\`; a balance short of \`collateral.assets\` is 422 insufficient_balance. Selling units first cancels credit the owner has in the market, then adds debt.${TAKE}`,
  body: z.strictObject({
    marketId,
    assets: positiveAtomicAmount.describe('Loan token received now, atomic (at least)'),
    owner,
    slippageBps: slippageBpsBody().describe('Max bps below the best bid price'),
    collateral: z
      .strictObject({
        token: address.describe('One of the market’s collateral tokens'),
        assets: positiveAtomicAmount.describe('Collateral to supply first (atomic)'),
      })
      .optional()
      .describe('Collateral to supply in the same bundle, before the takes'),
  }),
  action: {
    type: z.literal('fixedBorrow'),
    ...takeFields,
    debtAfter: atomicAmount.describe('Debt in units after the bundle'),
    maxDebtAfter: atomicAmount
      .nullable()
      .describe('Σ collateral × price / 1e36 × LLTV after the bundle; null when an oracle does not answer'),
  },
  example: {
    body: { marketId: BORROW_MARKET, assets: '100000000', owner: EXAMPLE_OWNER, slippageBps: 50 },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0x6a14c9ef00000000000000000000000000000000000000000000000000000000000000e0000000000000000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000073e432400000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000058000000000000000000000000000000000000000000000000000000000000001e00000000000000000000000000000000000000000000000000000000000000001000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b95409600000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000070dbd8800000000000000000000000000000000000000000000000000000000000000e607590d9cbaf89d72177b51fe95bbd2f6756acea1b599b8a8ed68536252fb6017e00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000400000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b954096000000000000000000000000800b5f12a61b8198a5a6efd794cac6699b294d6300000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000ba43b7400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda0291300000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000070dbd880000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000200000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000020000000000000000000000000cbb7c0000ab88b473b1f5afd9ef808440eed33bf0000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000021000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000608f592f6e0a1e8e8539b9ff54b827f2516c6e077104946c912dee85d9fc0c51be000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description:
            'Borrow 100 USDC until maturity (owe 121.520932 USDC) at 6.92% APR, worst 6.92%, over 1 offer(s)',
        },
      ],
      action: {
        type: 'fixedBorrow',
        marketId: '0xf2e40d3e419a0b8ae1cb50e59951890fc1bfe23bbdb69c1af778b5c957c7fc16',
        maturity: 1893456000,
        assets: '100000000',
        units: '121520932',
        averagePrice: '822903497810566495',
        averageApr: 0.06923983628369072,
        worstPrice: '822903500000000000',
        worstApr: 0.06923983524346189,
        guardPrice: '818788982500000000',
        fills: [
          {
            price: '822903500000000000',
            units: '121520932',
            assets: '100000000',
          },
        ],
        debtAfter: '1121520932',
        maxDebtAfter: '2652400936',
      },
    },
  },
  handler: (body, ctx) => buildFixedBorrow(ctx.deps.builders, ctx.deps.market.midnight, body),
})

const unitsBody = z.strictObject({
  marketId,
  units: positiveAtomicAmount.describe('Units (1 unit = 1 atomic loan token, paid 1:1)'),
  owner,
})

export const fixedRepayBuilder = builder({
  id: 'buildFixedRepay',
  path: '/v1/tx/fixed/repay',
  summary: 'Repay a fixed-rate loan',
  description: `Midnight repay(market, units, onBehalf = owner, callback = 0, data = ""): pays \`units\` of loan token (1:1) against the owner’s debt, before or after maturity. The exact loan-token approve is prepended when short. More than the debt is 422 \`exceeds_debt\` naming \`units\` (details \`debt\`); a balance below \`units\` is 422 insufficient_balance.${COMMON}`,
  body: unitsBody,
  action: {
    type: z.literal('fixedRepay'),
    marketId,
    units: atomicAmount,
    maturity: z.number().int(),
    debtAfter: atomicAmount.describe('Debt in units after the bundle'),
  },
  example: {
    body: { marketId: BORROW_MARKET, units: '100000000', owner: EXAMPLE_OWNER },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b3000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a0000000000000000000000000000000000000000000000000000000005f5e100',
          value: '0',
          description: 'Approve 100 USDC to Morpho Midnight',
        },
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0x6b210f9e00000000000000000000000000000000000000000000000000000000000000a00000000000000000000000000000000000000000000000000000000005f5e10000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000002c00000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda0291300000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000070dbd880000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000200000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000020000000000000000000000000cbb7c0000ab88b473b1f5afd9ef808440eed33bf0000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e0000000000000000000000000000000000210000000000000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Repay 100 USDC of fixed-rate debt',
        },
      ],
      action: {
        type: 'fixedRepay',
        marketId: '0xf2e40d3e419a0b8ae1cb50e59951890fc1bfe23bbdb69c1af778b5c957c7fc16',
        units: '100000000',
        maturity: 1893456000,
        debtAfter: '900000000',
      },
    },
  },
  handler: (body, ctx) => buildFixedRepay(ctx.deps.builders, body),
})

export const fixedWithdrawBuilder = builder({
  id: 'buildFixedWithdraw',
  path: '/v1/tx/fixed/withdraw',
  summary: 'Withdraw repaid fixed-rate credit (lender)',
  description: `Midnight withdraw(market, units, onBehalf = owner, receiver = owner): a lender takes \`units\` of credit back 1:1 in loan token, out of what borrowers have repaid (Midnight’s market-wide \`withdrawable\`): at or after maturity, or earlier for units repaid early. More than the credit is 422 \`exceeds_credit\`; more than is repaid is 422 \`not_matured\` before maturity (exit early by selling the units on the bid book) or \`not_repaid\` after it; all name \`units\`, details \`credit\`, \`withdrawable\`, \`maturity\`, \`chainTime\` (the chain’s clock decides maturity).${COMMON}`,
  body: unitsBody,
  action: {
    type: z.literal('fixedWithdraw'),
    marketId,
    units: atomicAmount,
    maturity: z.number().int(),
    creditAfter: atomicAmount.describe('Credit in units after the bundle'),
    withdrawableAfter: atomicAmount.describe('Repaid units left for lenders after this withdrawal'),
  },
  example: {
    body: { marketId: LEND_MARKET, units: '100000000', owner: EXAMPLE_OWNER },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0xa6db175000000000000000000000000000000000000000000000000000000000000000800000000000000000000000000000000000000000000000000000000005f5e10000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000006efaa500000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000200000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000020000000000000000000000000cbb7c0000ab88b473b1f5afd9ef808440eed33bf0000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000021',
          value: '0',
          description: 'Withdraw 100 USDC of repaid fixed-rate credit',
        },
      ],
      action: {
        type: 'fixedWithdraw',
        marketId: '0x4183be0a905e735a704a587d73cff76e5af8b9ff3ca236bf61ded22b679cafec',
        units: '100000000',
        maturity: 1861920000,
        creditAfter: '900000000',
        withdrawableAfter: '300000000',
      },
    },
  },
  handler: (body, ctx) => buildFixedWithdraw(ctx.deps.builders, body),
})

const fixedCollateralBody = z.strictObject({
  marketId,
  collateralToken: address.describe(
    'One of the market’s collateral tokens (422 `unknown_collateral` otherwise)',
  ),
  assets: positiveAtomicAmount.describe('Collateral, atomic'),
  owner,
})
const collateralAction = {
  marketId,
  collateralToken: address,
  assets: atomicAmount,
  collateralAfter: atomicAmount.describe(
    'The owner’s amount of this collateral in the market after the bundle',
  ),
}

export const fixedSupplyCollateralBuilder = builder({
  id: 'buildFixedSupplyCollateral',
  path: '/v1/tx/fixed/supply-collateral',
  summary: 'Supply collateral to a fixed-rate market',
  description: `Midnight supplyCollateral(market, index, assets, onBehalf = owner); the exact approve is prepended when short; a balance below \`assets\` is 422 insufficient_balance.${COMMON}`,
  body: fixedCollateralBody,
  action: { type: z.literal('fixedSupplyCollateral'), ...collateralAction },
  example: {
    body: {
      marketId: BORROW_MARKET,
      collateralToken: '0x4200000000000000000000000000000000000006',
      assets: '100000000000000000',
      owner: EXAMPLE_OWNER,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x4200000000000000000000000000000000000006',
          data: '0x095ea7b3000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000000000000000000000000000016345785d8a0000',
          value: '0',
          description: 'Approve 0.1 WETH to Morpho Midnight',
        },
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0x32292d9600000000000000000000000000000000000000000000000000000000000000800000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000016345785d8a000000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda0291300000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000070dbd880000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000200000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000020000000000000000000000000cbb7c0000ab88b473b1f5afd9ef808440eed33bf0000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000021',
          value: '0',
          description: 'Supply 0.1 WETH as collateral',
        },
      ],
      action: {
        type: 'fixedSupplyCollateral',
        marketId: '0xf2e40d3e419a0b8ae1cb50e59951890fc1bfe23bbdb69c1af778b5c957c7fc16',
        collateralToken: '0x4200000000000000000000000000000000000006',
        assets: '100000000000000000',
        collateralAfter: '1100000000000000000',
      },
    },
  },
  handler: (body, ctx) => buildFixedSupplyCollateral(ctx.deps.builders, body),
})

export const fixedWithdrawCollateralBuilder = builder({
  id: 'buildFixedWithdrawCollateral',
  path: '/v1/tx/fixed/withdraw-collateral',
  summary: 'Withdraw collateral from a fixed-rate market',
  description: `Midnight withdrawCollateral(market, index, assets, onBehalf = owner, receiver = owner). Refused before simulating: more than supplied is 422 \`exceeds_collateral\` (details \`collateral\`); leaving the debt above Σ collateral × price / 1e36 × LLTV is 422 \`unhealthy_after\` (details \`debt\`, \`maxDebtAfter\`); both name \`assets\`.${COMMON}`,
  body: fixedCollateralBody,
  action: {
    type: z.literal('fixedWithdrawCollateral'),
    ...collateralAction,
    debt: atomicAmount.describe('Debt in units'),
    maxDebtAfter: atomicAmount.nullable().describe('Σ collateral × price / 1e36 × LLTV after the bundle'),
  },
  example: {
    body: {
      marketId: BORROW_MARKET,
      collateralToken: '0x4200000000000000000000000000000000000006',
      assets: '100000000000000000',
      owner: EXAMPLE_OWNER,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
          data: '0xa121e2a900000000000000000000000000000000000000000000000000000000000000a00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000016345785d8a000000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000002105000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda0291300000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000070dbd880000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000200000000000000000000000042000000000000000000000000000000000000060000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000020000000000000000000000000cbb7c0000ab88b473b1f5afd9ef808440eed33bf0000000000000000000000000000000000000000000000000bef55718ad600000000000000000000000000000000000000000000000000000429d069189e0000000000000000000000000000de7e000000000000000000000000000000000021',
          value: '0',
          description: 'Withdraw 0.1 WETH of collateral',
        },
      ],
      action: {
        type: 'fixedWithdrawCollateral',
        marketId: '0xf2e40d3e419a0b8ae1cb50e59951890fc1bfe23bbdb69c1af778b5c957c7fc16',
        collateralToken: '0x4200000000000000000000000000000000000006',
        assets: '100000000000000000',
        collateralAfter: '900000000000000000',
        debt: '1000000000',
        maxDebtAfter: '2387160842',
      },
    },
  },
  handler: (body, ctx) => buildFixedWithdrawCollateral(ctx.deps.builders, body),
})
