import { buildVaultDeposit, vaultBody, vaultDepositAction } from '../../../builders/vaultDeposit.js'
import { PRICES } from '../../prices.js'
import { builder } from '../../shared/builder.js'
import { hex } from '../../shared/builderExample.js'

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
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: hex`
            0x095ea7b3
            000000000000000000000000de7e000000000000000000000000000000000030
            000000000000000000000000000000000000000000000000000000003b9aca00`,
          value: '0',
          description: 'Approve 1000 USDC to agentdesk devnet USDC vault',
        },
        {
          to: '0xdE7e000000000000000000000000000000000030',
          data: hex`
            0x6e553f65
            000000000000000000000000000000000000000000000000000000003b9aca00
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8`,
          value: '0',
          description: 'Deposit 1000 USDC into agentdesk devnet USDC vault',
        },
      ],
      action: {
        type: 'vaultDeposit',
        vault: '0xdE7e000000000000000000000000000000000030',
        assets: '1000000000',
        expectedShares: '1000000000000000000000',
      },
    },
  },
  handler: (body, ctx) => buildVaultDeposit(ctx.deps.builders, ctx.deps.lending, body),
})
