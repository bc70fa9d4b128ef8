import { z } from 'zod'
import { builder, owner } from './builder.js'
import { address, atomicAmount, nftTokenId, positiveAtomicAmount, slippageBpsBody } from './fields.js'

/** Section E: liquidity on Aerodrome and Uniswap v3. */
const uniFee = z.union([z.literal(100), z.literal(500), z.literal(3000), z.literal(10000)])
const TICK_MAX = 887272
const tick = z.number().int().min(-TICK_MAX).max(TICK_MAX)

const aeroPair = { tokenA: address, tokenB: address }

export const aeroAddBuilder = builder({
  id: 'buildAeroAdd',
  path: '/v1/tx/lp/aero/add',
  summary: 'Add liquidity to a volatile Aerodrome pair',
  description:
    'Router.addLiquidity(tokenA, tokenB, stable = false, amountADesired, amountBDesired, mins, to = owner, deadline). Approves for both sides prepended when short; mins follow slippageBps.',
  body: z.strictObject({
    ...aeroPair,
    amountA: positiveAtomicAmount,
    amountB: positiveAtomicAmount,
    owner,
    slippageBps: slippageBpsBody(5000),
    deadlineSec: z
      .number()
      .int()
      .min(30)
      .max(86_400)
      .default(1200)
      .describe('Seconds from now, default 1200'),
  }),
  action: { type: z.literal('aeroAdd'), pool: address, expectedLiquidity: atomicAmount },
  example: {
    body: {
      tokenA: '0x4200000000000000000000000000000000000006',
      tokenB: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      amountA: '100000000000000000',
      amountB: '300000000',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 50,
      deadlineSec: 1200,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x4200000000000000000000000000000000000006',
          data: '0x095ea7b3000000000000000000000000cf77a3ba9a5ca399b7c97c74d54e5b1beb874e43000000000000000000000000000000000000000000000000016345785d8a0000',
          value: '0',
          description: 'Approve 0.1 WETH to the router',
        },
        {
          to: '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43',
          data: '0x5a47ddc30000000000000000000000004200000000000000000000000000000000000006000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000016345785d8a00000000000000000000000000000000000000000000000000000000000011e1a30000000000000000000000000000000000000000000000000001617eb90b26c0000000000000000000000000000000000000000000000000000000000011cabfa000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000006b03cd00',
          value: '0',
          description: 'Add 0.1 WETH + 300 USDC to vAMM-WETH/USDC',
        },
      ],
      action: {
        type: 'aeroAdd',
        pool: '0xcDAC0d6c6C59727a65F871236188350531885C43',
        expectedLiquidity: '5477225575051',
      },
    },
  },
  capability: 'liquidity builders',
})

export const aeroRemoveBuilder = builder({
  id: 'buildAeroRemove',
  path: '/v1/tx/lp/aero/remove',
  summary: 'Remove liquidity from a volatile Aerodrome pair',
  description: 'Router.removeLiquidity for `liquidity` LP tokens to owner; LP approve prepended when short.',
  body: z.strictObject({
    ...aeroPair,
    liquidity: positiveAtomicAmount,
    owner,
    slippageBps: slippageBpsBody(5000),
    deadlineSec: z.number().int().min(30).max(86_400).default(1200),
  }),
  action: {
    type: z.literal('aeroRemove'),
    pool: address,
    amountAMin: atomicAmount,
    amountBMin: atomicAmount,
  },
  example: {
    body: {
      tokenA: '0x4200000000000000000000000000000000000006',
      tokenB: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
      liquidity: '5477225575051',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 50,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0xcDAC0d6c6C59727a65F871236188350531885C43',
          data: '0x095ea7b3000000000000000000000000cf77a3ba9a5ca399b7c97c74d54e5b1beb874e43000000000000000000000000000000000000000000000000000004fb4415b28b',
          value: '0',
          description: 'Approve the LP tokens to the router',
        },
        {
          to: '0xcF77a3Ba9A5CA399B7c97c74d54e5b1Beb874E43',
          data: '0x0dede6c40000000000000000000000004200000000000000000000000000000000000006000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000004fb4415b28b00000000000000000000000000000000000000000000000001617eb90b26c0000000000000000000000000000000000000000000000000000000000011cabfa000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000006b03cd00',
          value: '0',
          description: 'Remove liquidity from vAMM-WETH/USDC',
        },
      ],
      action: {
        type: 'aeroRemove',
        pool: '0xcDAC0d6c6C59727a65F871236188350531885C43',
        amountAMin: '99500000000000000',
        amountBMin: '298500000',
      },
    },
  },
  capability: 'liquidity builders',
})

export const uniAddBuilder = builder({
  id: 'buildUniAdd',
  path: '/v1/tx/lp/uni/add',
  summary: 'Mint a concentrated-liquidity position (full range by default)',
  description:
    'NonfungiblePositionManager.mint for tokenA/tokenB at `fee`. Full range unless tickLower and tickUpper are both given (keep unattended positions full range). Approves for both sides prepended when short.',
  body: z
    .strictObject({
      ...aeroPair,
      fee: uniFee.describe('Pool fee tier: 100, 500, 3000 or 10000'),
      amountA: atomicAmount.describe('Atomic tokenA; 0 only with a tick range that takes tokenB alone'),
      amountB: atomicAmount.describe('Atomic tokenB; 0 only with a tick range that takes tokenA alone'),
      owner,
      tickLower: tick.optional(),
      tickUpper: tick.optional(),
      slippageBps: slippageBpsBody(5000),
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
    pool: address,
    tickLower: z.number().int(),
    tickUpper: z.number().int(),
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
          to: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          data: '0x095ea7b300000000000000000000000003a520b32c04bf3beef7beb72e919cf822ed34f10000000000000000000000000000000000000000000000000000000011e1a300',
          value: '0',
          description: 'Approve 300 USDC to the position manager',
        },
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: '0x883164560000000000000000000000004200000000000000000000000000000000000006000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda0291300000000000000000000000000000000000000000000000000000000000001f4fffffffffffffffffffffffffffffffffffffffffffffffffffffffffff2761a00000000000000000000000000000000000000000000000000000000000d89e6000000000000000000000000000000000000000000000000016345785d8a00000000000000000000000000000000000000000000000000000000000011e1a300000000000000000000000000000000000000000000000000015fb7f9b8c380000000000000000000000000000000000000000000000000000000000011b3dc4000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000006b03cd00',
          value: '0',
          description: 'Mint a full-range WETH/USDC 0.05% position',
        },
      ],
      action: {
        type: 'uniAdd',
        pool: '0xd0b53D9277642d899DF5C87A3966A349A798F224',
        tickLower: -887270,
        tickUpper: 887270,
      },
    },
  },
  capability: 'liquidity builders',
})

export const uniRemoveBuilder = builder({
  id: 'buildUniRemove',
  path: '/v1/tx/lp/uni/remove',
  summary: 'Decrease a position’s liquidity and collect (0 claims fees only)',
  description:
    'decreaseLiquidity(tokenId, liquidity) then collect to owner, in one multicall. `liquidity` 0 claims the fees without closing the position.',
  body: z.strictObject({
    tokenId: nftTokenId,
    liquidity: atomicAmount.describe('uint128 liquidity to remove; "0" collects fees only'),
    owner,
    slippageBps: slippageBpsBody(5000),
  }),
  action: { type: z.literal('uniRemove'), tokenId: nftTokenId, liquidity: atomicAmount },
  example: {
    body: {
      tokenId: '3912845',
      liquidity: '2738612787525',
      owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      slippageBps: 100,
    },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: '0xac9650d8000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000000000012000000000000000000000000000000000000000000000000000000000000000a40c49ccbe00000000000000000000000000000000000000000000000000000000003bb48d0000000000000000000000000000000000000000000000000000027da20ad94500000000000000000000000000000000000000000000000000afdbfcdc61c0000000000000000000000000000000000000000000000000000000000008d9ee20000000000000000000000000000000000000000000000000000000006b03cd00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000084fc6f786500000000000000000000000000000000000000000000000000000000003bb48d00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000ffffffffffffffffffffffffffffffff00000000000000000000000000000000ffffffffffffffffffffffffffffffff00000000000000000000000000000000000000000000000000000000',
          value: '0',
          description: 'Remove half the liquidity of position 3912845 and collect',
        },
      ],
      action: { type: 'uniRemove', tokenId: '3912845', liquidity: '2738612787525' },
    },
  },
  capability: 'liquidity builders',
})

export const uniCollectBuilder = builder({
  id: 'buildUniCollect',
  path: '/v1/tx/lp/uni/collect',
  summary: 'Collect a position’s accrued fees',
  description: 'NonfungiblePositionManager.collect(tokenId, recipient = owner, max, max).',
  body: z.strictObject({ tokenId: nftTokenId, owner }),
  action: { type: z.literal('uniCollect'), tokenId: nftTokenId },
  example: {
    body: { tokenId: '3912845', owner: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      network: 'eip155:8453',
      steps: [
        {
          to: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
          data: '0xfc6f786500000000000000000000000000000000000000000000000000000000003bb48d00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000ffffffffffffffffffffffffffffffff00000000000000000000000000000000ffffffffffffffffffffffffffffffff',
          value: '0',
          description: 'Collect the fees of position 3912845',
        },
      ],
      action: { type: 'uniCollect', tokenId: '3912845' },
    },
  },
  capability: 'liquidity builders',
})
