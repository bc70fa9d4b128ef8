import { readFileSync } from 'node:fs'
import { type Abi, encodeFunctionData, erc20Abi, parseAbi, parseUnits, toFunctionSignature } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { loadArtifact } from '../../src/devnet/artifacts.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { startTestDevnet, type TestDevnet } from './devnetFixture.js'

const quoterAbi = parseAbi([
  'struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }',
  'function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
])
const routerAbi = parseAbi([
  'struct ExactInputSingleParams { address tokenIn; address tokenOut; uint24 fee; address recipient; uint256 amountIn; uint256 amountOutMinimum; uint160 sqrtPriceLimitX96; }',
  'function exactInputSingle(ExactInputSingleParams params) payable returns (uint256 amountOut)',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[])',
])

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet()
})
afterAll(async () => {
  await devnet?.stop()
})

describe('Uniswap v3 on the devnet', () => {
  it('vendored SwapRouter02 exposes every function of the verified Base ABI with the same selector', () => {
    const reference = JSON.parse(
      readFileSync(new URL('../../docs/abi/uniswap-SwapRouter02.json', import.meta.url), 'utf8'),
    ) as Abi
    const signatures = (abi: Abi) =>
      new Set(abi.filter((item) => item.type === 'function').map((item) => toFunctionSignature(item)))
    const ours = signatures(loadArtifact('SwapRouter02').abi)
    for (const signature of signatures(reference)) expect(ours, signature).toContain(signature)
  })

  it('swaps USDC for WETH through SwapRouter02 at exactly the QuoterV2 price', async () => {
    const wallet = devnet.wallet(1)
    const me = wallet.account.address
    const amountIn = parseUnits('3000', 6)
    const { result } = await devnet.publicClient.simulateContract({
      address: BASE_ADDRESSES.QuoterV2,
      abi: quoterAbi,
      functionName: 'quoteExactInputSingle',
      args: [
        {
          tokenIn: BASE_ADDRESSES.USDC,
          tokenOut: BASE_ADDRESSES.WETH,
          amountIn,
          fee: 500,
          sqrtPriceLimitX96: 0n,
        },
      ],
    })
    const [quoted] = result
    // ≈ 1 WETH at ETH ≈ 3000 USD, less the 0.05 % fee.
    expect(quoted).toBeGreaterThan(parseUnits('0.99', 18))
    expect(quoted).toBeLessThan(parseUnits('1.0', 18))

    const wethBefore = await devnet.publicClient.readContract({
      address: BASE_ADDRESSES.WETH,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [me],
    })
    const approveHash = await wallet.writeContract({
      address: BASE_ADDRESSES.USDC,
      abi: erc20Abi,
      functionName: 'approve',
      args: [BASE_ADDRESSES.SwapRouter02, amountIn],
    })
    await pollReceipt(devnet.publicClient, approveHash, RECEIPT)
    // The deadline-checked multicall wrapper, as a builder would encode it for Base mainnet.
    const swap = encodeFunctionData({
      abi: routerAbi,
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: BASE_ADDRESSES.USDC,
          tokenOut: BASE_ADDRESSES.WETH,
          fee: 500,
          recipient: me,
          amountIn,
          amountOutMinimum: quoted,
          sqrtPriceLimitX96: 0n,
        },
      ],
    })
    const block = await devnet.publicClient.getBlock()
    const hash = await wallet.writeContract({
      address: BASE_ADDRESSES.SwapRouter02,
      abi: routerAbi,
      functionName: 'multicall',
      // The later of the latest block (as old as the state cache) and the wall clock the next block uses.
      args: [laterThanNow(block.timestamp) + 600n, [swap]],
    })
    const receipt = await pollReceipt(devnet.publicClient, hash, RECEIPT)
    expect(receipt.status).toBe('success')
    const wethAfter = await devnet.publicClient.readContract({
      address: BASE_ADDRESSES.WETH,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [me],
    })
    expect(wethAfter - wethBefore).toBe(quoted)
  })

  it('seeded pools sit at their real Base addresses and prices', async () => {
    const pools = devnet.manifest.uniswap.pools
    expect(pools.WETH_USDC_500.pool).toBe(BASE_ADDRESSES.UniswapV3WethUsdc500Pool)
    const slot0 = await devnet.publicClient.readContract({
      address: pools.cbBTC_USDC_500.pool,
      abi: parseAbi([
        'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
      ]),
      functionName: 'slot0',
    })
    // token0 = USDC (0x83…) < cbBTC (0xcb…): price = cbBTC per USDC in raw units = 1e8 / (60000 · 1e6).
    const price = (Number(slot0[0]) / 2 ** 96) ** 2
    expect(price).toBeCloseTo(1e8 / (60_000 * 1e6), 8)
  })
})

/** The later of a block timestamp and the wall clock (unix seconds). */
function laterThanNow(timestamp: bigint): bigint {
  const now = BigInt(Math.floor(Date.now() / 1000))
  return timestamp > now ? timestamp : now
}
