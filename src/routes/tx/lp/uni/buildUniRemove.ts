import { buildUniRemove, uniRemoveAction, uniRemoveBody } from '../../../../builders/lp/lpUniRemove.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'

import { exampleOutput } from '../../../shared/exampleOutput.js'
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
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildUniRemove(ctx.deps.builders, body),
})
