import { encodeAbiParameters, erc20Abi, keccak256, maxUint256, parseAbi, parseUnits, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { type MorphoMarketParams, morphoAbi, morphoMarketId } from '../../src/chain/morpho.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { expectMined } from '../helpers/expectMined.js'
import { startTestDevnet, type TestDevnet } from './devnetFixture.js'

const oracleAbi = parseAbi(['function price() view returns (uint256)'])
const vaultAbi = parseAbi([
  'function deposit(uint256 assets, address receiver) returns (uint256 shares)',
  'function balanceOf(address) view returns (uint256)',
  'function totalAssets() view returns (uint256)',
  'function asset() view returns (address)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
])

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet()
})
afterAll(async () => {
  await devnet?.stop()
})

/** Manifest values come from JSON, so the lltv is a decimal string there. */
function paramsOf(name: 'WETH_USDC' | 'cbBTC_USDC' | 'cbBTC_WETH'): MorphoMarketParams {
  const p = devnet.manifest.morpho.markets[name].params
  return { ...p, lltv: BigInt(p.lltv) }
}

describe('Morpho Blue on the devnet', () => {
  it('market ids re-derive as keccak256(abi.encode(MarketParams)) and exist onchain', async () => {
    for (const name of ['WETH_USDC', 'cbBTC_USDC', 'cbBTC_WETH'] as const) {
      const params = paramsOf(name)
      const id = morphoMarketId(params)
      expect(id).toBe(devnet.manifest.morpho.markets[name].id)
      const stored = await devnet.publicClient.readContract({
        address: BASE_ADDRESSES.MorphoBlue,
        abi: morphoAbi,
        functionName: 'idToMarketParams',
        args: [id],
      })
      expect(stored[0]).toBe(params.loanToken)
      expect(stored[4]).toBe(params.lltv)
      const market = await devnet.publicClient.readContract({
        address: BASE_ADDRESSES.MorphoBlue,
        abi: morphoAbi,
        functionName: 'market',
        args: [id],
      })
      expect(market[0]).toBeGreaterThan(0n)
      expect(market[2]).toBeGreaterThan(0n)
    }
  })

  it('the etched Morpho has the DOMAIN_SEPARATOR of its Base address (immutable patched)', async () => {
    const expected = keccak256(
      encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
        [
          keccak256(toHex('EIP712Domain(uint256 chainId,address verifyingContract)')),
          8453n,
          BASE_ADDRESSES.MorphoBlue,
        ],
      ),
    )
    const actual = await devnet.publicClient.readContract({
      address: BASE_ADDRESSES.MorphoBlue,
      abi: morphoAbi,
      functionName: 'DOMAIN_SEPARATOR',
    })
    expect(actual).toBe(expected)
  })

  it('oracle prices are scaled 1e36 with decimals (WETH/USDC ≈ 3000e6 per 1e18)', async () => {
    const price = await devnet.publicClient.readContract({
      address: paramsOf('WETH_USDC').oracle,
      abi: oracleAbi,
      functionName: 'price',
    })
    expect(price).toBe((3000n * 10n ** 6n * 10n ** 36n) / 10n ** 18n)
  })

  it('supplyCollateral 1 WETH then borrow 1500 USDC', async () => {
    const wallet = devnet.wallet(2)
    const me = wallet.account.address
    const params = paramsOf('WETH_USDC')
    const id = morphoMarketId(params)
    const send = async (hash: `0x${string}`) => {
      const receipt = await pollReceipt(devnet.publicClient, hash, RECEIPT)
      expect(receipt.status).toBe('success')
    }
    await send(
      await wallet.writeContract({
        address: BASE_ADDRESSES.WETH,
        abi: erc20Abi,
        functionName: 'approve',
        args: [BASE_ADDRESSES.MorphoBlue, maxUint256],
      }),
    )
    await send(
      await wallet.writeContract({
        address: BASE_ADDRESSES.MorphoBlue,
        abi: morphoAbi,
        functionName: 'supplyCollateral',
        args: [params, parseUnits('1', 18), me, '0x'],
      }),
    )
    const usdcBefore = await devnet.publicClient.readContract({
      address: BASE_ADDRESSES.USDC,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [me],
    })
    await send(
      await wallet.writeContract({
        address: BASE_ADDRESSES.MorphoBlue,
        abi: morphoAbi,
        functionName: 'borrow',
        args: [params, parseUnits('1500', 6), 0n, me, me],
      }),
    )
    const usdcAfter = await devnet.publicClient.readContract({
      address: BASE_ADDRESSES.USDC,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [me],
    })
    expect(usdcAfter - usdcBefore).toBe(parseUnits('1500', 6))
    const [, borrowShares, collateral] = await devnet.publicClient.readContract({
      address: BASE_ADDRESSES.MorphoBlue,
      abi: morphoAbi,
      functionName: 'position',
      args: [id, me],
    })
    expect(collateral).toBe(parseUnits('1', 18))
    expect(borrowShares).toBeGreaterThan(0n)
  })

  it('deposits USDC into the MetaMorpho vault, which supplies it to Morpho, and into the plain vault', async () => {
    const wallet = devnet.wallet(3)
    const me = wallet.account.address
    const amount = parseUnits('1000', 6)
    const firstMarket = morphoMarketId(paramsOf('WETH_USDC'))
    for (const vault of [devnet.manifest.morpho.metaMorphoUsdcVault, devnet.manifest.morpho.plainUsdcVault]) {
      expect(
        await devnet.publicClient.readContract({ address: vault, abi: vaultAbi, functionName: 'asset' }),
      ).toBe(BASE_ADDRESSES.USDC)
      const vaultSupplyBefore = await devnet.publicClient.readContract({
        address: BASE_ADDRESSES.MorphoBlue,
        abi: morphoAbi,
        functionName: 'position',
        args: [firstMarket, vault],
      })
      const approve = await wallet.writeContract({
        address: BASE_ADDRESSES.USDC,
        abi: erc20Abi,
        functionName: 'approve',
        args: [vault, amount],
      })
      await pollReceipt(devnet.publicClient, approve, RECEIPT)
      const hash = await wallet.writeContract({
        address: vault,
        abi: vaultAbi,
        functionName: 'deposit',
        args: [amount, me],
      })
      await expectMined(devnet.publicClient, hash)
      const shares = await devnet.publicClient.readContract({
        address: vault,
        abi: vaultAbi,
        functionName: 'balanceOf',
        args: [me],
      })
      const assets = await devnet.publicClient.readContract({
        address: vault,
        abi: vaultAbi,
        functionName: 'convertToAssets',
        args: [shares],
      })
      // Rounding (and accrued interest) may cost at most a unit or so.
      expect(assets).toBeGreaterThanOrEqual(amount - 2n)
      expect(assets).toBeLessThanOrEqual(amount)
      const vaultSupplyAfter = await devnet.publicClient.readContract({
        address: BASE_ADDRESSES.MorphoBlue,
        abi: morphoAbi,
        functionName: 'position',
        args: [firstMarket, vault],
      })
      if (vault === devnet.manifest.morpho.metaMorphoUsdcVault) {
        expect(vaultSupplyAfter[0]).toBeGreaterThan(vaultSupplyBefore[0])
      } else {
        expect(vaultSupplyAfter[0]).toBe(0n)
      }
    }
  })
})
