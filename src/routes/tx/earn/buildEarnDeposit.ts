import { buildVaultDeposit, vaultBody, vaultDepositAction } from '../../../builders/earn/vaultDeposit.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { exampleOutput } from '../../shared/exampleOutput.js'

export const buildEarnDepositRoute = builder({
  id: 'buildEarnDeposit',
  path: '/v1/tx/earn/deposit',
  priceUsd: PRICES.buildEarnDeposit,
  errors: ['exceeds_max_deposit', 'insufficient_balance'],
  summary: 'Deposit into an ERC-4626 vault',
  description:
    'Deposit `assets` into `vault`; `owner` is depositor and receiver. Approve prepended if short.',
  body: vaultBody,
  action: vaultDepositAction,
  example: {
    body: {
      vault: '0xde7e000000000000000000000000000000000030',
      assets: '1000000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildVaultDeposit(ctx.deps.builders, ctx.deps.lending, body),
})
