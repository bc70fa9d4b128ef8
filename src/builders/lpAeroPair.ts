import { type Address, getAddress } from 'viem'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../chain/addresses.js'
import { InvalidInputError } from '../errors.js'
import type { AddressBook } from './addressBook.js'
import { lpPair } from './lpTokens.js'
import { isNative } from './swapState.js'

/** Which body side is native ETH (sent as `value`, wrapped or unwrapped by the router), if one is. */
export type NativeSide = 'tokenA' | 'tokenB' | null

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
