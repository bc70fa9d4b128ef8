import { type Address, erc20Abi, parseAbi } from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { DEVNET_ADDRESSES } from '../addresses.js'
import type { DeployContext } from '../deployContext.js'

export interface TokensDeployment {
  USDC: Address
  WETH: Address
  cbBTC: Address
  UTIL: Address
  Multicall3: Address
  /** Chainlink-style USD feeds, 8 decimals, settable by the deployer (`setAnswer(int256)`). */
  feeds: { ETH_USD: Address; BTC_USD: Address; USDC_USD: Address }
}

export interface DeployTokensParams {
  /** Initial USD prices for the feeds (the market simulator moves them afterwards). */
  ethUsd: number
  btcUsd: number
}

const FEED_DECIMALS = 8

/** Feed answer (8 decimals) for a USD price. */
export function toFeedAnswer(priceUsd: number): bigint {
  return BigInt(Math.round(priceUsd * 10 ** FEED_DECIMALS))
}

/**
 * USDC, WETH9, cbBTC and Multicall3 at their Base addresses, UTIL at its devnet address, and the USD
 * price feeds. The deployer is USDC owner/master minter, cbBTC minter and initial holder of all UTIL.
 */
export async function deployTokens(
  ctx: DeployContext,
  params: DeployTokensParams,
): Promise<TokensDeployment> {
  const USDC = await ctx.etch('FiatTokenUSDC', BASE_ADDRESSES.USDC, [ctx.deployer])
  const WETH = await ctx.etch('WETH9', BASE_ADDRESSES.WETH)
  const cbBTC = await ctx.etch('MintableToken', BASE_ADDRESSES.cbBTC, [
    'Coinbase Wrapped BTC',
    'cbBTC',
    8,
    ctx.deployer,
  ])
  const Multicall3 = await ctx.etch('Multicall3', BASE_ADDRESSES.Multicall3)
  const UTIL = await ctx.etch('UtilToken', DEVNET_ADDRESSES.UTIL, [ctx.deployer])
  const ETH_USD = await ctx.etch('SettableAggregator', DEVNET_ADDRESSES.ETH_USD_FEED, [
    FEED_DECIMALS,
    'ETH / USD',
    toFeedAnswer(params.ethUsd),
    ctx.deployer,
  ])
  const BTC_USD = await ctx.etch('SettableAggregator', DEVNET_ADDRESSES.BTC_USD_FEED, [
    FEED_DECIMALS,
    'BTC / USD',
    toFeedAnswer(params.btcUsd),
    ctx.deployer,
  ])
  const USDC_USD = await ctx.etch('SettableAggregator', DEVNET_ADDRESSES.USDC_USD_FEED, [
    FEED_DECIMALS,
    'USDC / USD',
    toFeedAnswer(1),
    ctx.deployer,
  ])
  return { USDC, WETH, cbBTC, UTIL, Multicall3, feeds: { ETH_USD, BTC_USD, USDC_USD } }
}

const mintAbi = parseAbi(['function mint(address to, uint256 amount)'])
const wethAbi = parseAbi(['function deposit() payable'])

export class CannotFundError extends Error {
  override readonly name = 'CannotFundError'
}

/**
 * Make sure the deployer holds at least `amount` of `token`: WETH is wrapped from ETH, UTIL is already
 * held in full, and anything else must expose `mint(address,uint256)` callable by the deployer (USDC,
 * cbBTC, MintableToken-based stand-ins).
 */
export async function ensureDeployerBalance(
  ctx: DeployContext,
  token: Address,
  amount: bigint,
): Promise<void> {
  const balance = await ctx.read<bigint>({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [ctx.deployer],
  })
  if (balance >= amount) return
  const missing = amount - balance
  if (token.toLowerCase() === BASE_ADDRESSES.WETH.toLowerCase()) {
    await topUpEth(ctx, ctx.deployer, missing)
    await ctx.write({ address: token, abi: wethAbi, functionName: 'deposit', value: missing })
    return
  }
  try {
    await ctx.write({ address: token, abi: mintAbi, functionName: 'mint', args: [ctx.deployer, missing] })
  } catch (error) {
    throw new CannotFundError(`deployer cannot mint ${token}; fund it before seeding`, { cause: error })
  }
}

/** Send `amount` of `token` from the deployer to `to`, minting/wrapping first if needed. */
export async function fundToken(
  ctx: DeployContext,
  token: Address,
  to: Address,
  amount: bigint,
): Promise<void> {
  await ensureDeployerBalance(ctx, token, amount)
  await ctx.write({ address: token, abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
}

/** Raise `account`'s ETH balance by at least `extra` (anvil cheat code). */
export async function topUpEth(ctx: DeployContext, account: Address, extra: bigint): Promise<void> {
  const balance = await ctx.publicClient.getBalance({ address: account })
  await ctx.testClient.setBalance({ address: account, value: balance + extra })
}

/** The ERC-20 `approve` most deploy steps need. */
export async function approve(
  ctx: DeployContext,
  token: Address,
  spender: Address,
  amount: bigint,
): Promise<void> {
  await ctx.write({ address: token, abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
}
