import {
  aaveWithdrawAction,
  aaveWithdrawBody,
  buildAaveWithdraw,
} from '../../../../builders/earn/aaveWithdraw.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'
import { exampleOutput } from '../../../shared/exampleOutput.js'

export const buildAaveWithdrawRoute = builder({
  id: 'buildAaveWithdraw',
  path: '/v1/tx/earn/aave/withdraw',
  priceUsd: PRICES.buildAaveWithdraw,
  errors: ['nothing_to_withdraw', 'insufficient_balance'],
  summary: 'Withdraw from the pool lender',
  description: prose`
    Aave v3 Pool.withdraw(asset, amount, to = owner). \`amount\` is atomic, or "max" (encoded as
    type(uint256).max) for the whole aToken balance at inclusion, interest included, leaving no dust.
    \`asset\` must be a listed Aave reserve (else 422 unlisted_target); an amount above the owner’s aToken
    balance is 422 insufficient_balance (details.issues.balance names the aToken and the balance), "max" of
    nothing is 422 nothing_to_withdraw. A withdraw that would leave an Aave borrower’s health below 1 fails
    the simulation (422 simulation_reverted, the Aave error named). The simulation reports the asset and the
    aToken.`,
  body: aaveWithdrawBody,
  action: aaveWithdrawAction,
  example: {
    // An owner with USDC supplied to Aave on the devnet (its deployer), so the example is served there.
    body: {
      asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      amount: '500000000',
      owner: '0xbcd4042de499d14e55001ccbb24a551f3b954096',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildAaveWithdraw(ctx.deps.builders, ctx.deps.lending, body),
})
