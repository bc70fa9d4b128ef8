import { z } from 'zod'
import { buildAeroAdd } from '../builders/lpAeroAdd.js'
import { buildAeroRemove } from '../builders/lpAeroRemove.js'
import { buildUniAdd } from '../builders/lpUniAdd.js'
import { buildUniCollect } from '../builders/lpUniCollect.js'
import { buildUniRemove } from '../builders/lpUniRemove.js'
import { builder, owner } from './builder.js'
import { address, atomicAmount, nftTokenId, positiveAtomicAmount, slippageBpsBody } from './fields.js'

/** Section E: liquidity on Aerodrome and Uniswap v3. */
const uniFee = z.union([z.literal(100), z.literal(500), z.literal(3000), z.literal(10000)])
const TICK_MAX = 887272
const tick = z.number().int().min(-TICK_MAX).max(TICK_MAX)

const aeroPair = {
  tokenA: address.describe(
    'A listed ERC-20, or native ETH as 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE (the token/WETH pool, through the router’s ETH variants)',
  ),
  tokenB: address.describe('The other listed ERC-20 (or native ETH, on one side at most)'),
}
const uniPair = {
  tokenA: address.describe('A listed ERC-20 (native ETH is refused: the pools hold WETH)'),
  tokenB: address.describe('The other listed ERC-20'),
}
const nativeSide = z
  .enum(['tokenA', 'tokenB'])
  .nullable()
  .describe(
    'The body side given as native ETH (the router wraps or unwraps it against the WETH pool), or null for two ERC-20s',
  )

/** Errors every liquidity builder shares, for the descriptions. */
const COMMON_ERRORS =
  ' Errors: 400 invalid_input naming the field (a malformed or zero amount, slippageBps outside 0..5000, native ETH where a builder takes none, the same token twice); 422 unlisted_target (a token outside the address book), not_a_token, insufficient_balance, simulation_reverted (the bundle reverts when simulated from the owner, with the decoded reason). Nothing is charged unless the answer is 200.'
const MINS =
  ' Mins are the quoted amounts less slippageBps (rounded down); the deadline in calldata is `expiresAt`.'
const TICK_NOTE =
  'Full range (±887272 rounded toward zero to the tier’s tick spacing: 1, 10, 60, 200 for fees 100, 500, 3000, 10000) unless both tickLower and tickUpper are given; a given tick must be a multiple of the spacing (never rounded: 400 invalid_input naming the tick, details.tickSpacing). Keep unattended positions full range.'

export const aeroAddBuilder = builder({
  id: 'buildAeroAdd',
  path: '/v1/tx/lp/aero/add',
  summary: 'Add liquidity to a volatile Aerodrome pair',
  description: `Router.addLiquidity(tokenA, tokenB, stable = false, amountA, amountB, mins, to = owner, deadline) into the pair’s existing volatile pool (the builder never creates one). The router takes the amounts that keep the pool’s ratio (quoteAddLiquidity, read at the quote: \`amountA\`/\`amountB\` in the action, at most the desired ones); the rest stays with the owner. The router is given, as its desired amounts, each side’s quote grossed up by the slippage (\`amountAMax\`/\`amountBMax\`, never above the ask), and exactly those are approved to the router when the allowance is short: reserves moved before inclusion can take neither more than the max nor less than the min of a side. One side may be native ETH (0xEeee…EEeE): then the step is addLiquidityETH(token, false, tokenDesired, tokenMin, ethMin, owner, deadline) with the ETH max as \`value\` into the token/WETH pool; the router wraps what the pool takes and refunds the rest in the same transaction, and only the ERC-20 side is approved.${MINS} LP tokens are the pool’s ERC-20 (\`action.pool\`) and earn trading fees while not staked. Refusals: 422 pool_not_found naming tokenB (no volatile pool for the pair), 422 pool_empty naming tokenB (the pool holds no liquidity: a first deposit would set its price), 422 amounts_too_small naming amountA (no LP minted), 422 insufficient_balance naming the native side when the owner holds less ETH than the max sent as value.${COMMON_ERRORS}`,
  body: z.strictObject({
    ...aeroPair,
    amountA: positiveAtomicAmount.describe('Most tokenA to deposit, atomic'),
    amountB: positiveAtomicAmount.describe('Most tokenB to deposit, atomic'),
    owner,
    slippageBps: slippageBpsBody(),
  }),
  action: {
    type: z.literal('aeroAdd'),
    pool: address.describe('The volatile pool, which is also the LP token'),
    nativeSide,
    amountA: atomicAmount.describe('tokenA the router takes at the quote'),
    amountB: atomicAmount.describe('tokenB the router takes at the quote'),
    amountAMin: atomicAmount.describe('Least tokenA the add may take (slippage floor)'),
    amountBMin: atomicAmount.describe('Least tokenB the add may take (slippage floor)'),
    amountAMax: atomicAmount.describe(
      'Most tokenA the add may take: amountA / (1 − slippageBps/10⁴) rounded up, at most the ask (the ask itself when slippageBps is 0); the router’s amountADesired and the approve (for ETH, the value sent)',
    ),
    amountBMax: atomicAmount.describe('Most tokenB the add may take, likewise'),
    expectedLiquidity: atomicAmount.describe('LP tokens minted at the quote'),
  },
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
          data: '0x095ea7b3000000000000000000000000cf77a3ba9a5ca399b7c97c74d54e5b1beb874e43000000000000000000000000000000000000000000000000016345785d8a0000',
          value: '0',
          description: 'Approve 0.1 WETH to the Aerodrome router',
        },
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b3000000000000000000000000cf77a3ba9a5ca399b7c97c74d54e5b1beb874e430000000000000000000000000000000000000000000000000000000011e1a300',
          value: '0',
          description: 'Approve 300 USDC to the Aerodrome router',
        },
        {
          to: '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43',
          data: '0x5a47ddc30000000000000000000000004200000000000000000000000000000000000006000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000016345785d8a00000000000000000000000000000000000000000000000000000000000011e1a30000000000000000000000000000000000000000000000000001617eb90b26c0000000000000000000000000000000000000000000000000000000000011cabfa000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000006b043868',
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

export const aeroRemoveBuilder = builder({
  id: 'buildAeroRemove',
  path: '/v1/tx/lp/aero/remove',
  summary: 'Remove liquidity from a volatile Aerodrome pair',
  description: `Router.removeLiquidity(tokenA, tokenB, stable = false, liquidity, mins, to = owner, deadline): burns \`liquidity\` LP tokens of the pair’s volatile pool for both tokens. With one side native ETH the step is removeLiquidityETH(token, false, liquidity, tokenMin, ethMin, owner, deadline): the WETH side is unwrapped and paid as ETH. The LP token is the pool itself; an exact approve of it to the router is prepended when short (the pool is accepted as a target because the listed PoolFactory reports it for two listed tokens; a pool address is never taken from the caller). Expected amounts from quoteRemoveLiquidity at the quote.${MINS} Refusals: 422 pool_not_found naming tokenB, 422 insufficient_balance naming liquidity (the owner holds fewer LP tokens), 422 amounts_too_small naming liquidity (dust that returns nothing on a side).${COMMON_ERRORS}`,
  body: z.strictObject({
    ...aeroPair,
    liquidity: positiveAtomicAmount.describe('LP tokens to burn, atomic (18 decimals)'),
    owner,
    slippageBps: slippageBpsBody(),
  }),
  action: {
    type: z.literal('aeroRemove'),
    pool: address.describe('The volatile pool, which is also the LP token'),
    nativeSide,
    amountA: atomicAmount.describe('tokenA paid out at the quote'),
    amountB: atomicAmount.describe('tokenB paid out at the quote'),
    amountAMin: atomicAmount.describe('Least tokenA the remove may pay (slippage floor)'),
    amountBMin: atomicAmount.describe('Least tokenB the remove may pay (slippage floor)'),
  },
  example: {
    body: {
      tokenA: '0x4200000000000000000000000000000000000006',
      tokenB: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      liquidity: '5477225575',
      owner: '0xbcd4042de499d14e55001ccbb24a551f3b954096',
      slippageBps: 50,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xAE130edbE1A17824F82970664A96bAAF847D1566',
          data: '0x095ea7b3000000000000000000000000cf77a3ba9a5ca399b7c97c74d54e5b1beb874e43000000000000000000000000000000000000000000000000000000014677d467',
          value: '0',
          description: 'Approve 5477225575 vAMM-WETH/USDC LP to the Aerodrome router',
        },
        {
          to: '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43',
          data: '0x0dede6c40000000000000000000000004200000000000000000000000000000000000006000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000014677d46700000000000000000000000000000000000000000000000000005a7ea627b4540000000000000000000000000000000000000000000000000000000000048e03000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b954096000000000000000000000000000000000000000000000000000000006b0438ab',
          value: '0',
          description: 'Remove 5477225575 LP from vAMM-WETH/USDC',
        },
      ],
      action: {
        type: 'aeroRemove',
        pool: '0xAE130edbE1A17824F82970664A96bAAF847D1566',
        nativeSide: null,
        amountA: '99999999999056',
        amountB: '299999',
        amountAMin: '99499999999060',
        amountBMin: '298499',
      },
    },
  },
  handler: (body, ctx) => buildAeroRemove(ctx.deps.builders, body),
})

export const uniAddBuilder = builder({
  id: 'buildUniAdd',
  path: '/v1/tx/lp/uni/add',
  summary: 'Mint a concentrated-liquidity position (full range by default)',
  description: `NonfungiblePositionManager.mint(token0, token1, fee, ticks, desired amounts, mins, recipient = owner, deadline) into the pair’s existing, initialised pool at \`fee\` (the builder never creates one). ${TICK_NOTE} The liquidity is what the NPM computes from the desired amounts at the pool’s current sqrtPrice (LiquidityAmounts), and \`amount0\`/\`amount1\` what the pool pulls for it (rounded up); the rest stays with the owner. Amounts in the action follow the pool’s order (token0 < token1 by address). The mint is given, as its desired amounts, each side’s quote grossed up by the slippage (\`amount0Max\`/\`amount1Max\`: amount / (1 − slippageBps/10⁴), rounded up, never above the ask), and exactly those are approved to the NPM when the allowance is short: a price moved before inclusion can take neither more than the max nor less than the min of a side.${MINS} The new tokenId is in the mint’s Transfer/IncreaseLiquidity logs. Refusals: 422 pool_not_found naming fee (no initialised pool at that tier), 422 amounts_too_small naming amountA (no liquidity at this price).${COMMON_ERRORS}`,
  body: z
    .strictObject({
      ...uniPair,
      fee: uniFee.describe('Pool fee tier: 100, 500, 3000 or 10000'),
      amountA: atomicAmount.describe('Atomic tokenA; 0 only with a tick range that takes tokenB alone'),
      amountB: atomicAmount.describe('Atomic tokenB; 0 only with a tick range that takes tokenA alone'),
      owner,
      tickLower: tick.optional(),
      tickUpper: tick.optional(),
      slippageBps: slippageBpsBody(),
    })
    .refine((b) => (b.tickLower === undefined) === (b.tickUpper === undefined), {
      error: 'must be given together with tickUpper (or neither, for full range).',
      path: ['tickLower'],
    })
    .refine((b) => b.tickLower === undefined || b.tickUpper === undefined || b.tickLower < b.tickUpper, {
      error: 'must be below tickUpper.',
      path: ['tickLower'],
    })
    // A full-range position takes both tokens; only a range entirely off the price takes one side alone.
    .refine((b) => b.amountA !== '0' || (b.tickLower !== undefined && b.amountB !== '0'), {
      error: 'must be positive: 0 is allowed only with tickLower/tickUpper, and never on both sides.',
      path: ['amountA'],
    })
    .refine((b) => b.amountB !== '0' || (b.tickLower !== undefined && b.amountA !== '0'), {
      error: 'must be positive: 0 is allowed only with tickLower/tickUpper, and never on both sides.',
      path: ['amountB'],
    }),
  action: {
    type: z.literal('uniAdd'),
    pool: address.describe('The Uniswap v3 pool'),
    token0: address.describe('The pool’s token0 (the lower address)'),
    token1: address.describe('The pool’s token1'),
    fee: z.number().int().describe('The fee tier'),
    tickLower: z.number().int().describe('Lower tick of the range (a multiple of the spacing)'),
    tickUpper: z.number().int().describe('Upper tick of the range'),
    fullRange: z.boolean().describe('Whether the range is the tier’s full range'),
    sqrtPriceX96: atomicAmount.describe('The pool’s sqrtPriceX96 at the quote'),
    tick: z.number().int().describe('The pool’s current tick at the quote'),
    liquidity: atomicAmount.describe('Liquidity minted at the quote'),
    amount0: atomicAmount.describe('token0 the pool takes at the quote'),
    amount1: atomicAmount.describe('token1 the pool takes at the quote'),
    amount0Min: atomicAmount.describe('Least token0 the mint may take (slippage floor)'),
    amount1Min: atomicAmount.describe('Least token1 the mint may take (slippage floor)'),
    amount0Max: atomicAmount.describe(
      'Most token0 the mint may take: amount0 / (1 − slippageBps/10⁴) rounded up, at most the ask; the mint’s amount0Desired and the approve',
    ),
    amount1Max: atomicAmount.describe('Most token1 the mint may take, likewise'),
  },
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
          data: '0x095ea7b300000000000000000000000003a520b32c04bf3beef7beb72e919cf822ed34f1000000000000000000000000000000000000000000000000015d176d99fe6a00',
          value: '0',
          description: 'Approve 0.098260526374480384 WETH to the Uniswap position manager',
        },
        {
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b300000000000000000000000003a520b32c04bf3beef7beb72e919cf822ed34f10000000000000000000000000000000000000000000000000000000011e1a300',
          value: '0',
          description: 'Approve 300 USDC to the Uniswap position manager',
        },
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: '0x883164560000000000000000000000004200000000000000000000000000000000000006000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda0291300000000000000000000000000000000000000000000000000000000000001f4fffffffffffffffffffffffffffffffffffffffffffffffffffffffffff2761a00000000000000000000000000000000000000000000000000000000000d89e6000000000000000000000000000000000000000000000000015d176d99fe6a000000000000000000000000000000000000000000000000000000000011e1a300000000000000000000000000000000000000000000000000015625042cf88ec00000000000000000000000000000000000000000000000000000000011b3dc4000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000006b043798',
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

export const uniRemoveBuilder = builder({
  id: 'buildUniRemove',
  path: '/v1/tx/lp/uni/remove',
  summary: 'Decrease a position’s liquidity and collect (0 claims fees only)',
  description: `NPM multicall([decreaseLiquidity(tokenId, liquidity, mins, deadline), collect(tokenId, owner, max, max)]): the freed tokens and every fee owed go to \`owner\`, who must hold the NFT or be approved for it. \`liquidity\` "0" claims the fees without touching the liquidity (a lone collect: the NPM refuses a decrease of 0). \`burn: true\` appends burn(tokenId) and needs \`liquidity\` to be the position’s whole liquidity (never implied: a full removal without it keeps the empty NFT). Expected amounts are what the pool credits for \`liquidity\` at its current price (rounded down); \`fees0\`/\`fees1\` are the fees owed at the quote (tokensOwed plus the fee growth inside the range since the position’s snapshot, as collect computes it).${MINS} Refusals: 422 position_not_found naming tokenId, 422 not_position_owner naming owner, 422 exceeds_position_liquidity naming liquidity (details.positionLiquidity), 422 burn_needs_full_removal naming burn.${COMMON_ERRORS}`,
  body: z.strictObject({
    tokenId: nftTokenId,
    liquidity: atomicAmount.describe('uint128 liquidity to remove; "0" collects fees only'),
    owner,
    slippageBps: slippageBpsBody(),
    burn: z
      .boolean()
      .default(false)
      .describe('Burn the NFT after a full removal (liquidity must be all of it); default false'),
  }),
  action: {
    type: z.literal('uniRemove'),
    tokenId: nftTokenId,
    liquidity: atomicAmount.describe('Liquidity removed'),
    token0: address.describe('The pool’s token0'),
    token1: address.describe('The pool’s token1'),
    amount0: atomicAmount.describe('token0 freed by the decrease at the quote (fees excluded)'),
    amount1: atomicAmount.describe('token1 freed by the decrease at the quote (fees excluded)'),
    amount0Min: atomicAmount.describe('Least token0 the decrease may free (slippage floor)'),
    amount1Min: atomicAmount.describe('Least token1 the decrease may free (slippage floor)'),
    fees0: atomicAmount.describe('token0 fees owed at the quote, paid by the same collect'),
    fees1: atomicAmount.describe('token1 fees owed at the quote, paid by the same collect'),
    liquidityAfter: atomicAmount.describe('The position’s liquidity after the step'),
    burned: z.boolean().describe('Whether the step burns the NFT'),
  },
  example: {
    body: {
      tokenId: '1',
      liquidity: '182574185835055371',
      owner: '0xbcd4042de499d14e55001ccbb24a551f3b954096',
      slippageBps: 100,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: '0xac9650d8000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000000000012000000000000000000000000000000000000000000000000000000000000000a40c49ccbe00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000288a24133dac90b0000000000000000000000000000000000000000000000b09b7831427fd7e9170000000000000000000000000000000000000000000000000000091edc39d81c000000000000000000000000000000000000000000000000000000006b042fce000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000084fc6f78650000000000000000000000000000000000000000000000000000000000000001000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b95409600000000000000000000000000000000ffffffffffffffffffffffffffffffff00000000000000000000000000000000ffffffffffffffffffffffffffffffff00000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Remove 182574185835055371 liquidity from position 1 and collect',
        },
      ],
      action: {
        type: 'uniRemove',
        tokenId: '1',
        liquidity: '182574185835055371',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amount0: '3290737086068330961737',
        amount1: '10129442876021',
        amount0Min: '3257829715207647652119',
        amount1Min: '10028148447260',
        fees0: '0',
        fees1: '129507629',
        liquidityAfter: '182574185835055371',
        burned: false,
      },
    },
  },
  handler: (body, ctx) => buildUniRemove(ctx.deps.builders, body),
})

export const uniCollectBuilder = builder({
  id: 'buildUniCollect',
  path: '/v1/tx/lp/uni/collect',
  summary: 'Collect a position’s accrued fees',
  description: `NonfungiblePositionManager.collect(tokenId, recipient = owner, max, max): every fee owed goes to \`owner\` (the NFT’s holder or approved for it); the liquidity stays. \`fees0\`/\`fees1\`: the fees owed at the quote (tokensOwed plus the fee growth inside the range since the position’s snapshot, as collect computes it); the simulation’s balance changes show the same. Refusals: 422 position_not_found naming tokenId, 422 not_position_owner naming owner.${COMMON_ERRORS}`,
  body: z.strictObject({ tokenId: nftTokenId, owner }),
  action: {
    type: z.literal('uniCollect'),
    tokenId: nftTokenId,
    token0: address.describe('The pool’s token0'),
    token1: address.describe('The pool’s token1'),
    fees0: atomicAmount.describe('token0 fees owed at the quote'),
    fees1: atomicAmount.describe('token1 fees owed at the quote'),
  },
  example: {
    body: {
      tokenId: '1',
      owner: '0xbcd4042de499d14e55001ccbb24a551f3b954096',
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: '0xfc6f78650000000000000000000000000000000000000000000000000000000000000001000000000000000000000000bcd4042de499d14e55001ccbb24a551f3b95409600000000000000000000000000000000ffffffffffffffffffffffffffffffff00000000000000000000000000000000ffffffffffffffffffffffffffffffff',
          value: '0',
          description: 'Collect the fees of position 1',
        },
      ],
      action: {
        type: 'uniCollect',
        tokenId: '1',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        fees0: '0',
        fees1: '129507629',
      },
    },
  },
  handler: (body, ctx) => buildUniCollect(ctx.deps.builders, body),
})
