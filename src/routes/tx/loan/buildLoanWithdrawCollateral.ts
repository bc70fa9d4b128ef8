import { loanBody } from '../../../builders/loanPositionFields.js'
import {
  buildLoanWithdrawCollateral,
  loanWithdrawCollateralAction,
} from '../../../builders/loanWithdrawCollateral.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'
import {
  EXAMPLE_MARKET,
  EXAMPLE_TOKENS,
  LOAN_COMMON,
  LOAN_ERRORS,
  UNHEALTHY,
} from '../../shared/loanFields.js'

export const buildLoanWithdrawCollateralRoute = builder({
  id: 'buildLoanWithdrawCollateral',
  path: '/v1/tx/loan/withdraw-collateral',
  priceUsd: PRICES.buildLoanWithdrawCollateral,
  errors: [...LOAN_ERRORS, 'exceeds_collateral', 'unhealthy_after'],
  summary: 'Withdraw collateral from an isolated market',
  description: prose`
    Morpho Blue withdrawCollateral(params, assets, onBehalf = owner, receiver = owner): \`assets\` is atomic
    collateral. More than the owner’s collateral is 422 \`exceeds_collateral\` naming \`assets\` (details
    \`collateral\`). ${UNHEALTHY} ${LOAN_COMMON}`,
  body: loanBody,
  action: loanWithdrawCollateralAction,
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
          data: hex`
            0x8720316d
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            0000000000000000000000004200000000000000000000000000000000000006
            000000000000000000000000de7e000000000000000000000000000000000020
            00000000000000000000000046415998764c29ab2a25cbea6254146d50d22687
            0000000000000000000000000000000000000000000000000bef55718ad60000
            00000000000000000000000000000000000000000000000003782dace9d90000
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8`,
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
