import { aeroRemoveAction, aeroRemoveBody, buildAeroRemove } from '../../../../builders/lp/lpAeroRemove.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'
import { exampleOutput } from '../../../shared/exampleOutput.js'
import { COMMON_ERRORS, MINS } from '../../../shared/lpFields.js'

export const buildAeroRemoveRoute = builder({
  id: 'buildAeroRemove',
  path: '/v1/tx/lp/aero/remove',
  priceUsd: PRICES.buildAeroRemove,
  errors: ['pool_not_found', 'amounts_too_small', 'insufficient_balance'],
  summary: 'Remove liquidity from a volatile Aerodrome pair',
  description: prose`
    Router.removeLiquidity(tokenA, tokenB, stable = false, liquidity, mins, to = owner, deadline): burns
    \`liquidity\` LP tokens of the pair’s volatile pool for both tokens. With one side native ETH the step
    is removeLiquidityETH(token, false, liquidity, tokenMin, ethMin, owner, deadline): the WETH side is
    unwrapped and paid as ETH. The LP token is the pool itself; an exact approve of it to the router is
    prepended when short (the pool is accepted as a target because the listed PoolFactory reports it for two
    listed tokens; a pool address is never taken from the caller). Expected amounts from
    quoteRemoveLiquidity at the quote. ${MINS} Refusals: 422 pool_not_found naming tokenB, 422
    insufficient_balance naming liquidity (the owner holds fewer LP tokens), 422 amounts_too_small naming
    liquidity (dust that returns nothing on a side). ${COMMON_ERRORS}`,
  body: aeroRemoveBody,
  action: aeroRemoveAction,
  example: {
    body: {
      tokenA: '0x4200000000000000000000000000000000000006',
      tokenB: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      liquidity: '5477225575',
      owner: '0xbcd4042de499d14e55001ccbb24a551f3b954096',
      slippageBps: 50,
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildAeroRemove(ctx.deps.builders, body),
})
