import { buildUniRemove, uniRemoveAction, uniRemoveBody } from '../../../../builders/lpUniRemove.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'
import { hex } from '../../../shared/builderExample.js'
import { COMMON_ERRORS, MINS, POSITION_ERRORS } from '../../../shared/lpFields.js'

export const buildUniRemoveRoute = builder({
  id: 'buildUniRemove',
  path: '/v1/tx/lp/uni/remove',
  priceUsd: PRICES.buildUniRemove,
  errors: [...POSITION_ERRORS, 'exceeds_position_liquidity', 'burn_needs_full_removal'],
  summary: 'Decrease a position’s liquidity and collect (0 claims fees only)',
  description: prose`
    NPM multicall([decreaseLiquidity(tokenId, liquidity, mins, deadline), collect(tokenId, owner, max,
    max)]): the freed tokens and every fee owed go to \`owner\`, who must hold the NFT or be approved for
    it. \`liquidity\` "0" claims the fees without touching the liquidity (a lone collect: the NPM refuses a
    decrease of 0). \`burn: true\` appends burn(tokenId) and needs \`liquidity\` to be the position’s whole
    liquidity (never implied: a full removal without it keeps the empty NFT). Expected amounts are what the
    pool credits for \`liquidity\` at its current price (rounded down); \`fees0\`/\`fees1\` are the fees
    owed at the quote (tokensOwed plus the fee growth inside the range since the position’s snapshot, as
    collect computes it). ${MINS} Refusals: 422 position_not_found naming tokenId, 422 not_position_owner
    naming owner, 422 exceeds_position_liquidity naming liquidity (details.positionLiquidity), 422
    burn_needs_full_removal naming burn. ${COMMON_ERRORS}`,
  body: uniRemoveBody,
  action: uniRemoveAction,
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
          data: hex`
            0xac9650d8
            0000000000000000000000000000000000000000000000000000000000000020
            0000000000000000000000000000000000000000000000000000000000000002
            0000000000000000000000000000000000000000000000000000000000000040
            0000000000000000000000000000000000000000000000000000000000000120
            00000000000000000000000000000000000000000000000000000000000000a4
            0c49ccbe00000000000000000000000000000000000000000000000000000000
            000000010000000000000000000000000000000000000000000000000288a241
            33dac90b0000000000000000000000000000000000000000000000b09b783142
            7fd7e9170000000000000000000000000000000000000000000000000000091e
            dc39d81c00000000000000000000000000000000000000000000000000000000
            6b042fce00000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000084
            fc6f786500000000000000000000000000000000000000000000000000000000
            00000001000000000000000000000000bcd4042de499d14e55001ccbb24a551f
            3b95409600000000000000000000000000000000ffffffffffffffffffffffff
            ffffffff00000000000000000000000000000000ffffffffffffffffffffffff
            ffffffff00000000000000000000000000000000000000000000000000000000`,
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
