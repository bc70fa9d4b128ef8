import { getAddress } from 'viem'
import { z } from 'zod'
import { getHistory, historyOutput } from '../../market/history/getHistory.js'
import { queryInt } from '../../market/queryFields.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { walletParams } from '../shared/readFields.js'

const historyCursor = z
  .string()
  .regex(/^[A-Za-z0-9._:=+/-]{1,256}$/, {
    error: 'must be the nextCursor of a previous page (1..256 URL-safe characters).',
  })
  .optional()
  .describe('Opaque: the nextCursor of the previous page; absent for the newest page')

export const getHistoryRoute = defineRoute({
  id: 'getHistory',
  method: 'GET',
  path: '/v1/history/{address}',
  priceUsd: PRICES.getHistory,
  errors: [],
  tier: 'data',
  summary: 'Closed leveraged round-trips, newest first',
  description: prose`
    Closed gTrade round trips on Base, newest first, from the gTrade history backend
    (personal-trading-history, read live). Each close event (TradeClosedMarket/TP/SL/LIQ) is paired with the
    open event (TradeOpenedMarket/Limit/Stop) of the same pair and trade index: pair (base and quote), side,
    leverage, collateral at open (USDC), open and close (execution) price, realized net PnL (\`pnlUsd\`, the
    backend’s pnl_net: after fees) and \`pnlPct\` = pnlUsd / collateral × 100, close reason, open and close
    transaction hashes, timestamps. Leverage and size updates are not round trips. Pagination: \`limit\`
    (1..100, default 50) counts backend events (opens, closes, updates), so a page may hold fewer round
    trips than \`limit\` — even none while \`nextCursor\` is not null; pass \`nextCursor\` as \`cursor\` for
    the next, older page (null at the end). A round trip is listed on the page of its close; if its open is
    on an older page, up to 5 more pages of 100 events are read to find it, and if still not found
    openPrice, openTx and openedAt are null. \`sl\` is the stop at open; the history records carry none, so
    it is null. An address with no history answers 200 with an empty list; a backend fault is a 502 and
    nothing is charged.`,
  input: {
    params: walletParams,
    query: z.object({
      cursor: historyCursor,
      limit: queryInt(1, 100).default(50).describe('Backend events per page, 1..100, default 50'),
    }),
  },
  output: historyOutput,
  example: {
    params: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ params, query }, ctx) => ({
    address: getAddress(params.address),
    ...(await getHistory(ctx.deps.chain, ctx.deps.market, getAddress(params.address), query)),
  }),
})
