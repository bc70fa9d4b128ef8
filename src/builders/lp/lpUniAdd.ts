import { type Address, encodeFunctionData } from 'viem'
import { z } from 'zod'
import { minOutAfterSlippage } from '../../analytics/minOutAfterSlippage.js'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { address, atomicAmount, atomicAmountInput } from '../../chain/fields.js'
import { multiRead, viewCall } from '../../chain/multiRead.js'
import { uniswapV3PoolAbi, uniswapV3PoolAddress } from '../../chain/uniswapV3Pool.js'
import { InvalidInputError } from '../../errors.js'
import { approveIfShort } from '../approveIfShort.js'
import { owner, slippageBpsBody } from '../bodyFields.js'
import { BUILD_TTL_SEC, type BuilderEngine } from '../builderEngine.js'
import { assertBalance, BuildRefusedError } from '../builderErrors.js'
import { depositCap } from '../earn/depositCap.js'
import { tokenLabel } from '../tokenLabel.js'
import type { ActionOf, BuilderEnvelope, TxStep } from '../txStep.js'
import { lpRevertAbi, positionManagerAbi } from './lpAbis.js'
import { type LpToken, lpPair, lpTokenCalls, parseLpToken } from './lpTokens.js'
import { fullRangeTicks, MAX_TICK, mintQuote, TICK_SPACING } from './lpUniMath.js'

const NPM = BASE_ADDRESSES.NonfungiblePositionManager

const TICK_MAX = 887272

const uniFee = z.union([z.literal(100), z.literal(500), z.literal(3000), z.literal(10000)])

const tick = z.number().int().min(-TICK_MAX).max(TICK_MAX)

const uniPair = {
  tokenA: address.describe('A listed ERC-20 (native ETH is refused: the pools hold WETH)'),
  tokenB: address.describe('The other listed ERC-20'),
}

export const uniAddBody = z
  .strictObject({
    ...uniPair,
    fee: uniFee.describe('Pool fee tier: 100, 500, 3000 or 10000'),
    amountA: atomicAmountInput.describe('Atomic tokenA; 0 only with a tick range that takes tokenB alone'),
    amountB: atomicAmountInput.describe('Atomic tokenB; 0 only with a tick range that takes tokenA alone'),
    owner,
    tickLower: tick.optional(),
    tickUpper: tick.optional(),
    slippageBps: slippageBpsBody(),
  })
  .refine((b) => (b.tickLower === undefined) === (b.tickUpper === undefined), {
    error: 'must be given together with tickUpper (or neither, for full range).',
    path: ['tickLower'],
  })
  .refine((b) => b.tickLower === undefined || b.tickUpper === undefined || b.tickLower < b.tickUpper, {
    error: 'must be below tickUpper.',
    path: ['tickLower'],
  })
  // A full-range position takes both tokens; only a range entirely off the price takes one side alone.
  .refine((b) => b.amountA !== 0n || (b.tickLower !== undefined && b.amountB !== 0n), {
    error: 'must be positive: 0 is allowed only with tickLower/tickUpper, and never on both sides.',
    path: ['amountA'],
  })
  .refine((b) => b.amountB !== 0n || (b.tickLower !== undefined && b.amountA !== 0n), {
    error: 'must be positive: 0 is allowed only with tickLower/tickUpper, and never on both sides.',
    path: ['amountB'],
  })

export type UniAddBody = z.output<typeof uniAddBody>

export const uniAddAction = {
  type: z.literal('uniAdd'),
  pool: address.describe('The Uniswap v3 pool'),
  token0: address.describe('The pool’s token0 (the lower address)'),
  token1: address.describe('The pool’s token1'),
  fee: z.number().int().describe('The fee tier'),
  tickLower: z.number().int().describe('Lower tick of the range (a multiple of the spacing)'),
  tickUpper: z.number().int().describe('Upper tick of the range'),
  fullRange: z.boolean().describe('Whether the range is the tier’s full range'),
  sqrtPriceX96: atomicAmount.describe('The pool’s sqrtPriceX96 at the quote'),
  tick: z.number().int().describe('The pool’s current tick at the quote'),
  liquidity: atomicAmount.describe('Liquidity minted at the quote'),
  amount0: atomicAmount.describe('token0 the pool takes at the quote'),
  amount1: atomicAmount.describe('token1 the pool takes at the quote'),
  amount0Min: atomicAmount.describe('Least token0 the mint may take (slippage floor)'),
  amount1Min: atomicAmount.describe('Least token1 the mint may take (slippage floor)'),
  amount0Max: atomicAmount.describe(
    'Most token0 the mint may take: amount0 / (1 − slippageBps/10⁴) rounded up, at most the ask; the mint’s amount0Desired and the approve',
  ),
  amount1Max: atomicAmount.describe('Most token1 the mint may take, likewise'),
}

export type UniAddAction = ActionOf<typeof uniAddAction>

export interface MintArgs {
  token0: LpToken
  token1: LpToken
  fee: number
  tickLower: number
  tickUpper: number
  amount0Desired: bigint
  amount1Desired: bigint
  amount0Min: bigint
  amount1Min: bigint
  owner: Address
  deadline: bigint
  /** For the description only. */
  fullRange: boolean
}

/** Pure: NonfungiblePositionManager.mint to the owner (tokens sorted, token0 < token1). */
export function encodeUniMint(m: MintArgs): TxStep {
  const range = m.fullRange ? 'full-range ' : ''
  return {
    to: NPM,
    data: encodeFunctionData({
      abi: positionManagerAbi,
      functionName: 'mint',
      args: [
        {
          token0: m.token0.address,
          token1: m.token1.address,
          fee: m.fee,
          tickLower: m.tickLower,
          tickUpper: m.tickUpper,
          amount0Desired: m.amount0Desired,
          amount1Desired: m.amount1Desired,
          amount0Min: m.amount0Min,
          amount1Min: m.amount1Min,
          recipient: m.owner,
          deadline: m.deadline,
        },
      ],
    }),
    value: 0n,
    description: `Mint a ${range}${m.token0.symbol}/${m.token1.symbol} ${m.fee / 10_000}% position (ticks ${m.tickLower}..${m.tickUpper})`,
  }
}

/**
 * The range: full range (±887272 rounded toward zero to the tier's spacing) unless both ticks are given;
 * given ticks must be multiples of the spacing and inside the full range, else 400 naming the tick (never
 * rounded silently: a rounded range is not the range the caller priced).
 */
export function uniRange(body: Pick<UniAddBody, 'fee' | 'tickLower' | 'tickUpper'>): {
  tickLower: number
  tickUpper: number
  fullRange: boolean
} {
  const spacing = TICK_SPACING[body.fee]
  if (spacing === undefined)
    throw new InvalidInputError('fee', 'body field "fee" must be 100, 500, 3000 or 10000.')
  const full = fullRangeTicks(spacing)
  if (body.tickLower === undefined || body.tickUpper === undefined) return { ...full, fullRange: true }
  for (const field of ['tickLower', 'tickUpper'] as const) {
    const tick = body[field] ?? 0
    if (tick % spacing !== 0)
      throw new InvalidInputError(
        field,
        `body field "${field}" must be a multiple of the ${body.fee} tier's tick spacing ${spacing} (e.g. ${Math.floor(tick / spacing) * spacing} or ${Math.ceil(tick / spacing) * spacing}).`,
        { tickSpacing: spacing },
      )
    if (Math.abs(tick) > full.tickUpper)
      throw new InvalidInputError(
        field,
        `body field "${field}" must lie within ${full.tickLower}..${full.tickUpper} (±${MAX_TICK} rounded to the spacing ${spacing}).`,
        { tickSpacing: spacing },
      )
  }
  return {
    tickLower: body.tickLower,
    tickUpper: body.tickUpper,
    fullRange: body.tickLower === full.tickLower && body.tickUpper === full.tickUpper,
  }
}

/**
 * POST /v1/tx/lp/uni/add: one multicall reads the pool's slot0 (at the pool's CREATE2 address: a pool
 * that does not exist has no code), both tokens and the owner's balances and allowances to the NPM. The
 * liquidity and the amounts used are the NPM's own (LiquidityAmounts at the live sqrtPrice, the pool's
 * rounding up), mins are those amounts less slippageBps, deadline = expiresAt.
 */
export async function buildUniAdd(
  engine: BuilderEngine,
  body: UniAddBody,
): Promise<BuilderEnvelope<UniAddAction>> {
  const { tokenA, tokenB } = lpPair(engine.book, body, 'a Uniswap v3 position cannot hold')
  const { owner } = body
  const range = uniRange(body)
  const aIs0 = tokenA.toLowerCase() < tokenB.toLowerCase()
  const [t0, t1] = aIs0 ? [tokenA, tokenB] : [tokenB, tokenA]
  const [amount0Desired, amount1Desired] = aIs0 ? [body.amountA, body.amountB] : [body.amountB, body.amountA]
  const pool = uniswapV3PoolAddress(t0, t1, body.fee)
  const quotedAt = engine.nowSec()
  const expiresAt = quotedAt + BUILD_TTL_SEC
  const read = await multiRead(engine.chain, {
    slot0: [viewCall(pool, uniswapV3PoolAbi, 'slot0', [])],
    token0: lpTokenCalls(t0, owner, NPM),
    token1: lpTokenCalls(t1, owner, NPM),
  })
  const slot0 = read.slot0[0]
  // No code at the CREATE2 address (the call fails), or created but never initialised (price 0).
  if (slot0 === undefined || slot0[0] === 0n)
    throw new BuildRefusedError(
      'pool_not_found',
      `No initialised Uniswap v3 pool pairs ${tokenA} and ${tokenB} at fee ${body.fee}; this builder does not create pools (GET /v1/swap/price shows where the pair trades).`,
      'fee',
      { pool, fee: body.fee },
    )
  const token0 = parseLpToken(t0, aIs0 ? 'tokenA' : 'tokenB', read.token0)
  const token1 = parseLpToken(t1, aIs0 ? 'tokenB' : 'tokenA', read.token1)
  const state = { sqrtPriceX96: slot0[0], tick: slot0[1] }
  const asked = mintQuote(state, range.tickLower, range.tickUpper, amount0Desired, amount1Desired)
  // The NPM pulls at most the desired amounts it is given, whatever the price at inclusion: it gets (and
  // the approves cover) each side's quote grossed up by the slippage, not the ask, so a moved price cannot
  // take more. The mint is then quoted again at those caps: that is exactly what the NPM computes from them.
  const cap0 = depositCap(amount0Desired, asked.amount0, body.slippageBps)
  const cap1 = depositCap(amount1Desired, asked.amount1, body.slippageBps)
  const quote = mintQuote(state, range.tickLower, range.tickUpper, cap0, cap1)
  if (quote.liquidity === 0n)
    throw new BuildRefusedError(
      'amounts_too_small',
      'At the pool’s current price these amounts buy no liquidity in this range (one side is 0 where the range needs it, or both are dust).',
      'amountA',
      { sqrtPriceX96: state.sqrtPriceX96.toString(), tick: state.tick },
    )
  assertBalance(aIs0 ? 'amountA' : 'amountB', token0, token0.balance, quote.amount0)
  assertBalance(aIs0 ? 'amountB' : 'amountA', token1, token1.balance, quote.amount1)
  const amount0Min = minOutAfterSlippage(quote.amount0, body.slippageBps)
  const amount1Min = minOutAfterSlippage(quote.amount1, body.slippageBps)
  const approves = [
    [token0, cap0],
    [token1, cap1],
  ] as const
  const approvals = approves
    .filter(([, amount]) => amount > 0n)
    .map(([token, needed]) =>
      approveIfShort({
        token: token.address,
        spender: NPM,
        needed,
        allowance: token.allowance,
        label: tokenLabel(needed, token),
        spenderName: 'the Uniswap position manager',
      }),
    )
  const mint = encodeUniMint({
    token0,
    token1,
    fee: body.fee,
    tickLower: range.tickLower,
    tickUpper: range.tickUpper,
    amount0Desired: cap0,
    amount1Desired: cap1,
    amount0Min,
    amount1Min,
    owner,
    deadline: BigInt(expiresAt),
    fullRange: range.fullRange,
  })
  return engine.finish({
    owner,
    steps: [...approvals.flatMap((a) => a.steps), mint],
    watch: [t0, t1],
    issues: { balance: null, allowance: approvals.find((a) => a.issue !== null)?.issue ?? null },
    action: {
      type: 'uniAdd',
      pool,
      token0: t0,
      token1: t1,
      fee: body.fee,
      tickLower: range.tickLower,
      tickUpper: range.tickUpper,
      fullRange: range.fullRange,
      sqrtPriceX96: state.sqrtPriceX96.toString(),
      tick: state.tick,
      liquidity: quote.liquidity.toString(),
      amount0: quote.amount0.toString(),
      amount1: quote.amount1.toString(),
      amount0Min: amount0Min.toString(),
      amount1Min: amount1Min.toString(),
      amount0Max: cap0.toString(),
      amount1Max: cap1.toString(),
    },
    revertAbi: lpRevertAbi,
    quotedAt,
    expiresAt,
  })
}
