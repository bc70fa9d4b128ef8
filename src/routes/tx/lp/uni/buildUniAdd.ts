import { buildUniAdd, uniAddAction, uniAddBody } from '../../../../builders/lpUniAdd.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'
import { hex } from '../../../shared/builderExample.js'
import { COMMON_ERRORS, MINS } from '../../../shared/lpFields.js'

const TICK_NOTE = prose`
  Full range (±887272 rounded toward zero to the tier’s tick spacing: 1, 10, 60, 200 for fees 100, 500,
  3000, 10000) unless both tickLower and tickUpper are given; a given tick must be a multiple of the spacing
  (never rounded: 400 invalid_input naming the tick, details.tickSpacing). Keep unattended positions full
  range.`

export const buildUniAddRoute = builder({
  id: 'buildUniAdd',
  path: '/v1/tx/lp/uni/add',
  priceUsd: PRICES.buildUniAdd,
  errors: ['pool_not_found', 'amounts_too_small', 'not_a_token', 'insufficient_balance'],
  summary: 'Mint a concentrated-liquidity position (full range by default)',
  description: prose`
    NonfungiblePositionManager.mint(token0, token1, fee, ticks, desired amounts, mins, recipient = owner,
    deadline) into the pair’s existing, initialised pool at \`fee\` (the builder never creates one).
    ${TICK_NOTE} The liquidity is what the NPM computes from the desired amounts at the pool’s current
    sqrtPrice (LiquidityAmounts), and \`amount0\`/\`amount1\` what the pool pulls for it (rounded up); the
    rest stays with the owner. Amounts in the action follow the pool’s order (token0 < token1 by address).
    The mint is given, as its desired amounts, each side’s quote grossed up by the slippage
    (\`amount0Max\`/\`amount1Max\`: amount / (1 − slippageBps/10⁴), rounded up, never above the ask), and
    exactly those are approved to the NPM when the allowance is short: a price moved before inclusion can
    take neither more than the max nor less than the min of a side. ${MINS} The new tokenId is in the mint’s
    Transfer/IncreaseLiquidity logs. Refusals: 422 pool_not_found naming fee (no initialised pool at that
    tier), 422 amounts_too_small naming amountA (no liquidity at this price). ${COMMON_ERRORS}`,
  body: uniAddBody,
  action: uniAddAction,
  example: {
    body: {
      tokenA: '0x4200000000000000000000000000000000000006',
      tokenB: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      fee: 500,
      amountA: '100000000000000000',
      amountB: '300000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 100,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x4200000000000000000000000000000000000006',
          data: hex`
            0x095ea7b3
            00000000000000000000000003a520b32c04bf3beef7beb72e919cf822ed34f1
            000000000000000000000000000000000000000000000000015d176d99fe6a00`,
          value: '0',
          description: 'Approve 0.098260526374480384 WETH to the Uniswap position manager',
        },
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: hex`
            0x095ea7b3
            00000000000000000000000003a520b32c04bf3beef7beb72e919cf822ed34f1
            0000000000000000000000000000000000000000000000000000000011e1a300`,
          value: '0',
          description: 'Approve 300 USDC to the Uniswap position manager',
        },
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: hex`
            0x88316456
            0000000000000000000000004200000000000000000000000000000000000006
            000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda02913
            00000000000000000000000000000000000000000000000000000000000001f4
            fffffffffffffffffffffffffffffffffffffffffffffffffffffffffff2761a
            00000000000000000000000000000000000000000000000000000000000d89e6
            000000000000000000000000000000000000000000000000015d176d99fe6a00
            0000000000000000000000000000000000000000000000000000000011e1a300
            000000000000000000000000000000000000000000000000015625042cf88ec0
            0000000000000000000000000000000000000000000000000000000011b3dc40
            00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8
            000000000000000000000000000000000000000000000000000000006b043798`,
          value: '0',
          description: 'Mint a full-range WETH/USDC 0.05% position (ticks -887270..887270)',
        },
      ],
      action: {
        type: 'uniAdd',
        pool: '0xd0b53D9277642d899DF5C87A3966A349A798F224',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        fee: 500,
        tickLower: -887270,
        tickUpper: 887270,
        fullRange: true,
        sqrtPriceX96: '4399801370505477282070528',
        tick: -195981,
        liquidity: '5402164041680',
        amount0: '97277921110735580',
        amount1: '300000000',
        amount0Min: '96305141899628224',
        amount1Min: '297000000',
        amount0Max: '98260526374480384',
        amount1Max: '300000000',
      },
    },
  },
  handler: (body, ctx) => buildUniAdd(ctx.deps.builders, body),
})
