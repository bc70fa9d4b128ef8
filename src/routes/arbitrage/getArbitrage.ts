import { arbitrageOutput, arbitrageQuery, getArbitrage } from '../../market/arbitrage/getArbitrage.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getArbitrageRoute = defineRoute({
  id: 'getArbitrage',
  method: 'GET',
  path: '/v1/arbitrage',
  priceUsd: PRICES.getArbitrage,
  errors: ['upstream_not_found'],
  tier: 'alpha',
  summary: 'Ranked arbitrage cycles back into `target`, each leg a POST /v1/tx/swap body',
  description: prose`
    Indicative, not advice. Cycles that sell \`budget\` USD of \`target\` and buy more of it back, through
    the venues POST /v1/tx/swap builds on, ranked by net dollars after gas.

    Target → token: USDC; WETH; ETH = native ETH (the sentinel 0xEeee…; pools trade it as WETH, on Uniswap
    only, as POST /v1/tx/swap builds it); xBTC = cbBTC; xETH = cbETH; xADA and xXRP have no token in the
    network’s address book (200, routes [], reason).

    Reference prices (USD per whole token, independent of the pools, all listed in \`referencePrices\`):
    USDC at par 1; WETH/ETH the exchange’s ETH-USD last trade; cbBTC BTC-USD; cbETH CBETH-USD when the
    exchange lists it. No reference price for the target (or ETH-USD for gas) → 200, routes [], reason.

    Cycles: through the intermediates USDC, WETH, cbBTC (minus the target’s own ERC-20; WETH for ETH), two
    legs T→X→T and three legs T→X→Y→T (X ≠ Y).

    Sizing: leg 1 sells amountIn = floor(budget / referencePrice × 10^decimals) of the target (a budget
    buying 0 units, or more than a uint256 amount holds, → 200, routes [], reason); each later leg sells
    exactly the previous leg’s minOut, so every leg can execute whatever the previous one filled within its
    slippage, and what a leg fills above its minOut stays with the taker (leftoverUsd, at that token’s
    reference price).

    Each leg is quoted for \`taker\` by the source POST /v1/tx/swap uses: the 0x Swap API when the service
    has a key, else the best single pool read onchain (Uniswap v3 QuoterV2 over the fee tiers, the Aerodrome
    router); a leg without liquidity, or with a zero minOut, drops its cycle. Legs use min(slippageBps,
    5000) (POST /v1/tx/swap allows at most 5000) and minOut = floor(expectedOut × (10000 − that) / 10000).

    Gas: Σ per leg of the swap transaction’s gas as GET /v1/swap/price reports it (onchain: QuoterV2’s
    pool-swap estimate, or 110,000 for an Aerodrome swap, + 21,000 intrinsic + 40,000 router overhead; 0x:
    its own estimate, or when it gives none the Aerodrome figure) + 46,000 for an approve on every
    ERC-20-selling leg (an upper bound: the builder only adds it when the allowance is short; L1 data fee
    excluded), × the latest block’s base fee, × ETH-USD.

    feesUsd = Σ amountIn × pool fee bps / 10000 at the sold token’s price (+ 0x’s fee): informational,
    already inside the quoted outputs, so not subtracted again.

    netUsd = expectedOut × price(target) + leftoverUsd − amountIn × price(target) − gasUsd; minOutUsd =
    final minOut × price(target) (worst case, leftovers may be 0). USD rounded to 1e-6.

    Only netUsd > 0 is listed, by netUsd descending (ties: path joined by spaces, ascending), at most 10,
    rank from 1; none → 200 with routes [] and \`reason\`.

    Execute a route by building and sending each leg’s \`swap\` body with POST /v1/tx/swap, in order.
    Errors: 400 naming the field (taker missing, malformed or the zero address, budget < 0, slippageBps
    outside 0..10000, unknown target); 502 when the exchange or the chain fails. None is charged.`,
  input: {
    query: arbitrageQuery,
  },
  output: arbitrageOutput,
  example: {
    query: {
      target: 'USDC',
      budget: '100',
      taker: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      slippageBps: '50',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getArbitrage(ctx.deps.chain, ctx.deps.market, query),
})
