import { loanBody } from '../../../builders/loanPositionFields.js'
import { buildLoanRepay, loanRepayAction } from '../../../builders/loanRepay.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'
import { EXAMPLE_MARKET, EXAMPLE_TOKENS, LOAN_COMMON, LOAN_ERRORS } from '../../shared/loanFields.js'

export const buildLoanRepayRoute = builder({
  id: 'buildLoanRepay',
  path: '/v1/tx/loan/repay',
  priceUsd: PRICES.buildLoanRepay,
  errors: [...LOAN_ERRORS, 'nothing_to_repay', 'insufficient_balance'],
  summary: 'Repay an isolated-market loan',
  description: prose`
    Morpho Blue repay for \`owner\`; \`assets\` is atomic loan token. Below the debt (interest accrued to
    the latest block): repay(params, assets, 0, owner, "") repays exactly \`assets\` (\`mode\` "assets"). At
    or above it: repay(params, 0, borrowShares, owner, "") repays the whole debt by shares, so no interest
    dust is left (\`mode\` "shares"); it pulls the debt as accrued at inclusion, at most \`maxRepaid\` = the
    debt accrued to \`expiresAt\` (Morpho’s own accrual evaluated at that timestamp; exact while nobody else
    moves the market’s rate before inclusion), which may exceed \`assets\`. The approve of exactly
    \`maxRepaid\` of the loan token to Morpho is prepended when the allowance is short (a by-shares repay
    included earlier than \`expiresAt\` leaves the unpulled interest approved). A balance below
    \`maxRepaid\` is 422 insufficient_balance; no debt is 422 \`nothing_to_repay\` naming \`assets\`.
    \`shares\`: the borrow shares burned (by assets: at the quote, rounded down); \`debtBefore\`: the debt
    accrued to \`accruedTo\`. ${LOAN_COMMON}`,
  body: loanBody,
  action: loanRepayAction,
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
          data: hex`
            0x095ea7b3
            000000000000000000000000bbbbbbbbbb9cc5e90e3b3af64bdaf62c37eeffcb
            000000000000000000000000000000000000000000000000000000001dcd6500`,
          value: '0',
          description: 'Approve 500 USDC to Morpho Blue',
        },
        {
          to: '0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb',
          data: hex`
            0x20b76e81
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            0000000000000000000000004200000000000000000000000000000000000006
            000000000000000000000000de7e000000000000000000000000000000000020
            00000000000000000000000046415998764c29ab2a25cbea6254146d50d22687
            0000000000000000000000000000000000000000000000000bef55718ad60000
            000000000000000000000000000000000000000000000000000000001dcd6500
            0000000000000000000000000000000000000000000000000000000000000000
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            0000000000000000000000000000000000000000000000000000000000000120
            0000000000000000000000000000000000000000000000000000000000000000`,
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
