import { type Address, erc20Abi, parseAbi, toFunctionSelector } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STOCK_TICKERS } from '../../../src/chain/tokenizedStocks.js'
import {
  deployStocks,
  STOCK_REGISTRY_ADDRESS,
  STOCKS,
  type StocksDeployment,
  stockFeedAnswer,
  stockStandInAbi,
} from '../../../src/devnet/deploy/stocks.js'
import { deployTokens } from '../../../src/devnet/deploy/tokens.js'
import { deployUniswap } from '../../../src/devnet/deploy/uniswap.js'
import { type Harness, startHarness } from './harness.js'

const WAD = 10n ** 18n
const factoryAbi = parseAbi(['function getPool(address, address, uint24) view returns (address)'])
const ZERO: Address = '0x0000000000000000000000000000000000000000'

let h: Harness
let usdc: Address
let deployment: StocksDeployment

const read = <T>(address: Address, functionName: string, args: readonly unknown[] = []) =>
  h.ctx.read<T>({ address, abi: [...stockStandInAbi, ...erc20Abi], functionName, args })

beforeAll(async () => {
  h = await startHarness()
  const tokens = await deployTokens(h.ctx, { ethUsd: 3_500, btcUsd: 100_000 })
  usdc = tokens.USDC
  const uniswap = await deployUniswap(h.ctx, { WETH: tokens.WETH })
  deployment = await deployStocks(h.ctx, { usdc, liquidityUsdPerSide: 50_000 })
  expect(uniswap.factory).toBeDefined()
}, 60_000)

afterAll(async () => {
  await h?.stop()
})

describe('tokenized stocks stand-in', () => {
  it('behavior: 13 tickers at their Base addresses, 8 decimals, multiplier and registry', async () => {
    expect(Object.keys(deployment.stocks)).toHaveLength(13)
    expect(toFunctionSelector('getOracleParams(address)')).toBe('0xd4197e82')
    expect(toFunctionSelector('multiplier()')).toBe('0x1b3ed722')
    for (const ticker of STOCK_TICKERS) {
      const { token } = deployment.stocks[ticker]
      expect(token.toLowerCase()).toBe(STOCKS[ticker].token.toLowerCase())
      expect(await read<string>(token, 'symbol')).toBe(ticker)
      expect(await read<number>(token, 'decimals')).toBe(8)
      expect(await read<bigint>(token, 'multiplier')).toBe(STOCKS[ticker].multiplier)
    }
    const aapl = deployment.stocks.AAPLc.token
    expect(await read<readonly [bigint, boolean]>(STOCK_REGISTRY_ADDRESS, 'getOracleParams', [aapl])).toEqual(
      [STOCKS.AAPLc.multiplier, false],
    )
  })

  it('behavior: admin multiplier update scales balances; pause is mirrored by the registry', async () => {
    const token = deployment.stocks.MSFTc.token
    const raw = await read<bigint>(token, 'balanceOf', [h.ctx.deployer])
    expect(raw).toBe(0n) // every share went into the pool
    await h.ctx.write({
      address: token,
      abi: stockStandInAbi,
      functionName: 'mint',
      args: [h.ctx.deployer, 10n ** 8n],
    })
    await h.ctx.write({
      address: token,
      abi: stockStandInAbi,
      functionName: 'setMultiplier',
      args: [2n * WAD],
    }) // 2:1 split
    expect(await read<bigint>(token, 'scaledBalanceOf', [h.ctx.deployer])).toBe(2n * 10n ** 8n)
    expect(await read<bigint>(token, 'uiMultiplier')).toBe(2n * WAD)
    await h.ctx.write({ address: token, abi: stockStandInAbi, functionName: 'setPaused', args: [true] })
    expect(
      await read<readonly [bigint, boolean]>(STOCK_REGISTRY_ADDRESS, 'getOracleParams', [token]),
    ).toEqual([2n * WAD, true])
    await expect(
      h.ctx.write({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [h.users[0]!.account.address, 1n],
      }),
    ).rejects.toThrow()
  })

  it('behavior: feeds report price x multiplier with updatedAt, and the admin can move or backdate them', async () => {
    const { feed } = deployment.stocks.NVDAc
    const [, answer, , updatedAt] = await read<readonly [bigint, bigint, bigint, bigint, bigint]>(
      feed,
      'latestRoundData',
    )
    expect(answer).toBe(stockFeedAnswer(STOCKS.NVDAc))
    expect(await read<number>(feed, 'decimals')).toBe(8)
    const block = await h.ctx.publicClient.getBlock()
    expect(updatedAt).toBeLessThanOrEqual(block.timestamp)
    await h.ctx.write({
      address: feed,
      abi: stockStandInAbi,
      functionName: 'setAnswerAt',
      args: [150n * 10n ** 8n, 1_000n],
    })
    const [, moved, , stale] = await read<readonly [bigint, bigint, bigint, bigint, bigint]>(
      feed,
      'latestRoundData',
    )
    expect([moved, stale]).toEqual([150n * 10n ** 8n, 1_000n])
  })

  it('behavior: minted tickers have a USDC pool, SPCXc is registered but unminted with no pool', async () => {
    const factory = '0x33128a8fC17869897dcE68Ed026d694621f6FDfD'
    const aapl = deployment.stocks.AAPLc
    expect(aapl.pool).toBeDefined()
    expect(
      await h.ctx.read({
        address: factory,
        abi: factoryAbi,
        functionName: 'getPool',
        args: [aapl.token, usdc, 3000],
      }),
    ).toBe(aapl.pool)
    expect(await read<bigint>(aapl.token, 'balanceOf', [aapl.pool!])).toBeGreaterThan(0n)

    const spcx = deployment.stocks.SPCXc
    expect(spcx.minted).toBe(false)
    expect(spcx.pool).toBeUndefined()
    expect(await read<bigint>(spcx.token, 'totalSupply')).toBe(0n)
    expect(
      await h.ctx.read({
        address: factory,
        abi: factoryAbi,
        functionName: 'getPool',
        args: [spcx.token, usdc, 3000],
      }),
    ).toBe(ZERO)
    expect(
      await read<readonly [bigint, boolean]>(STOCK_REGISTRY_ADDRESS, 'getOracleParams', [spcx.token]),
    ).toEqual([WAD, false])
  })
})
