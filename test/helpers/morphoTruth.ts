import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  parseAbi,
} from 'viem'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { type MorphoMarketParams, morphoAbi, morphoMarketId } from '../../src/chain/morpho.js'

const WAD = 10n ** 18n
const irmAbi = parseAbi([
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'struct Market { uint128 totalSupplyAssets; uint128 totalSupplyShares; uint128 totalBorrowAssets; uint128 totalBorrowShares; uint128 lastUpdate; uint128 fee; }',
  'function borrowRateView(MarketParams marketParams, Market market) view returns (uint256)',
])
const oracleAbi = parseAbi(['function price() view returns (uint256)'])

/** A view call at `blockNumber` evaluated as if block.timestamp were `time` (what the service projects to). */
export async function readAt<T>(
  chain: PublicClient,
  to: Address,
  abi: readonly unknown[],
  functionName: string,
  args: readonly unknown[],
  blockNumber: bigint,
  time: number,
): Promise<T> {
  const data = encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])
  const answer = await chain.call({ to, data, blockNumber, blockOverrides: { time: BigInt(time) } })
  return decodeFunctionResult({ abi, functionName, data: answer.data ?? '0x' } as Parameters<
    typeof decodeFunctionResult
  >[0]) as T
}

export interface MorphoBorrowTruth {
  params: MorphoMarketParams
  collateral: bigint
  borrowShares: bigint
  /** Debt at `asOf`: Morpho's accrual written out here (x + x²/2 + x³/6, each step rounded down), shares rounded up. */
  debt: bigint
  /** Oracle price × 1e36 at the block. */
  price: bigint
  /** ⌊⌊collateral × price / 1e36⌋ × lltv / 1e18⌋. */
  maxBorrow: bigint
  /** Per-second borrow rate (WAD) at `asOf`. */
  rate: bigint
}

/** A Morpho Blue borrow recomputed from the raw chain state at `block`, accrued to `asOf`, with this file's arithmetic. */
export async function morphoBorrowTruth(
  chain: PublicClient,
  id: Hex,
  owner: Address,
  block: bigint,
  asOf: number,
): Promise<MorphoBorrowTruth> {
  const at = { address: BASE_ADDRESSES.MorphoBlue, abi: morphoAbi, blockNumber: block } as const
  const p = await chain.readContract({ ...at, functionName: 'idToMarketParams', args: [id] })
  const params = { loanToken: p[0], collateralToken: p[1], oracle: p[2], irm: p[3], lltv: p[4] }
  if (morphoMarketId(params) !== id) throw new Error(`market params of ${id} do not hash back to it`)
  const [, borrowShares, collateral] = await chain.readContract({
    ...at,
    functionName: 'position',
    args: [id, owner],
  })
  const m = await chain.readContract({ ...at, functionName: 'market', args: [id] })
  const state = {
    totalSupplyAssets: m[0],
    totalSupplyShares: m[1],
    totalBorrowAssets: m[2],
    totalBorrowShares: m[3],
    lastUpdate: m[4],
    fee: m[5],
  }
  const rate = await readAt<bigint>(chain, params.irm, irmAbi, 'borrowRateView', [params, state], block, asOf)
  const x = rate * (BigInt(asOf) - state.lastUpdate)
  const x2 = (x * x) / (2n * WAD)
  const x3 = (x2 * x) / (3n * WAD)
  const totalBorrow = state.totalBorrowAssets + (state.totalBorrowAssets * (x + x2 + x3)) / WAD
  const virtualShares = state.totalBorrowShares + 1_000_000n
  const debt = (borrowShares * (totalBorrow + 1n) + virtualShares - 1n) / virtualShares
  const price = await chain.readContract({
    address: params.oracle,
    abi: oracleAbi,
    functionName: 'price',
    blockNumber: block,
  })
  const maxBorrow = (((collateral * price) / 10n ** 36n) * params.lltv) / WAD
  return { params, collateral, borrowShares, debt, price, maxBorrow, rate }
}
