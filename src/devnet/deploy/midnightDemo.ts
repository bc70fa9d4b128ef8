import { createWalletClient, custom, erc20Abi, type Hex, parseAbi, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { type MidnightMarket, type MidnightOffer, midnightAbi } from '../../chain/midnight.js'
import type { DeployContext } from '../deployContext.js'
import type { DevnetAccount } from '../devnetAccounts.js'
import { withGasHeadroom } from '../withGasHeadroom.js'
import { fundToken } from './tokens.js'

/**
 * Fixed maturities of the two demo markets (2029-01-01 and 2030-01-01, 00:00 UTC): their ids never change
 * between builds, so the fixed-rate builders' examples can name them.
 */
export const MIDNIGHT_DEMO_MATURITIES = { lend: 1_861_920_000n, borrow: 1_893_456_000n } as const

/** What demo account #1 holds in the demo markets after the build. */
export const MIDNIGHT_DEMO = {
  /** Units #1 bought in the lend market (its credit) and how many of them the borrower repaid early. */
  lentUnits: parseUnits('1000', 6),
  repaidUnits: parseUnits('400', 6),
  /** WETH #1 posted in the borrow market and the units it sold there (its debt). */
  collateralWeth: parseUnits('1', 18),
  borrowedUnits: parseUnits('1000', 6),
} as const

const wethAbi = parseAbi(['function deposit() payable'])

/**
 * Demo account #1's Midnight positions, as real transactions it signs: credit in the lend market (it
 * takes the deployer's ask; the deployer then repays part early, so some of it is withdrawable) and debt
 * against WETH in the borrow market (it takes the deployer's bid). Its token balances end where they
 * started: the deployer funds the USDC it lends, it wraps the WETH it posts from ETH, and it hands the
 * USDC it borrows back to the deployer.
 */
export async function seedMidnightDemo(
  ctx: DeployContext,
  account: DevnetAccount,
  d: {
    midnight: Hex
    markets: readonly { id: Hex; market: MidnightMarket }[]
    /** The deployer's live offer on one side of a market, with its ratifier data (from the offer book). */
    offerOf(id: Hex, buy: boolean): Promise<{ offer: MidnightOffer; ratifierData: Hex }>
  },
): Promise<void> {
  const wallet = createWalletClient({
    chain: ctx.publicClient.chain,
    transport: withGasHeadroom(custom({ request: ctx.publicClient.request })),
    account: privateKeyToAccount(account.privateKey),
  })
  const me = wallet.account.address
  const send = async (hash: Promise<Hex>) => {
    const receipt = await ctx.publicClient.waitForTransactionReceipt({
      hash: await hash,
      pollingInterval: 20,
    })
    if (receipt.status !== 'success')
      throw new Error(`midnight demo transaction ${receipt.transactionHash} reverted`)
    return receipt
  }
  const gas = 2_000_000n
  const usdc = d.markets[0]!.market.loanToken
  const weth = d.markets[0]!.market.collateralParams.find((c) =>
    c.token.toLowerCase().startsWith('0x4200'),
  )!.token
  const usdcBefore = await ctx.read<bigint>({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [me],
  })
  const marketAt = (maturity: bigint) => d.markets.find((m) => m.market.maturity === maturity)!
  // Lend market: #1 buys units from the deployer's ask, the deployer repays part of its debt early.
  const lend = marketAt(MIDNIGHT_DEMO_MATURITIES.lend)
  const ask = await d.offerOf(lend.id, false)
  await fundToken(ctx, usdc, me, MIDNIGHT_DEMO.lentUnits)
  await send(
    wallet.writeContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'approve',
      args: [d.midnight, MIDNIGHT_DEMO.lentUnits],
    }),
  )
  const zero = '0x0000000000000000000000000000000000000000'
  await send(
    wallet.writeContract({
      address: d.midnight,
      abi: midnightAbi,
      functionName: 'take',
      args: [ask.offer, ask.ratifierData, MIDNIGHT_DEMO.lentUnits, me, zero, zero, '0x'],
      gas,
    }),
  )
  await ctx.write({
    address: d.midnight,
    abi: midnightAbi,
    functionName: 'repay',
    args: [lend.market, MIDNIGHT_DEMO.repaidUnits, ctx.deployer, zero, '0x'],
  })

  // Borrow market: #1 posts WETH (wrapped from its ETH) and sells units to the deployer's bid.
  const borrow = marketAt(MIDNIGHT_DEMO_MATURITIES.borrow)
  const bid = await d.offerOf(borrow.id, true)
  const index = BigInt(borrow.market.collateralParams.findIndex((c) => c.token === weth))
  await send(
    wallet.writeContract({
      address: weth,
      abi: wethAbi,
      functionName: 'deposit',
      value: MIDNIGHT_DEMO.collateralWeth,
    }),
  )
  await send(
    wallet.writeContract({
      address: weth,
      abi: erc20Abi,
      functionName: 'approve',
      args: [d.midnight, MIDNIGHT_DEMO.collateralWeth],
    }),
  )
  await send(
    wallet.writeContract({
      address: d.midnight,
      abi: midnightAbi,
      functionName: 'supplyCollateral',
      args: [borrow.market, index, MIDNIGHT_DEMO.collateralWeth, me],
      gas,
    }),
  )
  await send(
    wallet.writeContract({
      address: d.midnight,
      abi: midnightAbi,
      functionName: 'take',
      args: [bid.offer, bid.ratifierData, MIDNIGHT_DEMO.borrowedUnits, me, me, zero, '0x'],
      gas,
    }),
  )
  // Back to where #1 started: the USDC left over from lending and all it borrowed go to the deployer.
  const held = await ctx.read<bigint>({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [me] })
  if (held > usdcBefore)
    await send(
      wallet.writeContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [ctx.deployer, held - usdcBefore],
      }),
    )
}
