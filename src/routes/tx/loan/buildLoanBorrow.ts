import { buildLoanBorrow, loanBorrowAction } from '../../../builders/loanBorrow.js'
import { loanBody } from '../../../builders/loanPositionFields.js'
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

export const buildLoanBorrowRoute = builder({
  id: 'buildLoanBorrow',
  path: '/v1/tx/loan/borrow',
  priceUsd: PRICES.buildLoanBorrow,
  errors: [...LOAN_ERRORS, 'insufficient_liquidity', 'unhealthy_after'],
  summary: 'Borrow from an isolated market',
  description: prose`
    Morpho Blue borrow(params, assets, shares = 0, onBehalf = owner, receiver = owner): \`assets\` is atomic
    loan token, borrowed against the owner’s collateral in the market. \`shares\`: the borrow shares minted
    at the quote (Morpho rounds up; a later block mints slightly fewer as interest accrues). More than the
    market’s free liquidity is 422 \`insufficient_liquidity\` naming \`assets\` (details \`available\`).
    ${UNHEALTHY} ${LOAN_COMMON}`,
  body: loanBody,
  action: loanBorrowAction,
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
          data: hex`
            0x50d8cd4b
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            0000000000000000000000004200000000000000000000000000000000000006
            000000000000000000000000de7e000000000000000000000000000000000020
            00000000000000000000000046415998764c29ab2a25cbea6254146d50d22687
            0000000000000000000000000000000000000000000000000bef55718ad60000
            0000000000000000000000000000000000000000000000000000000059682f00
            0000000000000000000000000000000000000000000000000000000000000000
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8`,
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
