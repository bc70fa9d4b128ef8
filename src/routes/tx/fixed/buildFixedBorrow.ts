import { z } from 'zod'
import { buildFixedBorrow } from '../../../builders/fixedBorrow.js'
import { PRICES } from '../../prices.js'
import { builder, owner } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'
import {
  address,
  atomicAmount,
  marketId,
  positiveAtomicAmount,
  slippageBpsBody,
} from '../../shared/fields.js'
import { BORROW_MARKET, EXAMPLE_OWNER, TAKE, takeFields } from '../../shared/fixedFields.js'
import { prose } from '../../shared/prose.js'

export const buildFixedBorrowRoute = builder({
  id: 'buildFixedBorrow',
  path: '/v1/tx/fixed/borrow',
  priceUsd: PRICES.buildFixedBorrow,
  summary: 'Borrow at a fixed rate (walk the bid book)',
  description: prose`
    Borrows \`assets\` of loan token now by selling units to the bid book (lender-makers): the owner owes
    \`units\` at maturity. With \`collateral\`, its approve (when short) and supplyCollateral are prepended.
    Health is read live: when the debt after the fills would exceed Σ collateral × oracle price / 1e36 ×
    LLTV (collateral supplied in this bundle included), 422 \`unhealthy_after\` naming \`collateral\`,
    details \`debtAfter\`, \`maxDebtAfter\`. An unknown \`collateral.token\` is 422 \`unknown_collateral\`;
    a balance short of \`collateral.assets\` is 422 insufficient_balance. Selling units first cancels credit
    the owner has in the market, then adds debt. ${TAKE}`,
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
          data: hex`
            0x6a14c9ef
            00000000000000000000000000000000000000000000000000000000000000e0
            0000000000000000000000000000000000000000000000000000000000000500
            00000000000000000000000000000000000000000000000000000000073e4324
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000580
            00000000000000000000000000000000000000000000000000000000000001e0
            0000000000000000000000000000000000000000000000000000000000000001
            000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b954096
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000070dbd880
            0000000000000000000000000000000000000000000000000000000000000e60
            7590d9cbaf89d72177b51fe95bbd2f6756acea1b599b8a8ed68536252fb6017e
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000400
            000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b954096
            000000000000000000000000800b5f12a61b8198a5a6efd794cac6699b294d63
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000ba43b7400
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000002105
            000000000000000000000000adedd8ab6de832766fedf0fac4992e5c4d3ea18a
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            0000000000000000000000000000000000000000000000000000000000000100
            0000000000000000000000000000000000000000000000000000000070dbd880
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000002
            0000000000000000000000004200000000000000000000000000000000000006
            0000000000000000000000000000000000000000000000000bef55718ad60000
            0000000000000000000000000000000000000000000000000429d069189e0000
            000000000000000000000000de7e000000000000000000000000000000000020
            000000000000000000000000cbb7c0000ab88b473b1f5afd9ef808440eed33bf
            0000000000000000000000000000000000000000000000000bef55718ad60000
            0000000000000000000000000000000000000000000000000429d069189e0000
            000000000000000000000000de7e000000000000000000000000000000000021
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000060
            8f592f6e0a1e8e8539b9ff54b827f2516c6e077104946c912dee85d9fc0c51be
            0000000000000000000000000000000000000000000000000000000000000040
            0000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000`,
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
