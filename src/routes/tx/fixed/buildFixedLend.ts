import { buildFixedLend, fixedLendAction, fixedLendBody } from '../../../builders/fixed/fixedLend.js'
import { prose } from '../../../prose.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'

import { exampleOutput } from '../../shared/exampleOutput.js'
import { EXAMPLE_OWNER, LEND_MARKET, TAKE, TAKE_ERRORS } from '../../shared/fixedFields.js'

export const buildFixedLendRoute = builder({
  id: 'buildFixedLend',
  path: '/v1/tx/fixed/lend',
  priceUsd: PRICES.buildFixedLend,
  errors: [...TAKE_ERRORS, 'insufficient_balance'],
  summary: 'Lend at a fixed rate (take the ask book)',
  description: prose`
    Lends \`assets\` of loan token now until maturity by buying units from the ask book (borrower-makers).
    The exact loan-token approve to Midnight is prepended when short; a balance below what the fills pay is
    422 insufficient_balance. Buying units first cancels debt the owner has in the market, then adds credit
    (\`creditAfter\`). ${TAKE}`,
  body: fixedLendBody,
  action: fixedLendAction,
  example: {
    body: { marketId: LEND_MARKET, assets: '100000000', owner: EXAMPLE_OWNER, slippageBps: 50 },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildFixedLend(ctx.deps.builders, ctx.deps.market.midnight, body),
})
