import { type Address, getAddress } from 'viem'
import { z } from 'zod'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../chain/addresses.js'
import { address } from '../../chain/fields.js'
import { InvalidInputError } from '../../errors.js'
import type { AddressBook } from '../addressBook.js'
import { isNative } from '../swap/swapState.js'
import { lpPair } from './lpTokens.js'

/** The pair of an Aerodrome body (either side may be native ETH). */
export const aeroPairFields = {
  tokenA: address.describe(
    'A listed ERC-20, or native ETH as 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE (the token/WETH pool, through the router’s ETH variants)',
  ),
  tokenB: address.describe('The other listed ERC-20 (or native ETH, on one side at most)'),
}

export const nativeSide = z
  .enum(['tokenA', 'tokenB'])
  .nullable()
  .describe(
    'The body side given as native ETH (the router wraps or unwraps it against the WETH pool), or null for two ERC-20s',
  )

/** Which body side is native ETH (sent as `value`, wrapped or unwrapped by the router), if one is. */
export type NativeSide = z.output<typeof nativeSide>

export interface AeroPair {
  /** The pool's tokens in body order, native ETH replaced by WETH (the pool holds WETH). */
  tokenA: Address
  tokenB: Address
  nativeSide: NativeSide
}

/**
 * The pair an Aerodrome body names. One side may be native ETH (0xEeee…EEeE): the router's ETH variants
 * (addLiquidityETH / removeLiquidityETH) wrap and unwrap it against the token/WETH pool. Both sides native,
 * or ETH against WETH, is one token twice: 400.
 */
export function aeroPair(book: AddressBook, body: { tokenA: string; tokenB: string }): AeroPair {
  const a = getAddress(body.tokenA)
  const b = getAddress(body.tokenB)
  if (isNative(a) && isNative(b))
    throw new InvalidInputError(
      'tokenB',
      'body field "tokenB" must differ from tokenA: both are native ETH, and a pool pairs two tokens.',
    )
  const nativeSide: NativeSide = isNative(a) ? 'tokenA' : isNative(b) ? 'tokenB' : null
  const weth = BASE_ADDRESSES.WETH
  const pair = lpPair(book, { tokenA: isNative(a) ? weth : a, tokenB: isNative(b) ? weth : b }, '')
  return { ...pair, nativeSide }
}

/** The address a side's balance is watched under in the simulation: the native sentinel for ETH. */
export function watchedSide(pair: AeroPair, side: 'tokenA' | 'tokenB'): Address {
  return pair.nativeSide === side ? NATIVE_SENTINEL : pair[side]
}
