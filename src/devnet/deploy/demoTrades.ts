import { createWalletClient, custom, erc20Abi, type Hex, parseAbi, zeroAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { USDC } from '../../chain/network.js'
import type { DeployContext } from '../deployContext.js'
import type { DevnetAccount } from '../devnetAccounts.js'
import { keeperTick } from '../keeper.js'
import { withGasHeadroom } from '../withGasHeadroom.js'
import { DEFAULT_GTRADE_PAIRS } from './gtrade.js'

const tradingAbi = parseAbi([
  'struct Trade { address user; uint32 index; uint16 pairIndex; uint24 leverage; bool long; bool isOpen; uint8 collateralIndex; uint8 tradeType; uint120 collateralAmount; uint64 openPrice; uint64 tp; uint64 sl; bool isCounterTrade; uint160 positionSizeToken; uint24 __placeholder; }',
  'function openTrade(Trade _trade, uint16 _maxSlippageP, address _referrer)',
  'function closeTradeMarket(uint32 _index, uint64 _expectedPrice)',
  'function getTrades(address _trader) view returns (Trade[])',
])

const ETH = 1
const BTC = 0

/**
 * Gives the demo account a gTrade history through the real v10 calls and the keeper: a closed BTC
 * round-trip, an open ETH long, and a resting ETH LIMIT order far below the market.
 * Prices are the stand-in's build-time prices, so the state is the same on every build.
 */
export async function seedDemoTrades(ctx: DeployContext, account: DevnetAccount): Promise<void> {
  const wallet = createWalletClient({
    chain: ctx.publicClient.chain,
    transport: withGasHeadroom(custom({ request: ctx.publicClient.request })),
    account: privateKeyToAccount(account.privateKey),
  })
  const me = wallet.account.address
  const price = (pairIndex: number) => DEFAULT_GTRADE_PAIRS[pairIndex]?.price ?? 0n
  const send = async (hash: Promise<Hex>) => {
    const receipt = await ctx.publicClient.waitForTransactionReceipt({
      hash: await hash,
      pollingInterval: 20,
    })
    if (receipt.status !== 'success')
      throw new Error(`demo trade transaction ${receipt.transactionHash} reverted`)
  }
  const fill = async () => {
    const { actions } = await keeperTick({
      publicClient: ctx.publicClient,
      walletClient: ctx.walletClient,
      gtrade: BASE_ADDRESSES.GtradeDiamond,
      prices: price,
    })
    const failed = actions.find((a) => a.error !== undefined)
    if (failed) throw new Error(`keeper failed while seeding demo trades: ${failed.error}`)
  }
  const trade = (pairIndex: number, tradeType: number, openPrice: bigint, tp: bigint, sl: bigint) => ({
    user: me,
    index: 0,
    pairIndex,
    // 2x: liquidation needs a ~45% move, so the demo trade survives the simulator's price path.
    leverage: 2_000,
    long: true,
    isOpen: true,
    collateralIndex: 1,
    tradeType,
    collateralAmount: 250_000_000n, // 250 USDC
    openPrice,
    tp,
    sl,
    isCounterTrade: false,
    positionSizeToken: 0n,
    __placeholder: 0,
  })
  const open = (t: ReturnType<typeof trade>) =>
    send(
      wallet.writeContract({
        address: BASE_ADDRESSES.GtradeDiamond,
        abi: tradingAbi,
        functionName: 'openTrade',
        args: [t, 1_000, zeroAddress],
      }),
    )

  await send(
    wallet.writeContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'approve',
      args: [BASE_ADDRESSES.GtradeDiamond, 1_000_000_000n],
    }),
  )
  // A BTC round-trip: open at market, filled by the keeper, closed at market, filled again.
  await open(trade(BTC, 0, price(BTC), 0n, 0n))
  await fill()
  const btc = (
    await ctx.publicClient.readContract({
      address: BASE_ADDRESSES.GtradeDiamond,
      abi: tradingAbi,
      functionName: 'getTrades',
      args: [me],
    })
  ).find((t) => t.pairIndex === BTC && t.isOpen)
  if (!btc) throw new Error('demo BTC trade was not filled')
  await send(
    wallet.writeContract({
      address: BASE_ADDRESSES.GtradeDiamond,
      abi: tradingAbi,
      functionName: 'closeTradeMarket',
      args: [btc.index, price(BTC)],
    }),
  )
  await fill()
  // An open ETH long with a distant take-profit and no stop, so it stays open whatever the path.
  const eth = price(ETH)
  await open(trade(ETH, 0, eth, eth * 5n, 0n))
  await fill()
  // A resting LIMIT order at a quarter of the price: it holds collateral but will not fill.
  await open(trade(ETH, 1, eth / 4n, 0n, 0n))
}
