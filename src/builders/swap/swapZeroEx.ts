import { type Address, isAddressEqual, parseAbi } from 'viem'
import { minOutAfterSlippage } from '../../analytics/minOutAfterSlippage.js'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { multiRead } from '../../chain/multiRead.js'
import { UpstreamError } from '../../errors.js'
import { NoLiquidityError } from '../../market/swap/getSwapPrice.js'
import {
  aerodromeServes,
  bestPoolVenue,
  type PoolVenue,
  poolQuoteCalls,
} from '../../market/swap/onchainSwapSource.js'
import type { ZeroEx, ZeroExFirmQuote } from '../../market/upstreams/zeroEx.js'
import type { AddressBook } from '../addressBook.js'
import { approveIfShort } from '../approveIfShort.js'
import type { BuilderEngine } from '../builderEngine.js'
import { tokenLabel } from '../tokenLabel.js'
import type { TxStep } from '../txStep.js'
import {
  erc20Of,
  parseSwapState,
  type SwapPlan,
  type SwapRequest,
  type SwapState,
  swapStateCalls,
} from './swapState.js'
import { checkZeroExExec } from './zeroExExec.js'
import { knownSettlers, settlerRegistryCalls } from './zeroExSettlers.js'

const ZEROX = '0x Swap API'

/**
 * The errors a 0x transaction reverts with (0xProject/0x-settler: the Settler's final check,
 * AllowanceHolder), and those of the Aerodrome pools it may route through, which bubble up.
 */
export const zeroExRevertAbi = parseAbi([
  'error TooMuchSlippage(address token, uint256 expected, uint256 actual)',
  'error ConfusedDeputy()',
  'error K()',
  'error InsufficientLiquidity()',
  'error InsufficientInputAmount()',
])

/**
 * What is refused in a 0x quote before it is handed on: a spender other than AllowanceHolder (0x's own
 * rule: never approve the Settler or anything else), a transaction to anything but AllowanceHolder (the
 * allowance-holder flow's only entry point; "in the address book" is not enough: the book lists tokens,
 * and a quote whose transaction is `USDC.transfer(someone, …)` would drain the taker), an `exec` that
 * authorises anything but the amount sold of the token sold for a genuine Settler (checkZeroExExec: a
 * taker's standing allowances to AllowanceHolder would otherwise be open to the quote's own contract), ETH
 * attached other than the ETH sold, or a minimum looser than slippageBps allows. Each is a 502 (the quote
 * is unusable; nothing is charged). What the transaction then does is checked on its simulation
 * (buildSwap, and the engine's rule that nothing but the sold token leaves the taker).
 */
export function checkZeroExQuote(
  quote: ZeroExFirmQuote,
  req: Pick<SwapRequest, 'owner' | 'fromToken' | 'toToken' | 'amountIn' | 'slippageBps'>,
  state: Pick<SwapState, 'from'>,
  book: AddressBook,
  settlers: readonly Address[],
): void {
  const spender = quote.allowanceSpender
  if (spender !== null && spender !== BASE_ADDRESSES.ZeroExAllowanceHolder)
    throw new UpstreamError(ZEROX, `the quote asks for an allowance to ${spender}, not to AllowanceHolder`)
  const { to, value } = quote.transaction
  if (!book.has(to) || !isAddressEqual(to, BASE_ADDRESSES.ZeroExAllowanceHolder))
    throw new UpstreamError(ZEROX, `the quote's transaction goes to ${to}, not to AllowanceHolder`)
  // ETH sold: `req.fromToken` is the native sentinel, the token 0x's exec names for it (and ETH bought,
  // `req.toToken`, the one its Settler's slippage check names).
  checkZeroExExec(
    quote.transaction.data,
    { token: req.fromToken, amount: req.amountIn },
    { recipient: req.owner, token: req.toToken, minOut: quote.minBuyAmount },
    settlers,
  )
  const expectedValue = state.from.native ? req.amountIn : 0n
  if (value !== expectedValue)
    throw new UpstreamError(ZEROX, `the quote attaches ${value} wei where the swap sends ${expectedValue}`)
  if (quote.minBuyAmount < minOutAfterSlippage(quote.buyAmount, req.slippageBps))
    throw new UpstreamError(ZEROX, `the quote's minBuyAmount is looser than slippageBps ${req.slippageBps}`)
}

/**
 * How far below the best single onchain pool 0x's buyAmount may be. An aggregator routes at least as well
 * as the best pool it can reach, less its fee; far below it, the quote's price is not the market's.
 */
export const ZEROX_PRICE_TOLERANCE_BPS = 100n

/**
 * The quote's numbers come from 0x alone (its buyAmount and the minBuyAmount derived from it): a quote
 * that prices the sold amount at 1 unit, with a Settler route through a pool of the quote's choosing that
 * pays exactly that, passes every other check. So its buyAmount must be within ZEROX_PRICE_TOLERANCE_BPS of
 * the best onchain pool's output for the same amount, read in the plan's multicall (no pool: no bound).
 * A 502, never charged.
 */
export function checkZeroExPrice(quote: Pick<ZeroExFirmQuote, 'buyAmount'>, pool: PoolVenue | null): void {
  if (pool === null) return
  const floor = (pool.amountOut * (10_000n - ZEROX_PRICE_TOLERANCE_BPS)) / 10_000n
  if (quote.buyAmount < floor)
    throw new UpstreamError(
      ZEROX,
      `the quote's buyAmount ${quote.buyAmount} is more than ${ZEROX_PRICE_TOLERANCE_BPS} bps below the onchain pools' ${pool.amountOut}`,
    )
}

/**
 * Pure: an exact approve of fromToken to AllowanceHolder when the live allowance is short (none for ETH),
 * then the quote's transaction exactly as 0x quoted it (to, data, value).
 */
export function encodeZeroExSwap(p: {
  quote: ZeroExFirmQuote
  state: SwapState
  amountIn: bigint
  /** The owner's live allowance of fromToken to AllowanceHolder (none is read for ETH). */
  allowance: bigint | undefined
}) {
  const { quote, state, amountIn } = p
  const swap: TxStep = {
    to: quote.transaction.to,
    data: quote.transaction.data,
    value: quote.transaction.value,
    description: `Swap ${tokenLabel(amountIn, state.from)} for at least ${tokenLabel(quote.minBuyAmount, state.to)} through 0x (AllowanceHolder)`,
  }
  if (state.from.native) return { steps: [swap], allowanceIssue: null, grants: [] }
  if (p.allowance === undefined) throw new Error('the plan read no allowance to AllowanceHolder')
  const approve = approveIfShort({
    token: state.from.address,
    spender: BASE_ADDRESSES.ZeroExAllowanceHolder,
    needed: amountIn,
    allowance: p.allowance,
    label: tokenLabel(amountIn, state.from),
    spenderName: '0x AllowanceHolder',
  })
  return { steps: [...approve.steps, swap], allowanceIssue: approve.issue, grants: approve.grants }
}

/**
 * The 0x path (ZEROX_API_KEY set): the allowance-holder `quote` for the owner as taker (a smart wallet's
 * signer as `txOrigin`) and ONE multicall of the owner's balance, its allowance to AllowanceHolder, the
 * tokens' metadata and 0x's registry of live Settlers, both in flight at once. expectedOut is 0x's
 * buyAmount, minOut its minBuyAmount (what the Settler enforces), route its fills.
 */
export async function planZeroExSwap(
  engine: BuilderEngine,
  zeroEx: ZeroEx,
  req: SwapRequest,
): Promise<SwapPlan> {
  const spenders: readonly Address[] = [BASE_ADDRESSES.ZeroExAllowanceHolder]
  const sell = erc20Of(req.fromToken)
  const buy = erc20Of(req.toToken)
  const [quote, read] = await Promise.all([
    zeroEx.firmQuote({
      sellToken: req.fromToken,
      buyToken: req.toToken,
      sellAmount: req.amountIn,
      taker: req.owner,
      slippageBps: req.slippageBps,
      ...(req.signer === null ? {} : { txOrigin: req.signer }),
    }),
    multiRead(engine.chain, {
      ...swapStateCalls(req.fromToken, req.toToken, req.owner, spenders),
      settlers: settlerRegistryCalls(),
      // The onchain pools' own price, in the same multicall: 0x's numbers are checked against it (an
      // ETH ⇄ WETH wrap has no pool: nothing answers, no bound).
      ...poolQuoteCalls(sell, buy, req.amountIn, { aerodrome: aerodromeServes(req.fromToken, req.toToken) }),
    }),
  ])
  const state = parseSwapState(read, req, spenders)
  if (quote === null) throw new NoLiquidityError(req.fromToken, req.toToken)
  checkZeroExQuote(quote, req, state, engine.book, knownSettlers(read.settlers))
  checkZeroExPrice(quote, bestPoolVenue(read))
  const { steps, allowanceIssue, grants } = encodeZeroExSwap({
    quote,
    state,
    amountIn: req.amountIn,
    allowance: state.allowances[0],
  })
  return {
    steps,
    allowanceIssue,
    grants,
    expectedOut: quote.buyAmount,
    minOut: quote.minBuyAmount,
    quotedBy: '0x',
    route: quote.route,
    zid: quote.zid,
    revertAbi: zeroExRevertAbi,
  }
}
