import { buildUniAdd, uniAddAction, uniAddBody } from '../../../../builders/lp/lpUniAdd.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'
import { exampleOutput } from '../../../shared/exampleOutput.js'
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
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildUniAdd(ctx.deps.builders, body),
})
