import { aeroAddAction, aeroAddBody, buildAeroAdd } from '../../../../builders/lp/lpAeroAdd.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'
import { exampleOutput } from '../../../shared/exampleOutput.js'
import { COMMON_ERRORS, MINS } from '../../../shared/lpFields.js'

export const buildAeroAddRoute = builder({
  id: 'buildAeroAdd',
  path: '/v1/tx/lp/aero/add',
  priceUsd: PRICES.buildAeroAdd,
  errors: ['pool_not_found', 'pool_empty', 'amounts_too_small', 'not_a_token', 'insufficient_balance'],
  summary: 'Add liquidity to a volatile Aerodrome pair',
  description: prose`
    Router.addLiquidity(tokenA, tokenB, stable = false, amountA, amountB, mins, to = owner, deadline) into
    the pair’s existing volatile pool (the builder never creates one). The router takes the amounts that
    keep the pool’s ratio (quoteAddLiquidity, read at the quote: \`amountA\`/\`amountB\` in the action, at
    most the desired ones); the rest stays with the owner. The router is given, as its desired amounts, each
    side’s quote grossed up by the slippage (\`amountAMax\`/\`amountBMax\`, never above the ask), and
    exactly those are approved to the router when the allowance is short: reserves moved before inclusion
    can take neither more than the max nor less than the min of a side. One side may be native ETH
    (0xEeee…EEeE): then the step is addLiquidityETH(token, false, tokenDesired, tokenMin, ethMin, owner,
    deadline) with the ETH max as \`value\` into the token/WETH pool; the router wraps what the pool takes
    and refunds the rest in the same transaction, and only the ERC-20 side is approved. ${MINS} LP tokens
    are the pool’s ERC-20 (\`action.pool\`) and earn trading fees while not staked. Refusals: 422
    pool_not_found naming tokenB (no volatile pool for the pair), 422 pool_empty naming tokenB (the pool
    holds no liquidity: a first deposit would set its price), 422 amounts_too_small naming amountA (no LP
    minted), 422 insufficient_balance naming the native side when the owner holds less ETH than the max sent
    as value. ${COMMON_ERRORS}`,
  body: aeroAddBody,
  action: aeroAddAction,
  example: {
    body: {
      tokenA: '0x4200000000000000000000000000000000000006',
      tokenB: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      amountA: '100000000000000000',
      amountB: '300000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 50,
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildAeroAdd(ctx.deps.builders, body),
})
