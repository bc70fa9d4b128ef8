import { type Address, erc20Abi, getAddress } from 'viem'
import { viewCall } from '../../chain/multiRead.js'
import { InvalidInputError } from '../../errors.js'
import type { AddressBook } from '../addressBook.js'
import { BuildRefusedError, UnlistedTargetError } from '../builderErrors.js'
import { isNative } from '../swap/swapState.js'

/** One side of a liquidity position as the steps need it, read in the plan's multicall. */
export interface LpToken {
  address: Address
  symbol: string
  decimals: number
  /** The owner's balance. */
  balance: bigint
  /** The owner's allowance to the contract that pulls it (the NPM or the Aerodrome router). */
  allowance: bigint
}

/**
 * The pair a liquidity body names, checked before anything is read: two distinct ERC-20s from the address
 * book (each is an approve target). Native ETH is refused as 400 naming the field: the pools hold WETH.
 */
export function lpPair(
  book: AddressBook,
  body: { tokenA: string; tokenB: string },
  nativeHint: string,
): { tokenA: Address; tokenB: Address } {
  const tokenA = getAddress(body.tokenA)
  const tokenB = getAddress(body.tokenB)
  for (const [field, token] of [
    ['tokenA', tokenA],
    ['tokenB', tokenB],
  ] as const) {
    if (isNative(token))
      throw new InvalidInputError(
        field,
        `body field "${field}" is native ETH, which ${nativeHint}: send WETH (0x4200000000000000000000000000000000000006) and wrap first (POST /v1/tx/swap from ETH to WETH).`,
      )
    if (!book.has(token)) throw new UnlistedTargetError(token, field)
  }
  if (tokenA === tokenB)
    throw new InvalidInputError(
      'tokenB',
      'body field "tokenB" must differ from tokenA: a pool pairs two tokens.',
    )
  return { tokenA, tokenB }
}

/** The multicall groups for one side: metadata, the owner's balance and its allowance to `spender`. */
export function lpTokenCalls(token: Address, owner: Address, spender: Address) {
  return [
    viewCall(token, erc20Abi, 'decimals', []),
    viewCall(token, erc20Abi, 'symbol', []),
    viewCall(token, erc20Abi, 'balanceOf', [owner]),
    viewCall(token, erc20Abi, 'allowance', [owner, spender]),
  ] as const
}

type Slot = bigint | number | string | undefined

/**
 * One side out of its `lpTokenCalls` results. Listed but not answering as a transferable ERC-20 (a
 * router, an Aave debt token) is 422 not_a_token naming the field, not a 502 that invites a retry.
 */
export function parseLpToken(address: Address, field: string, read: readonly Slot[]): LpToken {
  const [decimals, symbol, balance, allowance] = read
  if (
    typeof decimals !== 'number' ||
    typeof balance !== 'bigint' ||
    typeof allowance !== 'bigint' ||
    (symbol !== undefined && typeof symbol !== 'string')
  )
    throw new BuildRefusedError(
      'not_a_token',
      `${address} is in the address book but does not answer decimals/balanceOf/allowance like a transferable ERC-20 token.`,
      field,
      { address },
    )
  return { address, symbol: symbol ?? address, decimals, balance, allowance }
}
