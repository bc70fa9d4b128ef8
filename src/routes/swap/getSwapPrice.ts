import { getSwapPrice, swapPriceOutput, swapPriceQuery } from '../../market/swap/getSwapPrice.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getSwapPriceRoute = defineRoute({
  id: 'getSwapPrice',
  method: 'GET',
  path: '/v1/swap/price',
  priceUsd: PRICES.getSwapPrice,
  errors: ['no_liquidity', 'upstream_not_found'],
  tier: 'data',
  summary: 'Indicative swap quote (no calldata, reserves nothing)',
  description: prose`
    Expected output, minimum output after slippage, fee estimates and route for swapping \`fromAmount\`
    (atomic units) of \`fromToken\` into \`toToken\`; native ETH is the sentinel
    0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE on either side. Reserves no liquidity and returns no
    calldata; build the transaction with POST /v1/tx/swap. Source (\`quotedBy\`): \`0x\` = the 0x Swap API
    v2 allowance-holder price (when the service has a 0x API key; \`taker\` and \`slippageBps\` are passed
    to it, \`minOut\` is its minBuyAmount, \`route\` its fills); \`onchain\` = the best single-hop pool read
    from Base in one multicall (one more read for an Aerodrome winner’s fee): Uniswap v3 QuoterV2 over the
    0.01/0.05/0.3/1 % tiers and the Aerodrome router (volatile and stable), ETH priced as WETH on Uniswap
    only (the Aerodrome router takes no native ETH, so POST /v1/tx/swap routes it through Uniswap), the
    tokenized stocks on Uniswap only (B20 precompiles have no bytecode on Base, and Aerodrome requires it), ETH⇄WETH
    a 1:1 wrap through WETH9 (\`blockNumber\`: the block whose base fee priced it); there \`minOut\` =
    floor(expectedOut × (10000 − slippageBps) / 10000). Fees:
    \`poolFeeBps\` is the pool’s own fee, already inside expectedOut (null from 0x, which does not report
    it); \`aggregatorFee\` is 0x’s fee, already inside expectedOut (null onchain); \`gasEstimate\` is gas
    units of the swap transaction POST /v1/tx/swap would send, approvals excluded (0x: its estimate of the
    whole transaction; onchain: 21,000 intrinsic + 40,000 router overhead + QuoterV2’s estimate of the pool
    swap, or + 110,000 for an Aerodrome swap, whose router gives none; a wrap: 46,000 for WETH9 deposit,
    36,000 for withdraw); \`networkFeeWei\` = 0x’s totalNetworkFee, or gasEstimate × the read block’s base
    fee onchain (no priority fee; Base’s L1 data fee not included); \`gasUsd\` = networkFeeWei at the
    exchange’s ETH-USD price. Every unknown value is null, never 0. Quotes are cached 2 s (about one
    Base block) per identical request. Errors: 400 naming the field (\`toToken\` equal to \`fromToken\`,
    \`fromAmount\` 0); 409 \`no_liquidity\` when no pool can fill it; 502 with Retry-After when 0x or the
    RPC fails. None of them is charged.`,
  input: {
    query: swapPriceQuery,
  },
  output: swapPriceOutput,
  example: {
    query: {
      fromToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      toToken: '0x4200000000000000000000000000000000000006',
      fromAmount: '1000000000',
      taker: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ query }, ctx) => getSwapPrice(ctx.deps.chain, ctx.deps.market, query),
})
