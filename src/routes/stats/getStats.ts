import { getAddress } from 'viem'
import { getStats, statsOutput } from '../../market/stats/getStats.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { walletParams } from '../shared/readFields.js'

export const getStatsRoute = defineRoute({
  id: 'getStats',
  method: 'GET',
  path: '/v1/stats/{address}',
  priceUsd: PRICES.getStats,
  errors: [],
  tier: 'data',
  summary: 'Trading statistics over closed trades',
  description: prose`
    Statistics over every closed gTrade round trip of /v1/history/{address} (all pages, at most 5,000
    backend events; \`truncated\` true when there were more and the stats cover the newest). A win has pnl >
    0, a loss pnl < 0, a breakeven trade (pnl 0) is neither but counts in \`trades\`. winRate = wins /
    trades; netUsd = Σ pnl; grossProfit = Σ winning pnl; grossLoss = |Σ losing pnl| (positive); profitFactor
    = grossProfit / grossLoss, null when there are no losses (never Infinity); expectancyR = mean of pnl /
    R, where R is the loss at the stop when a stop was set at open (collateral × leverage × |open − sl| /
    open) and otherwise the collateral (the most an isolated trade can lose; the history carries no stops,
    so today R = collateral); avgWin = grossProfit / wins, avgLoss = grossLoss / losses (positive);
    bestTrade and worstTrade are the highest and lowest pnl. With no trades the counts and sums are 0 and
    every ratio, average and extreme is null. Round trips without a pnl from the backend are left out. A
    backend fault is a 502 and nothing is charged.`,
  input: { params: walletParams },
  output: statsOutput,
  example: {
    params: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ params }, ctx) => ({
    address: getAddress(params.address),
    ...(await getStats(ctx.deps.chain, ctx.deps.market, getAddress(params.address))),
  }),
})
