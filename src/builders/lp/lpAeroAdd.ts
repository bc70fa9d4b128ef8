import { type Address, encodeFunctionData, multicall3Abi } from 'viem'
import { z } from 'zod'
import { minOutAfterSlippage } from '../../analytics/minOutAfterSlippage.js'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../chain/addresses.js'
import { address, atomicAmount, positiveAtomicAmount } from '../../chain/fields.js'
import { multiRead, viewCall } from '../../chain/multiRead.js'
import { aerodromePoolFactoryAbi } from '../../chain/swapVenueAbis.js'
import { prose } from '../../prose.js'
import { approveIfShort } from '../approveIfShort.js'
import { owner, slippageBpsBody } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { depositCap } from '../earn/depositCap.js'
import { required } from '../required.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { aerodromeLiquidityAbi, lpRevertAbi } from './lpAbis.js'
import {
  type AeroPair,
  aeroPair,
  aeroPairFields,
  type NativeSide,
  nativeSide,
  watchedSide,
} from './lpAeroPair.js'
import { type LpToken, lpTokenCalls, parseLpToken } from './lpTokens.js'

const ROUTER = BASE_ADDRESSES.AerodromeRouter
const FACTORY = BASE_ADDRESSES.AerodromePoolFactory
const ZERO: Address = '0x0000000000000000000000000000000000000000'

export const aeroAddBody = z.strictObject({
  ...aeroPairFields,
  amountA: positiveAtomicAmount.describe('Most tokenA to deposit, atomic'),
  amountB: positiveAtomicAmount.describe('Most tokenB to deposit, atomic'),
  owner,
  slippageBps: slippageBpsBody(),
})

export type AeroAddBody = z.output<typeof aeroAddBody>

export const aeroAddAction = {
  type: z.literal('aeroAdd'),
  pool: address.describe('The volatile pool, which is also the LP token'),
  nativeSide,
  amountA: atomicAmount.describe('tokenA the router takes at the quote'),
  amountB: atomicAmount.describe('tokenB the router takes at the quote'),
  amountAMin: atomicAmount.describe('Least tokenA the add may take (slippage floor)'),
  amountBMin: atomicAmount.describe('Least tokenB the add may take (slippage floor)'),
  amountAMax: atomicAmount.describe(
    prose`
        Most tokenA the add may take: amountA / (1 − slippageBps/10⁴) rounded up, at most the ask (the ask
        itself when slippageBps is 0); the router’s amountADesired and the approve (for ETH, the value sent)`,
  ),
  amountBMax: atomicAmount.describe('Most tokenB the add may take, likewise'),
  expectedLiquidity: atomicAmount.describe('LP tokens minted at the quote'),
}

export type AeroAddAction = ActionOf<typeof aeroAddAction>

/** The pool refusal both Aerodrome builders share: the builders never create a pool. */
export function aeroPoolNotFound(tokenA: Address, tokenB: Address): BuildRefusedError {
  return new BuildRefusedError(
    'pool_not_found',
    `The Aerodrome PoolFactory has no volatile pool for ${tokenA} and ${tokenB}; this builder does not create pools.`,
    'tokenB',
    { tokenA, tokenB, stable: false },
  )
}

/** The factory's volatile pool of the pair, or the refusal (getPool answers the zero address for none). */
export function aeroPool(read: Address | undefined, tokenA: Address, tokenB: Address): Address {
  const pool = required(read, 'the Aerodrome pool')
  if (pool === ZERO) throw aeroPoolNotFound(tokenA, tokenB)
  return pool
}

interface AeroAddArgs {
  tokenA: LpToken
  tokenB: LpToken
  amountADesired: bigint
  amountBDesired: bigint
  amountAMin: bigint
  amountBMin: bigint
  owner: Address
  deadline: bigint
}

/**
 * Pure: Router.addLiquidity(tokenA, tokenB, stable = false, desired, mins, to = owner, deadline), or with
 * one side native ETH, addLiquidityETH(token, false, tokenDesired, tokenMin, ethMin, owner, deadline) with
 * the desired ETH as value (the router wraps what the pool takes and refunds the rest).
 */
export function encodeAeroAdd(a: AeroAddArgs, nativeSide: NativeSide): TxStep {
  const description = `Add up to ${tokenLabel(a.amountADesired, a.tokenA)} + ${tokenLabel(a.amountBDesired, a.tokenB)} to the volatile Aerodrome ${a.tokenA.symbol}/${a.tokenB.symbol} pool`
  if (nativeSide !== null) {
    const eth = nativeSide === 'tokenA'
    const [token, tokenDesired, tokenMin] = eth
      ? [a.tokenB, a.amountBDesired, a.amountBMin]
      : [a.tokenA, a.amountADesired, a.amountAMin]
    const [ethDesired, ethMin] = eth ? [a.amountADesired, a.amountAMin] : [a.amountBDesired, a.amountBMin]
    return {
      to: ROUTER,
      data: encodeFunctionData({
        abi: aerodromeLiquidityAbi,
        functionName: 'addLiquidityETH',
        args: [token.address, false, tokenDesired, tokenMin, ethMin, a.owner, a.deadline],
      }),
      value: ethDesired,
      description,
    }
  }
  return {
    to: ROUTER,
    data: encodeFunctionData({
      abi: aerodromeLiquidityAbi,
      functionName: 'addLiquidity',
      args: [
        a.tokenA.address,
        a.tokenB.address,
        false,
        a.amountADesired,
        a.amountBDesired,
        a.amountAMin,
        a.amountBMin,
        a.owner,
        a.deadline,
      ],
    }),
    value: 0n,
    description,
  }
}

/** A side as the steps use it: native ETH has the owner's ETH balance and needs no approve. */
function side(pair: AeroPair, name: 'tokenA' | 'tokenB', erc20: LpToken, eth: bigint | undefined): LpToken {
  if (pair.nativeSide !== name) return erc20
  return {
    address: NATIVE_SENTINEL,
    symbol: 'ETH',
    decimals: 18,
    balance: required(eth, 'the owner’s ETH balance'),
    allowance: 2n ** 256n - 1n,
  }
}

/**
 * POST /v1/tx/lp/aero/add: one multicall reads the factory's volatile pool, the router's
 * quoteAddLiquidity (the amounts its addLiquidity takes at the reserves now, and the LP minted), both
 * tokens and the owner's balances and allowances to the router. Mins are the quoted amounts less
 * slippageBps; deadline = expiresAt. The approves cover the desired amounts (the most the router pulls).
 */
export async function buildAeroAdd(
  engine: BuilderEngine,
  body: AeroAddBody,
): Promise<BuilderEnvelope<AeroAddAction>> {
  const pair = aeroPair(engine.book, body)
  const { tokenA, tokenB } = pair
  const { owner, amountA: amountADesired, amountB: amountBDesired } = body
  const quotedAt = engine.nowSec()
  const expiresAt = quotedAt + BUILD_TTL_SEC
  const read = await multiRead(engine.chain, {
    pool: [viewCall(FACTORY, aerodromePoolFactoryAbi, 'getPool', [tokenA, tokenB, false])],
    quote: [
      viewCall(ROUTER, aerodromeLiquidityAbi, 'quoteAddLiquidity', [
        tokenA,
        tokenB,
        false,
        FACTORY,
        amountADesired,
        amountBDesired,
      ]),
    ],
    reserves: [viewCall(ROUTER, aerodromeLiquidityAbi, 'getReserves', [tokenA, tokenB, false, FACTORY])],
    tokenA: lpTokenCalls(tokenA, owner, ROUTER),
    tokenB: lpTokenCalls(tokenB, owner, ROUTER),
    eth: [viewCall(BASE_ADDRESSES.Multicall3, multicall3Abi, 'getEthBalance', [owner])],
  })
  const pool = aeroPool(read.pool[0], tokenA, tokenB)
  // An empty pool (anyone can create one for a listed pair) takes the desired amounts as they are: the
  // first deposit sets the price, which arbitrage then takes from the owner. This builder adds at a price.
  const [reserveA, reserveB] = required(read.reserves[0], 'the Aerodrome pool reserves')
  if (reserveA === 0n || reserveB === 0n)
    throw new BuildRefusedError(
      'pool_empty',
      `The volatile Aerodrome pool of ${tokenA} and ${tokenB} holds no liquidity: a first deposit would set its price, and this builder only adds at the pool's price.`,
      'tokenB',
      { pool },
    )
  const a = side(pair, 'tokenA', parseLpToken(tokenA, 'tokenA', read.tokenA), read.eth[0])
  const b = side(pair, 'tokenB', parseLpToken(tokenB, 'tokenB', read.tokenB), read.eth[0])
  const [amountA, amountB, liquidity] = required(read.quote[0], 'the router’s quoteAddLiquidity')
  if (liquidity === 0n)
    throw new BuildRefusedError(
      'amounts_too_small',
      'At the pool’s reserves these amounts mint no LP tokens.',
      'amountA',
    )
  // The router pulls at most the desired amounts it is given, whatever the reserves at inclusion: it gets
  // (and the approves cover) each side's quote grossed up by the slippage, not the ask. The side the quote
  // uses in full keeps its ask, so at the quoted reserves the router takes exactly the quote. Without a
  // tolerance (slippageBps 0) the asks are passed: the router's 1-wei rounding of a capped side would fail
  // the exact mins.
  const cap = (desired: bigint, quoted: bigint) =>
    body.slippageBps === 0 ? desired : depositCap(desired, quoted, body.slippageBps)
  const maxA = cap(amountADesired, amountA)
  const maxB = cap(amountBDesired, amountB)
  // Native ETH is sent in full as value (the router refunds what the pool does not take), so the owner must
  // hold that max, not only the quoted amount.
  assertBalance('amountA', a, a.balance, pair.nativeSide === 'tokenA' ? maxA : amountA)
  assertBalance('amountB', b, b.balance, pair.nativeSide === 'tokenB' ? maxB : amountB)
  const amountAMin = minOutAfterSlippage(amountA, body.slippageBps)
  const amountBMin = minOutAfterSlippage(amountB, body.slippageBps)
  // Native ETH is sent as value: only the ERC-20 side is approved.
  const approvals = (
    [
      [a, maxA],
      [b, maxB],
    ] as const
  )
    .filter(([token]) => token.address !== NATIVE_SENTINEL)
    .map(([token, needed]) =>
      approveIfShort({
        token: token.address,
        spender: ROUTER,
        needed,
        allowance: token.allowance,
        label: tokenLabel(needed, token),
        spenderName: 'the Aerodrome router',
      }),
    )
  const add = encodeAeroAdd(
    {
      tokenA: a,
      tokenB: b,
      amountADesired: maxA,
      amountBDesired: maxB,
      amountAMin,
      amountBMin,
      owner,
      deadline: BigInt(expiresAt),
    },
    pair.nativeSide,
  )
  return engine.finish({
    owner,
    steps: [...approvals.flatMap((x) => x.steps), add],
    watch: [watchedSide(pair, 'tokenA'), watchedSide(pair, 'tokenB'), pool],
    issues: { balance: null, allowance: approvals.find((x) => x.issue !== null)?.issue ?? null },
    action: {
      type: 'aeroAdd',
      pool,
      nativeSide: pair.nativeSide,
      amountA: amountA.toString(),
      amountB: amountB.toString(),
      amountAMin: amountAMin.toString(),
      amountBMin: amountBMin.toString(),
      amountAMax: maxA.toString(),
      amountBMax: maxB.toString(),
      expectedLiquidity: liquidity.toString(),
    },
    revertAbi: lpRevertAbi,
    quotedAt,
    expiresAt,
  })
}
