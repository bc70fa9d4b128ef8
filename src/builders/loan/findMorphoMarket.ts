import { formatUnits, type Hex, isAddressEqual, zeroAddress } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { cachePerClient } from '../../chain/cachePerClient.js'
import { erc20ReadAbi } from '../../chain/lendingAbis.js'
import { type MorphoMarketParams, morphoAbi, morphoMarketId } from '../../chain/morpho.js'
import { multiRead, viewCall } from '../../chain/multiRead.js'
import type { TokenMeta } from '../../market/lendingChain.js'
import type { BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError, UnlistedTargetError } from '../builderErrors.js'
import { required } from '../required.js'

/** A Morpho Blue market whose params were read from the chain and whose id re-derives from them. */
export interface LoanMarket {
  /** Lowercase hex. */
  id: Hex
  params: MorphoMarketParams
  loanToken: TokenMeta
  collateralToken: TokenMeta
  /** "WETH/USDC 86%": for step descriptions. */
  label: string
}

/**
 * Verified markets per chain client, never expiring: a market's params are immutable and its id is their
 * hash, so a verified (id, params) pair stays true forever. Only successes are cached: an id that is not
 * a market yet is read again next time (it may be created later).
 */
const verified = cachePerClient<LoanMarket>(Number.POSITIVE_INFINITY)

/**
 * The market `marketId` names, or 422 naming `marketId`: not in the catalog (`unlisted_market`), not created on Morpho Blue (`unknown_market`),
 * params that do not hash back to the id (`market_id_mismatch`, a chain answer we cannot trust), an idle
 * market without collateral or oracle (`idle_market`), or a token outside the address book
 * (`unlisted_target`: its approve could not be built, so neither is a position we could not unwind).
 * First sight of a market costs two multicalls (params, then token metadata); later requests none.
 */
export async function findMorphoMarket(engine: BuilderEngine, marketId: string): Promise<LoanMarket> {
  const id = marketId.toLowerCase() as Hex
  if (!engine.book.listsMarket(id))
    throw new BuildRefusedError(
      'unlisted_market',
      `${id} is not one of the Morpho markets this service builds for (GET /v1/loan/markets lists them): a market anyone can create may price collateral with an oracle its creator controls.`,
      'marketId',
      { marketId: id },
    )
  const market = await verified(engine.chain).get(id, () => readMarket(engine, id))
  // Checked again on a cache hit: the cache is per chain client, the book per engine.
  assertListedTokens(engine, market.params)
  return market
}

function assertListedTokens(engine: BuilderEngine, params: MorphoMarketParams): void {
  for (const token of [params.loanToken, params.collateralToken])
    if (!engine.book.has(token)) throw new UnlistedTargetError(token, 'marketId')
}

async function readMarket(engine: BuilderEngine, id: Hex): Promise<LoanMarket> {
  const r = await multiRead(engine.chain, {
    params: [viewCall(BASE_ADDRESSES.MorphoBlue, morphoAbi, 'idToMarketParams', [id])],
  })
  const [loanToken, collateralToken, oracle, irm, lltv] = required(
    r.params[0],
    `Morpho idToMarketParams(${id})`,
  )
  const params: MorphoMarketParams = { loanToken, collateralToken, oracle, irm, lltv }
  // Morpho answers zeros for an id it has never seen.
  if (isAddressEqual(loanToken, zeroAddress))
    throw new BuildRefusedError(
      'unknown_market',
      `${id} is not a Morpho Blue market on this network (GET /v1/loan/markets lists some).`,
      'marketId',
      { marketId: id },
    )
  const derived = morphoMarketId(params)
  if (derived !== id)
    throw new BuildRefusedError(
      'market_id_mismatch',
      `The params the chain returned for ${id} hash to ${derived}; the market cannot be trusted.`,
      'marketId',
      { marketId: id, derived },
    )
  if (isAddressEqual(collateralToken, zeroAddress) || isAddressEqual(oracle, zeroAddress))
    throw new BuildRefusedError(
      'idle_market',
      `${id} is an idle Morpho market (no collateral token or oracle): nothing can be borrowed from it.`,
      'marketId',
      { marketId: id },
    )
  // Before reading metadata: a token outside the book may not even be a contract.
  assertListedTokens(engine, params)
  const m = await multiRead(engine.chain, {
    symbols: [loanToken, collateralToken].map((t) => viewCall(t, erc20ReadAbi, 'symbol', [])),
    decimals: [loanToken, collateralToken].map((t) => viewCall(t, erc20ReadAbi, 'decimals', [])),
  })
  const meta = (i: number, address: typeof loanToken): TokenMeta => ({
    address,
    symbol: required(m.symbols[i], `the symbol of ${address}`),
    decimals: required(m.decimals[i], `the decimals of ${address}`),
  })
  const loan = meta(0, loanToken)
  const collateral = meta(1, collateralToken)
  return {
    id,
    params,
    loanToken: loan,
    collateralToken: collateral,
    label: `${collateral.symbol}/${loan.symbol} ${Number(formatUnits(lltv * 100n, 18))}%`,
  }
}
