import { type Abi, type Address, erc20Abi, multicall3Abi } from 'viem'
import { BASE_ADDRESSES, erc20Of, isNative } from '../../chain/addresses.js'
import { type GroupResults, viewCall } from '../../chain/multiRead.js'
import type { SwapFill } from '../../market/swap/swapQuoteSource.js'
import type { MayApprove } from '../assertOutflows.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { required } from '../required.js'
import type { AllowanceIssue, TxStep } from '../txStep.js'

/** What both swap paths are asked, once the body is checked (addresses checksummed, tokens listed). */
export interface SwapRequest {
  /** The token sold, or the native sentinel for ETH. */
  fromToken: Address
  /** The token bought, or the native sentinel for ETH. */
  toToken: Address
  amountIn: bigint
  /** Holds fromToken, sends the steps and receives toToken. */
  owner: Address
  /** A smart wallet's signer (`signerAddress`): 0x's `txOrigin`; the onchain path has no use for it. */
  signer: Address | null
  slippageBps: number
  /** Deadlines encoded in calldata: the envelope's `expiresAt`. */
  expiresAt: number
}

/** One side of the swap as the steps need it: ETH is the sentinel outside and WETH inside the pools. */
export interface SwapToken {
  address: Address
  /** The ERC-20 a pool trades: WETH for native ETH. */
  erc20: Address
  native: boolean
  symbol: string
  decimals: number
}

/** The owner's state a swap needs, read in the plan's one multicall. */
export interface SwapState {
  from: SwapToken
  to: SwapToken
  balance: bigint
  /** The owner's allowance of fromToken to each spender asked for, in order (none for ETH). */
  allowances: bigint[]
}

/** What a swap path hands buildSwap: its steps and what it quoted. */
export interface SwapPlan {
  steps: TxStep[]
  allowanceIssue: AllowanceIssue | null
  /** The approvals the steps grant (the prepended exact approve, if any): the plan's `outflows.mayApprove`. */
  grants: MayApprove[]
  expectedOut: bigint
  minOut: bigint
  quotedBy: '0x' | 'onchain'
  route: SwapFill[]
  /** 0x's id of the quote; null onchain. */
  zid: string | null
  revertAbi: Abi
}

/** Native-ETH helpers, shared with the market reads (`src/chain/addresses.ts`). */
export { erc20Of, isNative }

/**
 * The multicall groups for the owner's side of a swap: fromToken's balance (ETH through Multicall3's
 * getEthBalance), its allowance to each `spender`, and both tokens' decimals and symbol (nothing for ETH).
 */
export function swapStateCalls(
  fromToken: Address,
  toToken: Address,
  owner: Address,
  spenders: readonly Address[],
) {
  const meta = (token: Address) => ({
    decimals: isNative(token) ? [] : [viewCall(token, erc20Abi, 'decimals', [])],
    symbol: isNative(token) ? [] : [viewCall(token, erc20Abi, 'symbol', [])],
  })
  const from = meta(fromToken)
  const to = meta(toToken)
  return {
    balance: [
      isNative(fromToken)
        ? viewCall(BASE_ADDRESSES.Multicall3, multicall3Abi, 'getEthBalance', [owner])
        : viewCall(fromToken, erc20Abi, 'balanceOf', [owner]),
    ],
    allowances: isNative(fromToken)
      ? []
      : spenders.map((spender) => viewCall(fromToken, erc20Abi, 'allowance', [owner, spender])),
    fromDecimals: from.decimals,
    fromSymbol: from.symbol,
    toDecimals: to.decimals,
    toSymbol: to.symbol,
  }
}

function tokenOf(
  address: Address,
  field: 'fromToken' | 'toToken',
  decimals: number | undefined,
  symbol: string | undefined,
): SwapToken {
  if (isNative(address))
    return { address, erc20: BASE_ADDRESSES.WETH, native: true, symbol: 'ETH', decimals: 18 }
  // Listed but not a token (a router, Morpho): the body names something that cannot be swapped.
  if (decimals === undefined)
    throw new BuildRefusedError(
      'not_a_token',
      `${address} is in the address book but does not answer as an ERC-20 token.`,
      field,
      { address },
    )
  return { address, erc20: address, native: false, symbol: symbol ?? address, decimals }
}

/**
 * The owner's state out of the multicall, with the guard every swap has: the owner must hold fromAmount
 * (422 insufficient_balance naming fromAmount, before anything is simulated).
 */
export function parseSwapState(
  read: GroupResults<ReturnType<typeof swapStateCalls>>,
  req: Pick<SwapRequest, 'fromToken' | 'toToken' | 'amountIn'>,
  spenders: readonly Address[],
): SwapState {
  const from = tokenOf(req.fromToken, 'fromToken', read.fromDecimals[0], read.fromSymbol[0])
  const to = tokenOf(req.toToken, 'toToken', read.toDecimals[0], read.toSymbol[0])
  // The multicall answered (else it threw): a slot that reverted is the token refusing the read, as an
  // Aave debt token refuses allowance() (and transfers). It cannot be approved or sold: 422, not a 502
  // that invites a retry.
  const unsellable = () =>
    new BuildRefusedError(
      'not_a_token',
      `${from.address} is in the address book but does not answer balanceOf/allowance like a transferable ERC-20 token.`,
      'fromToken',
      { address: from.address },
    )
  const balance = from.native ? required(read.balance[0], 'the ETH balance') : read.balance[0]
  if (balance === undefined) throw unsellable()
  const allowances = from.native
    ? []
    : spenders.map((_, i) => {
        const allowance = read.allowances[i]
        if (allowance === undefined) throw unsellable()
        return allowance
      })
  assertBalance('fromAmount', from, balance, req.amountIn)
  return { from, to, balance, allowances }
}
