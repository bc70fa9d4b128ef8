import { loanBody } from '../../../builders/loanPositionFields.js'
import {
  buildLoanSupplyCollateral,
  loanSupplyCollateralAction,
} from '../../../builders/loanSupplyCollateral.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'
import { EXAMPLE_MARKET, EXAMPLE_TOKENS, LOAN_COMMON, LOAN_ERRORS } from '../../shared/loanFields.js'

export const buildLoanSupplyCollateralRoute = builder({
  id: 'buildLoanSupplyCollateral',
  path: '/v1/tx/loan/supply-collateral',
  priceUsd: PRICES.buildLoanSupplyCollateral,
  errors: [...LOAN_ERRORS, 'insufficient_balance'],
  summary: 'Supply collateral to an isolated market',
  description: prose`
    Morpho Blue supplyCollateral(params, assets, onBehalf = owner, data = ""): \`assets\` is atomic
    collateral. Approve of exactly \`assets\` of the collateral token to Morpho prepended when the allowance
    is short; a balance below \`assets\` is 422 insufficient_balance. ${LOAN_COMMON}`,
  body: loanBody,
  action: loanSupplyCollateralAction,
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
          data: hex`
            0x095ea7b3
            000000000000000000000000bbbbbbbbbb9cc5e90e3b3af64bdaf62c37eeffcb
            0000000000000000000000000000000000000000000000000de0b6b3a7640000`,
          value: '0',
          description: 'Approve 1 WETH to Morpho Blue',
        },
        {
          to: '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb',
          data: hex`
            0x238d6579
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            0000000000000000000000004200000000000000000000000000000000000006
            000000000000000000000000de7e000000000000000000000000000000000020
            00000000000000000000000046415998764c29ab2a25cbea6254146d50d22687
            0000000000000000000000000000000000000000000000000bef55718ad60000
            0000000000000000000000000000000000000000000000000de0b6b3a7640000
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            0000000000000000000000000000000000000000000000000000000000000100
            0000000000000000000000000000000000000000000000000000000000000000`,
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
