import { z } from 'zod'
import { txHash } from '../../chain/fields.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute, notImplemented } from '../route.js'
import { actionId, propParams, tradeOpenExample } from '../shared/propFields.js'

export const propExecuteRoute = defineRoute({
  id: 'propExecute',
  method: 'POST',
  path: '/v1/prop/execute',
  priceUsd: PRICES.propExecute,
  errors: [],
  tier: 'prop',
  summary: 'Run a prop desk action',
  description: prose`
    Runs \`actionId\` with its \`params\`. Needs exactly one of payTxHash (agents: UTIL transfer to the desk
    recipient) or burnTxHash (humans: UTIL burn to the dead address), from the member wallet.`,
  input: {
    body: z
      .strictObject({
        actionId,
        params: propParams,
        payTxHash: txHash.optional(),
        burnTxHash: txHash.optional(),
      })
      .refine((b) => (b.payTxHash === undefined) !== (b.burnTxHash === undefined), {
        error: 'is required: pass exactly one of payTxHash or burnTxHash.',
        path: ['payTxHash'],
      }),
  },
  output: z.object({ actionId: z.string(), status: z.string(), txHash: z.string().nullable() }),
  example: {
    body: {
      actionId: 'trade.open',
      params: tradeOpenExample,
      payTxHash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
    },
    output: {
      actionId: 'trade.open',
      status: 'submitted',
      txHash: '0x9f2d1a3b6c7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f506172',
    },
  },
  handler: notImplemented('prop desk'),
})
