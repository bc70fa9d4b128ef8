import { buildUniCollect, uniCollectAction, uniCollectBody } from '../../../../builders/lp/lpUniCollect.js'
import { prose } from '../../../../prose.js'
import { PRICES } from '../../../prices.js'
import { builder } from '../../../shared/builder.js'

import { exampleOutput } from '../../../shared/exampleOutput.js'
import { COMMON_ERRORS, POSITION_ERRORS } from '../../../shared/lpFields.js'

export const buildUniCollectRoute = builder({
  id: 'buildUniCollect',
  path: '/v1/tx/lp/uni/collect',
  priceUsd: PRICES.buildUniCollect,
  errors: [...POSITION_ERRORS],
  summary: 'Collect a position’s accrued fees',
  description: prose`
    NonfungiblePositionManager.collect(tokenId, recipient = owner, max, max): every fee owed goes to
    \`owner\` (the NFT’s holder or approved for it); the liquidity stays. \`fees0\`/\`fees1\`: the fees owed
    at the quote (tokensOwed plus the fee growth inside the range since the position’s snapshot, as collect
    computes it); the simulation’s balance changes show the same. Refusals: 422 position_not_found naming
    tokenId, 422 not_position_owner naming owner. ${COMMON_ERRORS}`,
  body: uniCollectBody,
  action: uniCollectAction,
  example: {
    body: {
      tokenId: '1',
      owner: '0xbcd4042de499d14e55001ccbb24a551f3b954096',
    },
    output: exampleOutput(import.meta.url),
  },
  handler: (body, ctx) => buildUniCollect(ctx.deps.builders, body),
})
