import { erc20Abi, maxUint256, parseAbi, parseUnits } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { expectMined } from '../helpers/expectMined.js'
import { startTestDevnet, type TestDevnet } from './devnetFixture.js'

const poolAbi = parseAbi([
  'function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)',
  'function withdraw(address asset, uint256 amount, address to) returns (uint256)',
  'function getUserAccountData(address user) view returns (uint256 totalCollateralBase, uint256 totalDebtBase, uint256 availableBorrowsBase, uint256 currentLiquidationThreshold, uint256 ltv, uint256 healthFactor)',
])
const feedAbi = parseAbi(['function setAnswer(int256 answer)'])
const oracleAbi = parseAbi(['function getAssetPrice(address asset) view returns (uint256)'])

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet()
})
afterAll(async () => {
  await devnet?.stop()
})

describe('Aave v3 on the devnet', () => {
  it('supplies WETH and withdraws everything with type(uint256).max', async () => {
    const wallet = devnet.wallet(4)
    const me = wallet.account.address
    const aWeth = devnet.manifest.aave.reserves.WETH.aToken
    const amount = parseUnits('2', 18)
    const balance = (token: `0x${string}`) =>
      devnet.publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [me],
      })
    const mined = (hash: `0x${string}`) => expectMined(devnet.publicClient, hash)

    const wethBefore = await balance(BASE_ADDRESSES.WETH)
    await mined(
      await wallet.writeContract({
        address: BASE_ADDRESSES.WETH,
        abi: erc20Abi,
        functionName: 'approve',
        args: [BASE_ADDRESSES.AavePool, amount],
      }),
    )
    await mined(
      await wallet.writeContract({
        address: BASE_ADDRESSES.AavePool,
        abi: poolAbi,
        functionName: 'supply',
        args: [BASE_ADDRESSES.WETH, amount, me, 0],
      }),
    )
    expect(await balance(aWeth)).toBeGreaterThanOrEqual(amount - 1n)
    const [collateralBase] = await devnet.publicClient.readContract({
      address: BASE_ADDRESSES.AavePool,
      abi: poolAbi,
      functionName: 'getUserAccountData',
      args: [me],
    })
    // 2 WETH at 3000 USD, base currency USD with 8 decimals.
    expect(collateralBase).toBe(6000n * 10n ** 8n)

    await mined(
      await wallet.writeContract({
        address: BASE_ADDRESSES.AavePool,
        abi: poolAbi,
        functionName: 'withdraw',
        args: [BASE_ADDRESSES.WETH, maxUint256, me],
      }),
    )
    expect(await balance(aWeth)).toBe(0n)
    // Interest accrued over a couple of blocks may add a few wei; nothing may be lost.
    expect(await balance(BASE_ADDRESSES.WETH)).toBeGreaterThanOrEqual(wethBefore)
  })

  it('aTokens and debt tokens of USDC and WETH sit at their Base addresses', () => {
    const { USDC, WETH } = devnet.manifest.aave.reserves
    expect(USDC.aToken).toBe(BASE_ADDRESSES.aBasUSDC)
    expect(USDC.variableDebtToken).toBe(BASE_ADDRESSES.variableDebtBasUSDC)
    expect(WETH.aToken).toBe(BASE_ADDRESSES.aBasWETH)
    expect(WETH.variableDebtToken).toBe(BASE_ADDRESSES.variableDebtBasWETH)
  })

  it('AaveOracle follows the settable feed', async () => {
    const feed = devnet.manifest.aave.reserves.WETH.priceFeed
    const hash = await devnet.adminWallet().writeContract({
      address: feed,
      abi: feedAbi,
      functionName: 'setAnswer',
      args: [3100n * 10n ** 8n],
    })
    await pollReceipt(devnet.publicClient, hash, RECEIPT)
    const price = await devnet.publicClient.readContract({
      address: BASE_ADDRESSES.AaveOracle,
      abi: oracleAbi,
      functionName: 'getAssetPrice',
      args: [BASE_ADDRESSES.WETH],
    })
    expect(price).toBe(3100n * 10n ** 8n)
  })
})
