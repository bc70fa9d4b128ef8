import { buildSwap, swapAction, swapBody } from '../../builders/swap/swap.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { builder } from '../shared/builder.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const buildSwapRoute = builder({
  id: 'buildSwap',
  path: '/v1/tx/swap',
  priceUsd: PRICES.buildSwap,
  errors: ['not_a_token', 'insufficient_balance', 'no_liquidity', 'upstream_not_found'],
  summary: 'Swap calldata: the 0x quote, or the best Uniswap v3 / Aerodrome pool',
  description: prose`
    Ordered unsigned steps that swap \`fromAmount\` (atomic) of \`fromToken\` into \`toToken\` for
    \`taker\`, who holds fromToken, sends the steps and receives toToken. Both tokens must be in the
    network’s address book (USDC, WETH, cbBTC, the catalog’s vault and Aave tokens, the tokenized stocks,
    UTIL); anything else is 422 \`unlisted_target\` naming the field. Native ETH is the sentinel
    0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE on either side.

    Source (\`action.quotedBy\`): \`0x\` when the service has a 0x API key: the 0x Swap API v2
    allowance-holder \`quote\` for taker (slippageBps passed on); an exact approve of fromToken to 0x
    AllowanceHolder (the quote’s \`issues.allowance.spender\`; any other spender, a transaction to anything
    but AllowanceHolder, ETH attached other than the ETH sold, or a minBuyAmount looser than slippageBps is
    refused as 502), then the quote’s transaction exactly as quoted (to, data, value); expectedOut = its
    buyAmount, minOut = its minBuyAmount (enforced by 0x’s Settler), route = its fills, zid = its id.

    \`onchain\` otherwise: one multicall reads the taker’s balance and allowances and every venue’s quote
    (Uniswap v3 QuoterV2 over the 0.01/0.05/0.3/1 % tiers; the Aerodrome router’s volatile and stable pools,
    for ERC-20 pairs other than the tokenized stocks: those are B20 precompiles without bytecode on Base,
    and Aerodrome’s Router requires code), the best output wins (route: that one pool, \`source\` Uniswap_V3, Aerodrome_V2
    or WETH, from/to as in the body), minOut = floor(expectedOut × (10000 − slippageBps) / 10000); Uniswap:
    SwapRouter02 \`multicall(deadline, [exactInputSingle])\` (ETH in as value; ETH out swapped to the router
    then \`unwrapWETH9(minOut, taker)\`); Aerodrome: \`swapExactTokensForTokens\`; router deadlines =
    \`expiresAt\`; ETH ⇄ WETH is WETH9 \`deposit\`/\`withdraw\`. An approve step (exact, to the router that
    pulls) is prepended only when the live allowance is short.

    \`signerAddress\` (smart wallets): passed to 0x as \`txOrigin\` (the externally owned account that
    starts the transaction when taker is a contract); taker stays the payer and recipient; the onchain path
    does not use it. The allowance-holder flow needs no signature, so \`action.signingPayload\` is always
    null (0x’s Permit2 flow, which needs one, is not used).

    Errors: 400 naming the field (unknown property, fromAmount 0, slippageBps outside 0..5000, toToken =
    fromToken); 422 \`insufficient_balance\` (fromAmount), \`unlisted_target\` or \`not_a_token\` (the token
    field); 409 \`no_liquidity\`; 422 \`simulation_reverted\` with the failing step and decoded reason (e.g.
    a minimum the pool can no longer meet); 502 when 0x or the RPC fails or 0x quotes something refused, and
    when the bundle, simulated from taker, takes more than fromAmount or pays taker less than minOut (a
    quote that pays someone else). taker and signerAddress may not be the zero address (400). None is
    charged.`,
  body: swapBody,
  action: swapAction,
  // The smallest real build (a wrap): a pool swap's calldata would push the 402 challenge, which clients
  // echo in a request header, past header limits. The description covers the swap paths.
  example: {
    body: {
      fromToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      toToken: '0x4200000000000000000000000000000000000006',
      fromAmount: '250000000000000000',
      taker: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 50,
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildSwap(ctx.deps.builders, ctx.deps.market.zeroEx, body),
})
