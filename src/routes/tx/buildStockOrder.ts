import {
  buildStockOrder,
  MAX_FEED_DEVIATION_PCT,
  stockOrderAction,
  stockOrderBody,
  stockOrderExtra,
} from '../../builders/stockOrder.js'
import { STOCK_STATE_ERRORS } from '../../market/readErrors.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { builder } from '../shared/builder.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const buildStockOrderRoute = builder({
  id: 'buildStockOrder',
  path: '/v1/tx/stocks',
  priceUsd: PRICES.buildStockOrder,
  errors: [
    'stock_feed_unavailable',
    'fill_deviates_from_feed',
    'insufficient_balance',
    ...STOCK_STATE_ERRORS,
  ],
  summary: 'Buy or sell a tokenized stock',
  description: prose`
    Buys (USDC in) or sells (shares in) a tokenized stock through its Uniswap v3 stock/USDC pool. \`amount\`
    is human-scale: USDC to spend on a buy (at most 6 decimals), shares to sell on a sell (at most 8, the
    token's decimals). One multicall reads the ticker's state (feed, supply, oracle registry, every fee
    tier's pool and reserves), a QuoterV2 quote in every tier and the taker's allowance and balance; the
    pool paying out most is used. Steps: an exact approve of amountIn to SwapRouter02, only when the live
    allowance is short (USDC on a buy; on a sell the approve is on the stock token), then SwapRouter02
    \`multicall(deadline = expiresAt, [exactInputSingle])\` whose recipient is taker and whose
    amountOutMinimum is advisory.amountOutMin (amountOut less slippageBps). The calldata already carries the
    ERC-8021 builder code; do not re-encode it. \`advisory\` states the fill against the ticker's feed,
    including a stale feed (feedStale: its answer is older than the 24 h heartbeat, e.g. frozen off-hours;
    the order is still built when the fill is within the bound, checked against that older price). Refusals,
    none charged: 400 \`invalid_input\` naming \`sym\` for a ticker that is not one of the 13 registered;
    409 \`stock_not_minted\` for a registered ticker without supply (no pool, no quote); 409
    \`stock_paused\` when the issuer has paused the token (the oracle registry's paused flag: transfers, so
    swaps, revert), 409 \`stock_not_registered\`, 409 \`stock_no_pool\` (no pool fills the amount); 422
    \`stock_feed_unavailable\` when the feed has no answer; 422 \`fill_deviates_from_feed\` naming
    \`amount\` when |vsFeedPct| exceeds ${MAX_FEED_DEVIATION_PCT}% in either direction (the pool is too thin
    for the amount, or the pool or the feed is off), with the fill, the feed and its age in \`details\`; 422
    \`insufficient_balance\` naming \`amount\`; 422 \`simulation_reverted\`. The stock reference states
    $0.001 for this call.`,
  body: stockOrderBody,
  action: stockOrderAction,
  extra: stockOrderExtra,
  example: {
    body: {
      sym: 'NVDAc',
      side: 'buy',
      amount: '500',
      taker: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 100,
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildStockOrder(ctx.deps.builders, body),
})
