import { type Address, erc20Abi, isAddressEqual } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { multiRead, viewCall } from '../../chain/multiRead.js'
import { multicall3BlockFactsAbi } from '../../chain/swapVenueAbis.js'
import { uniswapV3PoolAbi, uniswapV3PoolAddress } from '../../chain/uniswapV3Pool.js'
import type { BuilderEngine } from '../builderEngine.js'
import { BuildRefusedError } from '../builderErrors.js'
import { required } from '../required.js'
import { positionManagerAbi, uniswapV3PoolFeeAbi } from './lpAbis.js'
import { feeGrowthInside, feesOwed } from './lpUniMath.js'

const NPM = BASE_ADDRESSES.NonfungiblePositionManager

export interface UniPositionToken {
  address: Address
  symbol: string
  decimals: number
}

/** A position NFT as remove and collect need it, with the pool's state and the fees collect would pay. */
export interface UniPosition {
  tokenId: bigint
  holder: Address
  token0: UniPositionToken
  token1: UniPositionToken
  fee: number
  tickLower: number
  tickUpper: number
  liquidity: bigint
  pool: { address: Address; sqrtPriceX96: bigint; tick: number }
  /** What collect pays now: tokensOwed plus the fee growth since the NPM's last snapshot. */
  fees0: bigint
  fees1: bigint
  /** The block everything above was read at. */
  blockNumber: bigint
}

/**
 * Reads position `tokenId` and checks that `owner` may act on it (the NFT's holder, its approved address
 * or an operator of the holder: the NPM's isAuthorizedForToken), then reads its pool at the same block.
 * Two multicalls: the pool and tokens follow from the position. A tokenId the NPM does not know is 422
 * position_not_found; one `owner` may not act on is 422 not_position_owner, both naming the field.
 */
export async function readUniPosition(
  engine: BuilderEngine,
  tokenId: bigint,
  owner: Address,
): Promise<UniPosition> {
  const first = await multiRead(engine.chain, {
    block: [viewCall(BASE_ADDRESSES.Multicall3, multicall3BlockFactsAbi, 'getBlockNumber', [])],
    position: [viewCall(NPM, positionManagerAbi, 'positions', [tokenId])],
    holder: [viewCall(NPM, positionManagerAbi, 'ownerOf', [tokenId])],
    approved: [viewCall(NPM, positionManagerAbi, 'getApproved', [tokenId])],
  })
  const block = required(first.block[0], 'the block number')
  const p = first.position[0]
  const holder = first.holder[0]
  // positions() and ownerOf() revert for an id never minted or already burned.
  if (p === undefined || holder === undefined)
    throw new BuildRefusedError(
      'position_not_found',
      `The Uniswap v3 position manager holds no position ${tokenId} (never minted, or burned).`,
      'tokenId',
      { tokenId: tokenId.toString() },
    )
  const [, , t0, t1, fee, tickLower, tickUpper, liquidity, inside0Last, inside1Last, owed0, owed1] = p
  const pool = uniswapV3PoolAddress(t0, t1, fee)
  const tick = (t: number) => viewCall(pool, uniswapV3PoolFeeAbi, 'ticks', [t])
  const meta = (t: Address) =>
    [viewCall(t, erc20Abi, 'symbol', []), viewCall(t, erc20Abi, 'decimals', [])] as const
  const second = await multiRead(
    engine.chain,
    {
      operator: [viewCall(NPM, positionManagerAbi, 'isApprovedForAll', [holder, owner])],
      slot0: [viewCall(pool, uniswapV3PoolAbi, 'slot0', [])],
      global: [
        viewCall(pool, uniswapV3PoolFeeAbi, 'feeGrowthGlobal0X128', []),
        viewCall(pool, uniswapV3PoolFeeAbi, 'feeGrowthGlobal1X128', []),
      ],
      ticks: [tick(tickLower), tick(tickUpper)],
      token0: meta(t0),
      token1: meta(t1),
    },
    block,
  )
  const authorised =
    isAddressEqual(holder, owner) ||
    isAddressEqual(first.approved[0] ?? '0x0000000000000000000000000000000000000000', owner) ||
    required(second.operator[0], 'isApprovedForAll')
  if (!authorised)
    throw new BuildRefusedError(
      'not_position_owner',
      `Position ${tokenId} belongs to ${holder}, and ${owner} is neither its holder nor approved for it.`,
      'owner',
      { tokenId: tokenId.toString(), holder },
    )
  const slot0 = required(second.slot0[0], 'the pool slot0')
  const [lower, upper] = second.ticks.map((t) => {
    const r = required(t, 'the position’s ticks')
    return { feeGrowthOutside0X128: r[2], feeGrowthOutside1X128: r[3] }
  })
  const inside = feeGrowthInside(
    slot0[1],
    tickLower,
    tickUpper,
    required(lower, 'the lower tick'),
    required(upper, 'the upper tick'),
    required(second.global[0], 'feeGrowthGlobal0X128'),
    required(second.global[1], 'feeGrowthGlobal1X128'),
  )
  const fees = feesOwed(
    {
      liquidity,
      feeGrowthInside0LastX128: inside0Last,
      feeGrowthInside1LastX128: inside1Last,
      tokensOwed0: owed0,
      tokensOwed1: owed1,
    },
    inside,
  )
  const token = (address: Address, r: readonly (string | number | undefined)[]): UniPositionToken => ({
    address,
    symbol: typeof r[0] === 'string' ? r[0] : address,
    decimals: typeof r[1] === 'number' ? r[1] : 18,
  })
  return {
    tokenId,
    holder,
    token0: token(t0, second.token0),
    token1: token(t1, second.token1),
    fee,
    tickLower,
    tickUpper,
    liquidity,
    pool: { address: pool, sqrtPriceX96: slot0[0], tick: slot0[1] },
    ...fees,
    blockNumber: block,
  }
}
