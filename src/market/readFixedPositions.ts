import type { Address, Hex, PublicClient } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import { erc20ReadAbi } from '../chain/lendingAbis.js'
import { midnightAbi } from '../chain/midnight.js'
import { multiRead, viewCall } from '../chain/multiRead.js'
import { morphoOracleAbi } from '../chain/walletAbis.js'
import type { TokenMeta } from './lendingChain.js'
import type { MorphoMidnight } from './upstreams/morphoMidnight.js'

const MIDNIGHT = BASE_ADDRESSES.MorphoMidnight

/** One Midnight fixed-rate position: units are loan-token atomic amounts due at maturity. */
export interface FixedPosition {
  marketId: Hex
  loanToken: TokenMeta
  /** Unix seconds. */
  maturity: number
  /** Units lent (owed to the owner at maturity). */
  credit: bigint
  /** Units borrowed (owed by the owner at maturity). */
  debt: bigint
  collaterals: {
    token: TokenMeta
    amount: bigint
    /** WAD. */
    lltv: bigint
    /** Oracle price, loan atomic per collateral atomic × 1e36; null when the oracle reverts. */
    oraclePrice: bigint | null
  }[]
}

/**
 * The owner's Morpho Midnight positions in every market the Midnight API lists (its books, cached 10 s),
 * confirmed onchain in one multicall: `position(id, owner)`, `collateral(id, owner, i)` and each collateral
 * oracle's `price()`, plus the tokens' symbols and decimals. Markets the API does not list are not seen.
 */
export async function readFixedPositions(
  chain: PublicClient,
  midnight: MorphoMidnight,
  owner: Address,
  block?: bigint,
): Promise<FixedPosition[]> {
  const books = await midnight.books()
  const tokens = [...new Set(books.flatMap((b) => [b.loanToken, ...b.collaterals.map((c) => c.token)]))]
  const slots = books.flatMap((b) => b.collaterals.map((c, i) => ({ b, c, i })))
  const r = await multiRead(
    chain,
    {
      position: books.map((b) => viewCall(MIDNIGHT, midnightAbi, 'position', [b.marketId, owner])),
      collateral: slots.map(({ b, i }) =>
        viewCall(MIDNIGHT, midnightAbi, 'collateral', [b.marketId, owner, BigInt(i)]),
      ),
      price: slots.map(({ c }) => viewCall(c.oracle, morphoOracleAbi, 'price', [])),
      symbol: tokens.map((t) => viewCall(t, erc20ReadAbi, 'symbol', [])),
      decimals: tokens.map((t) => viewCall(t, erc20ReadAbi, 'decimals', [])),
    },
    block,
  )
  const meta = (address: Address): TokenMeta => {
    const i = tokens.indexOf(address)
    const symbol = r.symbol[i]
    const decimals = r.decimals[i]
    if (symbol === undefined || decimals === undefined)
      throw new Error(`token ${address} of a Midnight market has no readable symbol or decimals`)
    return { address, symbol, decimals }
  }
  const out: FixedPosition[] = []
  books.forEach((b, k) => {
    const position = r.position[k]
    if (position === undefined) throw new Error(`Midnight position(${b.marketId}) reverted`)
    const [credit, , , , debt] = position
    const collaterals = slots.flatMap((s, j) =>
      s.b === b
        ? [
            {
              token: meta(s.c.token),
              amount: r.collateral[j] ?? 0n,
              lltv: s.c.lltv,
              oraclePrice: r.price[j] ?? null,
            },
          ]
        : [],
    )
    if (credit === 0n && debt === 0n && collaterals.every((c) => c.amount === 0n)) return
    out.push({
      marketId: b.marketId,
      loanToken: meta(b.loanToken),
      maturity: b.maturity,
      credit,
      debt,
      collaterals: collaterals.filter((c) => c.amount > 0n),
    })
  })
  return out
}
