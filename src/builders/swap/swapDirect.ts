import { type Address, encodeFunctionData, parseAbi } from 'viem'
import { minOutAfterSlippage } from '../../analytics/minOutAfterSlippage.js'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { multiRead } from '../../chain/multiRead.js'
import { aerodromeRouterAbi, swapRouter02Abi } from '../../chain/swapVenueAbis.js'
import { NoLiquidityError } from '../../market/swap/getSwapPrice.js'
import {
  aerodromeServes,
  bestPoolVenue,
  type PoolVenue,
  poolQuoteCalls,
} from '../../market/swap/onchainSwapSource.js'
import { approveIfShort } from '../approveIfShort.js'
import type { BuilderEngine } from '../builderEngine.js'
import { tokenLabel } from '../tokenLabel.js'
import type { TxStep } from '../txStep.js'
import {
  erc20Of,
  parseSwapState,
  type SwapPlan,
  type SwapRequest,
  type SwapToken,
  swapStateCalls,
} from './swapState.js'

/** SwapRouter02's recipient placeholder for "the router itself" (Constants.ADDRESS_THIS): WETH to unwrap. */
const ROUTER_ITSELF: Address = '0x0000000000000000000000000000000000000002'

const weth9Abi = parseAbi(['function deposit() payable', 'function withdraw(uint256 wad)'])

/**
 * The Aerodrome Router's and Pool's custom errors (aerodrome-finance/contracts IRouter, IPool: a dust
 * amount the router quotes above 0 can still fail the pool's K check); SwapRouter02 reverts with strings.
 */
export const directSwapRevertAbi = parseAbi([
  'error InsufficientOutputAmount()',
  'error Expired()',
  'error PoolDoesNotExist()',
  'error InvalidPath()',
  'error K()',
  'error InsufficientLiquidity()',
  'error InsufficientInputAmount()',
])

export interface SwapLeg {
  from: SwapToken
  to: SwapToken
  amountIn: bigint
  minOut: bigint
  owner: Address
  /** Unix seconds: the router deadline, equal to the envelope's expiresAt. */
  deadline: bigint
}

function swapDescription(leg: SwapLeg, venue: string): string {
  return `Swap ${tokenLabel(leg.amountIn, leg.from)} for at least ${tokenLabel(leg.minOut, leg.to)} on ${venue}`
}

/**
 * Pure: SwapRouter02 `multicall(deadline, [exactInputSingle(…)])` through one Uniswap v3 pool. ETH in rides
 * as value (the router wraps it to pay the pool); ETH out is swapped to the router itself and then
 * `unwrapWETH9(minOut, owner)` sends it on as ETH, so both checks hold the same minimum.
 */
export function encodeUniswapSwap(leg: SwapLeg, fee: number): TxStep {
  const calls = [
    encodeFunctionData({
      abi: swapRouter02Abi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: leg.from.erc20,
          tokenOut: leg.to.erc20,
          fee,
          recipient: leg.to.native ? ROUTER_ITSELF : leg.owner,
          amountIn: leg.amountIn,
          amountOutMinimum: leg.minOut,
          sqrtPriceLimitX96: 0n,
        },
      ],
    }),
  ]
  if (leg.to.native)
    calls.push(
      encodeFunctionData({
        abi: swapRouter02Abi,
        functionName: 'unwrapWETH9',
        args: [leg.minOut, leg.owner],
      }),
    )
  return {
    to: BASE_ADDRESSES.SwapRouter02,
    data: encodeFunctionData({
      abi: swapRouter02Abi,
      functionName: 'multicall',
      args: [leg.deadline, calls],
    }),
    value: leg.from.native ? leg.amountIn : 0n,
    description: swapDescription(leg, `Uniswap v3 (${fee / 10_000} % pool)`),
  }
}

/** Pure: the Aerodrome Router's `swapExactTokensForTokens` through one pool, paid to the owner (ERC-20s only). */
export function encodeAerodromeSwap(leg: SwapLeg, stable: boolean): TxStep {
  const route = {
    from: leg.from.erc20,
    to: leg.to.erc20,
    stable,
    factory: BASE_ADDRESSES.AerodromePoolFactory,
  }
  return {
    to: BASE_ADDRESSES.AerodromeRouter,
    data: encodeFunctionData({
      abi: aerodromeRouterAbi,
      functionName: 'swapExactTokensForTokens',
      args: [leg.amountIn, leg.minOut, [route], leg.owner, leg.deadline],
    }),
    value: 0n,
    description: swapDescription(leg, `Aerodrome (${stable ? 'stable' : 'volatile'} pool)`),
  }
}

/** Pure: ETH → WETH is WETH9's `deposit` with the ETH as value; WETH → ETH is its `withdraw`. */
export function encodeWrap(leg: Pick<SwapLeg, 'from' | 'to' | 'amountIn'>): TxStep {
  const label = tokenLabel(leg.amountIn, leg.from)
  return leg.from.native
    ? {
        to: BASE_ADDRESSES.WETH,
        data: encodeFunctionData({ abi: weth9Abi, functionName: 'deposit' }),
        value: leg.amountIn,
        description: `Wrap ${label} into WETH`,
      }
    : {
        to: BASE_ADDRESSES.WETH,
        data: encodeFunctionData({ abi: weth9Abi, functionName: 'withdraw', args: [leg.amountIn] }),
        value: 0n,
        description: `Unwrap ${label} into ETH`,
      }
}

/** The routers whose allowances the plan reads, in this order. */
const SPENDERS: readonly Address[] = [BASE_ADDRESSES.SwapRouter02, BASE_ADDRESSES.AerodromeRouter]

/**
 * Pure: the steps for the winning venue: an exact approve of fromToken to the router that pulls it (only
 * when the live allowance, `allowances` in SPENDERS order, is short; none for ETH), then the swap.
 */
export function encodeDirectSwap(leg: SwapLeg, venue: PoolVenue, allowances: readonly bigint[]) {
  const uniswap = venue.source === 'Uniswap_V3'
  const swap = uniswap ? encodeUniswapSwap(leg, venue.fee) : encodeAerodromeSwap(leg, venue.stable)
  if (leg.from.native) return { steps: [swap], allowanceIssue: null, grants: [] }
  const allowance = allowances[SPENDERS.indexOf(swap.to)]
  if (allowance === undefined) throw new Error(`the plan read no allowance for ${swap.to}`)
  const approve = approveIfShort({
    token: leg.from.erc20,
    spender: swap.to,
    needed: leg.amountIn,
    allowance,
    label: tokenLabel(leg.amountIn, leg.from),
    spenderName: uniswap ? 'Uniswap SwapRouter02' : 'the Aerodrome router',
  })
  return { steps: [...approve.steps, swap], allowanceIssue: approve.issue, grants: approve.grants }
}

/**
 * The onchain path (no 0x API key): ONE multicall reads the owner's balance, its allowances to both
 * routers, both tokens' metadata and every venue's quote (onchainSwapSource's pool reads: QuoterV2 over
 * the four Uniswap v3 tiers, the Aerodrome router's volatile and stable pools); the best output wins and
 * minOut = floor(expectedOut × (10000 − slippageBps) / 10000). With ETH on either side only Uniswap is
 * considered (SwapRouter02 wraps and unwraps inside the same call). ETH ⇄ WETH is a 1:1 WETH9 wrap.
 */
export async function planDirectSwap(engine: BuilderEngine, req: SwapRequest): Promise<SwapPlan> {
  const sell = erc20Of(req.fromToken)
  const buy = erc20Of(req.toToken)
  const fill = { from: req.fromToken, to: req.toToken, proportionBps: 10_000 }
  if (sell === buy) {
    // ETH → WETH or WETH → ETH: nothing to price and nothing to approve.
    const read = await multiRead(engine.chain, swapStateCalls(req.fromToken, req.toToken, req.owner, []))
    const state = parseSwapState(read, req, [])
    return {
      steps: [encodeWrap({ from: state.from, to: state.to, amountIn: req.amountIn })],
      allowanceIssue: null,
      grants: [],
      expectedOut: req.amountIn,
      minOut: minOutAfterSlippage(req.amountIn, req.slippageBps),
      quotedBy: 'onchain',
      route: [{ source: 'WETH', ...fill }],
      zid: null,
      revertAbi: directSwapRevertAbi,
    }
  }
  const read = await multiRead(engine.chain, {
    ...swapStateCalls(req.fromToken, req.toToken, req.owner, SPENDERS),
    ...poolQuoteCalls(sell, buy, req.amountIn, { aerodrome: aerodromeServes(req.fromToken, req.toToken) }),
  })
  const state = parseSwapState(read, req, SPENDERS)
  const venue = bestPoolVenue(read)
  if (venue === null) throw new NoLiquidityError(req.fromToken, req.toToken)
  const minOut = minOutAfterSlippage(venue.amountOut, req.slippageBps)
  const leg: SwapLeg = {
    from: state.from,
    to: state.to,
    amountIn: req.amountIn,
    minOut,
    owner: req.owner,
    deadline: BigInt(req.expiresAt),
  }
  const { steps, allowanceIssue, grants } = encodeDirectSwap(leg, venue, state.allowances)
  return {
    steps,
    allowanceIssue,
    grants,
    expectedOut: venue.amountOut,
    minOut,
    quotedBy: 'onchain',
    route: [{ source: venue.source, ...fill }],
    zid: null,
    revertAbi: directSwapRevertAbi,
  }
}
