import { aeroAddAction, aeroAddBody, buildAeroAdd } from '../../../../builders/lpAeroAdd.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'
import { hex } from '../../../shared/builderExample.js'
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
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x4200000000000000000000000000000000000006',
          data: hex`
            0x095ea7b3
            000000000000000000000000cf77a3ba9a5ca399b7c97c74d54e5b1beb874e43
            000000000000000000000000000000000000000000000000016345785d8a0000`,
          value: '0',
          description: 'Approve 0.1 WETH to the Aerodrome router',
        },
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: hex`
            0x095ea7b3
            000000000000000000000000cf77a3ba9a5ca399b7c97c74d54e5b1beb874e43
            0000000000000000000000000000000000000000000000000000000011e1a300`,
          value: '0',
          description: 'Approve 300 USDC to the Aerodrome router',
        },
        {
          to: '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43',
          data: hex`
            0x5a47ddc3
            0000000000000000000000004200000000000000000000000000000000000006
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            0000000000000000000000000000000000000000000000000000000000000000
            000000000000000000000000000000000000000000000000016345785d8a0000
            0000000000000000000000000000000000000000000000000000000011e1a300
            00000000000000000000000000000000000000000000000001617eb90b26c000
            0000000000000000000000000000000000000000000000000000000011cabfa0
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            000000000000000000000000000000000000000000000000000000006b043868`,
          value: '0',
          description: 'Add up to 0.1 WETH + 300 USDC to the volatile Aerodrome WETH/USDC pool',
        },
      ],
      action: {
        type: 'aeroAdd',
        pool: '0xAE130edbE1A17824F82970664A96bAAF847D1566',
        nativeSide: null,
        amountA: '100000000000000000',
        amountB: '300000000',
        amountAMin: '99500000000000000',
        amountBMin: '298500000',
        amountAMax: '100000000000000000',
        amountBMax: '300000000',
        expectedLiquidity: '5477225575051',
      },
    },
  },
  handler: (body, ctx) => buildAeroAdd(ctx.deps.builders, body),
})
