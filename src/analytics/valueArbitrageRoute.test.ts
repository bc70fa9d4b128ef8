import { describe, expect, test } from 'vitest'
import {
  AERODROME_SWAP_GAS,
  APPROVE_TX_GAS,
  type ArbitrageLegInput,
  amountForBudget,
  legGasUnits,
  ROUTER_OVERHEAD_GAS,
  TX_INTRINSIC_GAS,
  valueArbitrageRoute,
} from './valueArbitrageRoute.js'

const USDC = { decimals: 6, priceUsd: 1 }
const WETH = { decimals: 18, priceUsd: 3000 }

// 1000 USDC → 0.35 WETH on a cheap pool (30 bps fee, no gas estimate), 1 % slippage: minOut 0.3465 WETH;
// 0.3465 WETH → 1035 USDC on the 5 bps Uniswap pool (the swap transaction estimated at 100,000 gas).
const leg1: ArbitrageLegInput = {
  amountIn: 1_000_000_000n,
  expectedOut: 350_000_000_000_000_000n,
  minOut: 346_500_000_000_000_000n,
  sell: { ...USDC, erc20: true },
  buy: WETH,
  poolFeeBps: 30,
  aggregatorFeeUsd: 0,
  gasEstimate: null,
}
const leg2: ArbitrageLegInput = {
  amountIn: 346_500_000_000_000_000n,
  expectedOut: 1_035_000_000n,
  minOut: 1_024_650_000n,
  sell: { ...WETH, erc20: true },
  buy: USDC,
  poolFeeBps: 5,
  aggregatorFeeUsd: 0,
  gasEstimate: 100_000n,
}
const market = { baseFeeWei: 1_000_000_000n, ethUsd: 3000 } // 1 gwei

describe('valueArbitrageRoute', () => {
  test('behavior: net = final expected + leftovers − amount in − gas; fees reported, not subtracted', () => {
    const v = valueArbitrageRoute([leg1, leg2], market)
    // Leg 1 has no estimate: a whole Aerodrome swap transaction stands in; leg 2's estimate is whole.
    const units = TX_INTRINSIC_GAS + ROUTER_OVERHEAD_GAS + AERODROME_SWAP_GAS + 100_000n + 2n * APPROVE_TX_GAS
    expect(units).toBe(363_000n)
    expect(v.gasUnits).toBe(units)
    expect(v.gasUsd).toBe(1.089) // 363,000 gas × 1 gwei = 0.000363 ETH × 3000
    expect(v.leftoverUsd).toBe(10.5) // 0.0035 WETH × 3000
    expect(v.feesUsd).toBe(3.51975) // 1000 × 0.30 % + 0.3465 × 3000 × 0.05 %
    expect(v.minOutUsd).toBe(1024.65)
    expect(v.netUsd).toBe(44.411) // 1035 + 10.5 − 1000 − 1.089
  })

  test('behavior: native ETH sold needs no approve; an aggregator fee adds to fees', () => {
    expect(legGasUnits({ gasEstimate: 90_000n, sell: { ...WETH, erc20: false } })).toBe(90_000n)
    expect(legGasUnits({ gasEstimate: 90_000n, sell: { ...WETH, erc20: true } })).toBe(136_000n)
    const v = valueArbitrageRoute([{ ...leg1, aggregatorFeeUsd: 0.25, poolFeeBps: null }, leg2], market)
    expect(v.feesUsd).toBe(0.25 + 0.51975)
  })

  test('behavior: a leg with zero output loses the whole amount in, plus gas', () => {
    const dead = { ...leg2, expectedOut: 0n, minOut: 0n }
    const v = valueArbitrageRoute([leg1, dead], { baseFeeWei: 0n, ethUsd: 3000 })
    expect(v.gasUsd).toBe(0)
    expect(v.minOutUsd).toBe(0)
    expect(v.netUsd).toBe(10.5 - 1000)
  })

  test('error: a route without legs is refused', () => {
    expect(() => valueArbitrageRoute([], market)).toThrow(RangeError)
  })
})

describe('amountForBudget', () => {
  test('behavior: floor(budget / price × 10^decimals)', () => {
    expect(amountForBudget(100, 1, 6)).toBe(100_000_000n)
    expect(amountForBudget(100, 3000, 18)).toBe(BigInt(Math.floor((100 / 3000) * 1e18)))
    expect(amountForBudget(100, 60_000, 8)).toBe(166_666n) // 0.00166666… BTC
  })

  test('default: a zero budget is zero; a missing price is refused', () => {
    expect(amountForBudget(0, 3000, 18)).toBe(0n)
    expect(() => amountForBudget(100, 0, 6)).toThrow(RangeError)
    expect(() => amountForBudget(-1, 1, 6)).toThrow(RangeError)
  })

  test('attack: a budget beyond a uint256 amount (or one that overflows the float) is null, never a throw', () => {
    expect(amountForBudget(1e308, 1, 6)).toBeNull() // 1e314 atomic: Infinity as a float
    expect(amountForBudget(1e75, 1, 6)).toBeNull() // 1e81 > 2^256 ≈ 1.158e77
    expect(amountForBudget(1e70, 1, 6)).toBe(BigInt(Math.floor(1e70 * 1e6)))
  })
})
