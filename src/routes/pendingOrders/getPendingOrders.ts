import { getAddress } from 'viem'
import { getPendingOrders, pendingOrdersOutput } from '../../market/pendingOrders/getPendingOrders.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { walletParams } from '../shared/readFields.js'

/** The block a live gTrade read was taken at. */

export const getPendingOrdersRoute = defineRoute({
  id: 'getPendingOrders',
  method: 'GET',
  path: '/v1/pending-orders/{address}',
  priceUsd: PRICES.getPendingOrders,
  errors: [],
  tier: 'data',
  summary: 'Resting limit and stop orders not yet filled',
  description: prose`
    Resting LIMIT and STOP orders on the perp venue (gTrade v10 on Base, USDC collateral): the owner’s open
    trade slots of tradeType 1 (LIMIT) or 2 (STOP), read live from the diamond (getTrades, getTradeInfos) in
    one multicall at one block (\`block\`). They hold collateral but carry no market exposure (\`exposure:
    "none"\`) and are not positions (filled trades are in /v1/positions/{address}). \`triggerPrice\` is the
    stored openPrice that fills the order; \`sizeUsd\` = collateral × leverage once filled; tp/sl null when
    none is set; \`createdAt\` is the timestamp of \`createdBlock\`. Each order carries the body of POST
    /v1/tx/risk/cancel that cancels it (its whole collateral returns). An address with none answers 200 with
    an empty list; a chain fault is a 502 and nothing is charged.`,
  input: { params: walletParams },
  output: pendingOrdersOutput,
  example: {
    params: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ params }, ctx) => ({
    address: getAddress(params.address),
    ...(await getPendingOrders(ctx.deps.chain, getAddress(params.address))),
    sources: { chain: { ok: true as const } },
  }),
})
