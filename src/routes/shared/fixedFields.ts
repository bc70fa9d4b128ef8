/**
 * Fixed-rate lending (Morpho Midnight, protocols.md §7a): the description parts and examples the POST
 * /v1/tx/fixed/* routes share (the body and action fields are declared by their builders). One unit pays
 * one atomic loan token at maturity; `assets` is always loan token NOW (borrow: received, lend: paid),
 * `units` what is owed or owed to you at maturity.
 */
import { prose } from '../../prose.js'
import type { ErrorCode } from './errorCodes.js'

export const COMMON = prose`
  \`marketId\` is read from Midnight (\`toMarket\`) and must hash back to the id: else 422
  \`unknown_market\` naming \`marketId\`; a market whose loan token or collateral is outside the address
  book is 422 \`unlisted_target\`.`

/** COMMON's codes: every fixed-rate builder's (`unlisted_target` is the engine's, implied). */
export const FIXED_ERRORS = ['unknown_market'] as const satisfies readonly ErrorCode[]

export const TAKE = prose`
  ${COMMON} The live book comes from Morpho's API (GET /v0/midnight/books for tick prices,
  …/{bids|asks}/takeable-offers for the signed offers and their ratifier data); the market must be an open
  one of that listing (422 \`unlisted_market\`, \`matured\` naming \`marketId\`). Offers are taken best
  price first, each at the taker's price (tick price ∓ Midnight's settlement fee), never beyond the guard
  \`slippageBps\` from the best price; the depth within the guard short of \`assets\` is 422
  \`book_too_thin\` naming \`assets\`, details \`availableAssets\`, \`availableUnits\`, \`bestPrice\`,
  \`guardPrice\`, \`guardApr\`. Offers of the other side, the owner's own, ones not live now (not started or
  expired) and ones whose own market does not hash to \`marketId\` are left out. After the one simulation of
  the bundle, takes that pay the owner less than the planned \`assets\` (borrow), cost it more (lend), or
  move its position by other than the planned \`units\` are 502 \`upstream_unavailable\` (Morpho Midnight:
  the book misreported them), never charged. One take is one \`take(offer, ratifierData, units, …)\` step;
  several are one step of Midnight's \`multicall\` (atomic: every fill lands or none). APR = (1/P − 1) ×
  31,536,000 / (maturity − quotedAt), a fraction.`

/** TAKE's codes: the builders that take offers from the book (lend, borrow). */
export const TAKE_ERRORS = [
  ...FIXED_ERRORS,
  'unlisted_market',
  'matured',
  'book_too_thin',
] as const satisfies readonly ErrorCode[]

export const EXAMPLE_OWNER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'

/** The devnet's demo markets (fixed maturities 2029-01-01 and 2030-01-01), where account #1 holds positions. */
export const LEND_MARKET = '0x4183be0a905e735a704a587d73cff76e5af8b9ff3ca236bf61ded22b679cafec'

export const BORROW_MARKET = '0xf2e40d3e419a0b8ae1cb50e59951890fc1bfe23bbdb69c1af778b5c957c7fc16'
