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
import { hex } from '../shared/builderExample.js'

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
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x2626664c2603336E57B271c5C0b26F421741e481',
          data: hex`
            0x5ae401dc
            000000000000000000000000000000000000000000000000000000006b03c88c
            0000000000000000000000000000000000000000000000000000000000000040
            0000000000000000000000000000000000000000000000000000000000000001
            0000000000000000000000000000000000000000000000000000000000000020
            00000000000000000000000000000000000000000000000000000000000000e4
            04e45aaf000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54
            bda02913000000000000000000000000b20000000000000000000078ee7ce2fe
            4908108c00000000000000000000000000000000000000000000000000000000
            00000bb800000000000000000000000070997970c51812dc3a010c7d01b50e0d
            17dc79c800000000000000000000000000000000000000000000000000000000
            1dcd650000000000000000000000000000000000000000000000000000000000
            1028313400000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000`,
          value: '0',
          description: 'Buy at least 2.71069492 NVDAc with 500 USDC in the 0.3% pool',
        },
      ],
      action: {
        type: 'stockOrder',
        sym: 'NVDAc',
        side: 'buy',
        tokenIn: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amountIn: '500000000',
        tokenOut: '0xb20000000000000000000078ee7ce2fE4908108C',
        pool: '0x60661b315553EB81872deEA9a66d567Cf0CCd33B',
      },
      advisory: {
        amountOut: '273807568',
        amountOutMin: '271069492',
        pricePerShare: 182.61,
        feedUsd: 182.25,
        feedUpdatedAt: 1795409898,
        feedStale: false,
        vsFeedPct: 0.1975,
        multiplier: 1.0001,
        pool: { fee: 3000, usdc: 1250000, shares: 6850 },
      },
    },
  },
  handler: (body, ctx) => buildStockOrder(ctx.deps.builders, body),
})
