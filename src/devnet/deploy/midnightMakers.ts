import {
  createWalletClient,
  custom,
  erc20Abi,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
  parseUnits,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { anvilAccount } from '../../chain/anvilAccounts.js'
import type { MidnightMarket, MidnightOffer } from '../../chain/midnight.js'
import type { DeployContext } from '../deployContext.js'
import { withGasHeadroom } from '../withGasHeadroom.js'
import {
  MIDNIGHT_ADDRESSES,
  makerOfferTerms,
  midnightStandInAbi,
  singleLeafRatifierData,
} from './midnight.js'
import type { DevnetModule } from './registry.js'
import { fundToken, topUpEth } from './tokens.js'

/**
 * Two Midnight market makers past the service's own accounts on the mnemonic (#12 lends, #13 borrows),
 * funded, with Midnight's SetterRatifier authorized for them and unlimited approvals to Midnight: what
 * every test that posts its own offers needs, built once into the cached state instead of per test file.
 */
export const midnightMakers = { bid: anvilAccount(12), ask: anvilAccount(13) } as const

/**
 * The makers' book: two USDC markets with the devnet Midnight markets' collaterals, opened while a 0.2 %
 * settlement fee applied (the default is put back to zero afterwards, so later markets have none), the bid
 * maker lending at two ticks in A, the ask maker borrowing against 2 WETH at two ticks in A and one in B.
 * Fixed maturities (2031-01-01 and 2031-07-01, later than every other devnet market) keep the ids stable.
 */
export const MIDNIGHT_MAKERS_BOOK = {
  maturities: { A: 1_924_992_000n, B: 1_940_630_400n },
  settlementFeeCbps: 2_000,
  bidTicks: [4400n, 4360n],
  askTicks: [4200n, 4260n],
  bidUnits: parseUnits('300', 6),
  askUnits: parseUnits('250', 6),
  /** What the makers hold besides the collateral posted: USDC (bid maker), WETH (ask maker), ETH (both). */
  funding: { usdc: parseUnits('10000', 6), weth: parseUnits('10', 18), eth: parseUnits('10', 18) },
  collateralWeth: parseUnits('2', 18),
} as const

const createMarketEvent = parseAbi([
  'struct CollateralParams { address token; uint256 lltv; uint256 liquidationCursor; address oracle; }',
  'struct Market { uint256 chainId; address midnight; address loanToken; CollateralParams[] collateralParams; uint256 maturity; uint256 rcfThreshold; address enterGate; address liquidatorGate; }',
  'event CreateMarket(bytes32 indexed id, Market market)',
])[0]
const feeAbi = parseAbi(['function setDefaultSettlementFeeCbps(address loanToken, uint16[7] cbps)'])
const ZERO = '0x0000000000000000000000000000000000000000'

/** The makers' book on the devnet's first Midnight market's collaterals; needs the midnight module first. */
export async function seedMidnightMakers(
  ctx: DeployContext,
): Promise<{ A: MidnightMarket; B: MidnightMarket }> {
  const { midnight, setterRatifier, offerBook } = MIDNIGHT_ADDRESSES
  const book = MIDNIGHT_MAKERS_BOOK
  const [first] = await ctx.publicClient.getLogs({
    address: midnight,
    event: createMarketEvent,
    fromBlock: 0n,
  })
  const seeded = first?.args.market
  if (seeded === undefined) throw new Error('midnightMakers needs the midnight module (no market opened)')
  const weth = seeded.collateralParams[0]?.token as Hex
  const marketAt = (maturity: bigint): MidnightMarket => ({
    ...seeded,
    collateralParams: [...seeded.collateralParams],
    maturity,
  })
  const A = marketAt(book.maturities.A)
  const B = marketAt(book.maturities.B)

  const walletOf = (privateKey: Hex) =>
    createWalletClient({
      chain: ctx.publicClient.chain,
      transport: withGasHeadroom(custom({ request: ctx.publicClient.request })),
      account: privateKeyToAccount(privateKey),
    })
  const bid = walletOf(midnightMakers.bid.privateKey)
  const ask = walletOf(midnightMakers.ask.privateKey)
  const send = async (hash: Promise<Hex>) => {
    const receipt = await ctx.publicClient.waitForTransactionReceipt({
      hash: await hash,
      pollingInterval: 20,
    })
    if (receipt.status !== 'success')
      throw new Error(`midnight makers transaction ${receipt.transactionHash} reverted`)
  }

  for (const maker of [bid, ask]) await topUpEth(ctx, maker.account.address, book.funding.eth)
  await fundToken(ctx, seeded.loanToken, bid.account.address, book.funding.usdc)
  await fundToken(ctx, weth, ask.account.address, book.funding.weth)
  for (const [maker, token] of [
    [bid, seeded.loanToken],
    [ask, weth],
  ] as const) {
    await send(
      maker.writeContract({
        address: midnight,
        abi: midnightStandInAbi,
        functionName: 'setIsAuthorized',
        args: [setterRatifier, true, maker.account.address],
      }),
    )
    await send(
      maker.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [midnight, maxUint256],
      }),
    )
  }

  // The fee applies to markets opened while it is set; the deployer is Midnight's admin.
  const fee = (cbps: number) => [cbps, cbps, cbps, cbps, cbps, cbps, cbps] as const
  await ctx.write({
    address: midnight,
    abi: feeAbi,
    functionName: 'setDefaultSettlementFeeCbps',
    args: [seeded.loanToken, fee(book.settlementFeeCbps)],
  })
  for (const market of [A, B])
    await ctx.write({
      address: midnight,
      abi: midnightStandInAbi,
      functionName: 'touchMarket',
      args: [market],
    })
  await ctx.write({
    address: midnight,
    abi: feeAbi,
    functionName: 'setDefaultSettlementFeeCbps',
    args: [seeded.loanToken, fee(0)],
  })
  for (const market of [A, B])
    await send(
      ask.writeContract({
        address: midnight,
        abi: midnightStandInAbi,
        functionName: 'supplyCollateral',
        args: [market, 0n, book.collateralWeth, ask.account.address],
      }),
    )

  const post = async (
    maker: typeof bid,
    market: MidnightMarket,
    buy: boolean,
    tick: bigint,
    units: bigint,
    tag: string,
  ) => {
    const offer: MidnightOffer = {
      market,
      buy,
      maker: maker.account.address,
      start: 0n,
      expiry: market.maturity,
      tick,
      group: keccak256(toHex(`midnight-makers-${tag}`)),
      callback: ZERO,
      callbackData: '0x',
      ratifier: setterRatifier,
      reduceOnly: false,
      maxUnits: units,
      maxAssets: 0n,
      ...makerOfferTerms(maker.account.address, buy),
    }
    const root = await ctx.read<Hex>({
      address: setterRatifier,
      abi: midnightStandInAbi,
      functionName: 'hashOffer',
      args: [offer],
    })
    await send(
      maker.writeContract({
        address: setterRatifier,
        abi: midnightStandInAbi,
        functionName: 'setIsRootRatified',
        args: [maker.account.address, root, true],
      }),
    )
    await send(
      maker.writeContract({
        address: offerBook,
        abi: midnightStandInAbi,
        functionName: 'post',
        args: [offer, singleLeafRatifierData(root)],
      }),
    )
  }
  for (const [i, tick] of book.bidTicks.entries()) await post(bid, A, true, tick, book.bidUnits, `bid-${i}`)
  for (const [i, tick] of book.askTicks.entries()) await post(ask, A, false, tick, book.askUnits, `ask-${i}`)
  await post(ask, B, false, book.askTicks[0], book.askUnits, 'ask-b')
  return { A, B }
}

/** buildDevnetState plug-in: the Midnight makers and their book (after the midnight module). */
export const devnetModule: DevnetModule = {
  name: 'midnightMakers',
  async deploy(ctx) {
    const { A, B } = await seedMidnightMakers(ctx)
    return {
      bidMaker: midnightMakers.bid.address,
      askMaker: midnightMakers.ask.address,
      markets: [A, B].map((m) => ({ maturity: m.maturity.toString() })),
    }
  },
}
