import { vaultBody } from '../../../builders/earn/vaultDeposit.js'
import { buildVaultWithdraw, vaultWithdrawAction } from '../../../builders/earn/vaultWithdraw.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { exampleOutput } from '../../shared/exampleOutput.js'

export const buildEarnWithdrawRoute = builder({
  id: 'buildEarnWithdraw',
  path: '/v1/tx/earn/withdraw',
  priceUsd: PRICES.buildEarnWithdraw,
  errors: ['exceeds_max_withdraw', 'withdraw_needs_request'],
  summary: 'Withdraw from an ERC-4626 vault',
  description: 'Withdraw `assets` from `vault`; `owner` is owner and receiver.',
  body: vaultBody,
  action: vaultWithdrawAction,
  example: {
    body: {
      vault: '0xde7e000000000000000000000000000000000030',
      assets: '500000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildVaultWithdraw(ctx.deps.builders, ctx.deps.lending, body),
})
