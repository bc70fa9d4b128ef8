import { existsSync, readFileSync } from 'node:fs'
import {
  type Abi,
  type AbiFunction,
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  erc20Abi,
  type Hex,
  keccak256,
  parseAbi,
  parseEther,
  toFunctionSelector,
  toHex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pollReceipt } from '../../../src/chain/pollReceipt.js'
import {
  DEVNET_CONTINUOUS_FEE_CAP,
  deployMidnight,
  MIDNIGHT_ADDRESSES,
  type MidnightDeployment,
  type MidnightOffer,
  midnightStandInAbi,
  singleLeafRatifierData,
} from '../../../src/devnet/deploy/midnight.js'
import { deployTokens } from '../../../src/devnet/deploy/tokens.js'
import { RECEIPT } from '../../helpers/chainChecks.js'
import { sendTx } from '../../helpers/expectMined.js'
import { type Harness, startHarness } from './harness.js'

const REFERENCE_ABI = new URL('../../../docs/abi/morpho-midnight.json', import.meta.url)
const midnight = MIDNIGHT_ADDRESSES.midnight
const ZERO: Address = '0x0000000000000000000000000000000000000000'
const marketStateAbi = parseAbi([
  'function marketState(bytes32 id) view returns (uint128 totalUnits, uint128 lossFactor, uint128 withdrawable, uint128 continuousFeeCredit, uint16 settlementFeeCbp0, uint16 settlementFeeCbp1, uint16 settlementFeeCbp2, uint16 settlementFeeCbp3, uint16 settlementFeeCbp4, uint16 settlementFeeCbp5, uint16 settlementFeeCbp6, uint32 continuousFee, uint8 tickSpacing)',
])

let h: Harness
let abi: Abi
let usdc: Address
let weth: Address
let deployment: MidnightDeployment

const send = (
  userIndex: number,
  address: Address,
  callAbi: Abi,
  functionName: string,
  args: readonly unknown[],
) => sendTx(h.ctx.publicClient, h.users[userIndex]!, { address, abi: callAbi, functionName, args })

const read = <T>(functionName: string, args: readonly unknown[]) =>
  h.ctx.publicClient.readContract({ address: midnight, abi, functionName, args }) as Promise<T>

const usdcOf = (account: Address) =>
  h.ctx.publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [account],
  })

async function liveOffers(marketId: Hex) {
  const [, offers, ratifierData, remaining] = await h.ctx.publicClient.readContract({
    address: MIDNIGHT_ADDRESSES.offerBook,
    abi: midnightStandInAbi,
    functionName: 'liveOffers',
    args: [marketId],
  })
  return offers.map((offer, i) => ({
    offer: offer as MidnightOffer,
    ratifierData: ratifierData[i]!,
    remaining: remaining[i]!,
  }))
}

beforeAll(async () => {
  h = await startHarness()
  const tokens = await deployTokens(h.ctx, { ethUsd: 3_500, btcUsd: 100_000 })
  usdc = tokens.USDC
  weth = tokens.WETH
  // 1 WETH (1e18) = 3500 USDC (1e6): price = 3500e6 * 1e36 / 1e18
  deployment = await deployMidnight(h.ctx, {
    usdc,
    collaterals: [{ token: weth, lltv: 860_000_000_000_000_000n, price: 3_500n * 10n ** 24n }],
  })
  abi = [...h.ctx.artifact('MidnightStandIn').abi, ...midnightStandInAbi]
  for (const wallet of h.users) {
    const hash = await wallet.writeContract({
      address: weth,
      abi: parseAbi(['function deposit() payable']),
      functionName: 'deposit',
      value: parseEther('5'),
    })
    await pollReceipt(h.ctx.publicClient, hash, RECEIPT)
  }
}, 60_000)

afterAll(async () => {
  await h?.stop()
})

describe('Morpho Midnight stand-in', () => {
  it('behavior: selectors match abi/morpho-midnight.json', () => {
    const take = abi.find((i): i is AbiFunction => i.type === 'function' && i.name === 'take')!
    expect(toFunctionSelector(take)).toBe('0x6a14c9ef')
    if (!existsSync(REFERENCE_ABI)) return
    const reference = JSON.parse(readFileSync(REFERENCE_ABI, 'utf8')) as Abi
    const selectors = new Set(
      reference.filter((i): i is AbiFunction => i.type === 'function').map(toFunctionSelector),
    )
    const own = h.ctx
      .artifact('MidnightStandIn')
      .abi.filter(
        (i): i is AbiFunction =>
          i.type === 'function' && reference.some((r) => 'name' in r && r.name === i.name),
      )
    expect(own.length).toBeGreaterThan(30)
    for (const fn of own) expect(selectors.has(toFunctionSelector(fn)), fn.name).toBe(true)
  })

  it('behavior: markets and seeded book on both sides', async () => {
    expect(deployment.markets).toHaveLength(2)
    const { id, market } = deployment.markets[0]!
    expect(await read<Hex>('toId', [market])).toBe(id)
    const state = (await h.ctx.publicClient.readContract({
      address: midnight,
      abi: marketStateAbi,
      functionName: 'marketState',
      args: [id],
    })) as readonly unknown[]
    expect(state).toHaveLength(13)
    expect(state[12]).toBe(4) // tick spacing
    const offers = await liveOffers(id)
    expect(offers.filter((o) => o.offer.buy)).toHaveLength(1)
    expect(offers.filter((o) => !o.offer.buy)).toHaveLength(1)
    const bid = offers.find((o) => o.offer.buy)!
    const ask = offers.find((o) => !o.offer.buy)!
    const bidPrice = await read<bigint>('tickToPrice', [bid.offer.tick])
    const askPrice = await read<bigint>('tickToPrice', [ask.offer.tick])
    expect(bidPrice).toBeLessThan(askPrice) // lender-maker wants 7%, borrower-maker pays 5%: no cross
    expect(askPrice).toBeLessThan(10n ** 18n)
    expect(await read<bigint>('tickToPrice', [3372n])).toBe(5n * 10n ** 17n) // MAX_TICK / 2 -> price 0.5
  })

  it('behavior: borrower takes a bid, repays, lender withdraws', async () => {
    const { id, market } = deployment.markets[0]!
    const borrower = h.users[0]!.account.address
    await send(0, weth, erc20Abi, 'approve', [midnight, parseEther('1')])
    await send(0, midnight, abi, 'supplyCollateral', [market, 0n, parseEther('1'), borrower])
    const bid = (await liveOffers(id)).find((o) => o.offer.buy)!
    const units = 1_000n * 10n ** 6n
    const before = await usdcOf(borrower)
    await send(0, midnight, abi, 'take', [bid.offer, bid.ratifierData, units, borrower, borrower, ZERO, '0x'])
    const received = (await usdcOf(borrower)) - before
    const price = await read<bigint>('tickToPrice', [bid.offer.tick])
    expect(received).toBe((units * price) / 10n ** 18n)
    expect(received).toBeLessThan(units) // pays 1 USDC per unit at maturity, receives less now
    expect(await read<bigint>('debt', [id, borrower])).toBe(units)
    expect(await read<bigint>('credit', [id, h.ctx.deployer])).toBe(units)
    expect((await liveOffers(id)).find((o) => o.offer.buy)!.remaining).toBe(bid.remaining - units)

    // Too little collateral for more debt: 1 WETH * 3500 * 0.86 = 3010 USDC of max debt.
    await expect(
      send(0, midnight, abi, 'take', [
        bid.offer,
        bid.ratifierData,
        3_000n * 10n ** 6n,
        borrower,
        borrower,
        ZERO,
        '0x',
      ]),
    ).rejects.toThrow(/SellerIsLiquidatable/)

    // the borrower owes 1 USDC per unit: top up the interest it did not receive
    await h.ctx.write({
      address: usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [borrower, units - received],
    })
    await send(0, usdc, erc20Abi, 'approve', [midnight, units])
    await send(0, midnight, abi, 'repay', [market, units, borrower, ZERO, '0x'])
    expect(await read<bigint>('debt', [id, borrower])).toBe(0n)
    await send(0, midnight, abi, 'withdrawCollateral', [market, 0n, parseEther('1'), borrower, borrower])

    const lenderBefore = await usdcOf(h.ctx.deployer)
    await h.ctx.write({
      address: midnight,
      abi,
      functionName: 'withdraw',
      args: [market, units, h.ctx.deployer, h.ctx.deployer],
    })
    expect((await usdcOf(h.ctx.deployer)) - lenderBefore).toBe(units)
  })

  it('behavior: lender takes an ask from the borrower-maker', async () => {
    const { id } = deployment.markets[1]!
    const lender = h.users[1]!.account.address
    await h.ctx.write({
      address: usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [lender, 2_000n * 10n ** 6n],
    })
    const ask = (await liveOffers(id)).find((o) => !o.offer.buy)!
    await send(1, usdc, erc20Abi, 'approve', [midnight, 2_000n * 10n ** 6n])
    const units = 1_500n * 10n ** 6n
    await send(1, midnight, abi, 'take', [ask.offer, ask.ratifierData, units, lender, ZERO, ZERO, '0x'])
    expect(await read<bigint>('credit', [id, lender])).toBe(units)
    expect(await read<bigint>('debt', [id, h.ctx.deployer])).toBe(units)
  })

  it('error: unimplemented selectors revert NotImplemented', async () => {
    try {
      await h.ctx.publicClient.readContract({
        address: midnight,
        abi: [
          ...abi,
          { type: 'function', name: 'feeSetter', inputs: [], outputs: [], stateMutability: 'view' },
        ],
        functionName: 'feeSetter',
      })
      expect.unreachable()
    } catch (error) {
      const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
      expect((reverted as ContractFunctionRevertedError).data?.errorName).toBe('NotImplemented')
    }
  })
})

/** The custom error a take would revert with (simulated by `taker`), or 'ok' when it would succeed. */
async function takeOutcome(
  taker: number,
  offer: MidnightOffer,
  ratifierData: Hex,
  units: bigint,
  receiverIfTakerIsSeller: Address,
): Promise<string> {
  try {
    await h.ctx.publicClient.simulateContract({
      account: h.users[taker]!.account,
      address: midnight,
      abi,
      functionName: 'take',
      args: [
        offer,
        ratifierData,
        units,
        h.users[taker]!.account.address,
        receiverIfTakerIsSeller,
        ZERO,
        '0x',
      ],
    })
    return 'ok'
  } catch (error) {
    const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
    return (reverted as ContractFunctionRevertedError | null)?.data?.errorName ?? String(error)
  }
}

/** The deployer (maker of the seeded book) ratifies `offer` with the SetterRatifier: only Midnight's own rules stand. */
async function ratified(offer: MidnightOffer): Promise<Hex> {
  const root = await h.ctx.read<Hex>({
    address: MIDNIGHT_ADDRESSES.setterRatifier,
    abi: midnightStandInAbi,
    functionName: 'hashOffer',
    args: [offer],
  })
  await h.ctx.write({
    address: MIDNIGHT_ADDRESSES.setterRatifier,
    abi: midnightStandInAbi,
    functionName: 'setIsRootRatified',
    args: [h.ctx.deployer, root, true],
  })
  return singleLeafRatifierData(root)
}

describe('Morpho Midnight stand-in: offers the real contract refuses', () => {
  const units = 100n * 10n ** 6n
  let seededBid: MidnightOffer
  let seededAsk: MidnightOffer
  const variant = (offer: MidnightOffer, tag: string, change: Partial<MidnightOffer>): MidnightOffer => ({
    ...offer,
    group: keccak256(toHex(`refused-${tag}`)),
    ...change,
  })

  beforeAll(async () => {
    const { id, market } = deployment.markets[0]!
    // user 0 borrows (takes bids) against 1 WETH; user 1 lends (takes asks) with USDC
    await send(0, weth, erc20Abi, 'approve', [midnight, parseEther('1')])
    await send(0, midnight, abi, 'supplyCollateral', [
      market,
      0n,
      parseEther('1'),
      h.users[0]!.account.address,
    ])
    await h.ctx.write({
      address: usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [h.users[1]!.account.address, units],
    })
    await send(1, usdc, erc20Abi, 'approve', [midnight, units])
    const offers = await liveOffers(id)
    seededBid = offers.find((o) => o.offer.buy)!.offer
    seededAsk = offers.find((o) => !o.offer.buy)!.offer
  })

  it("behavior: the devnet's seeded offers obey every rule and take", async () => {
    for (const { id } of deployment.markets) {
      const continuousFee = await read<number>('continuousFee', [id])
      for (const o of await liveOffers(id)) {
        // a bid's maker never sells: no receiver; an ask's proceeds go to its maker
        expect(o.offer.receiverIfMakerIsSeller).toBe(o.offer.buy ? ZERO : h.ctx.deployer)
        expect((o.offer.maxUnits === 0n) !== (o.offer.maxAssets === 0n)).toBe(true)
        expect(o.offer.continuousFeeCap).toBe(DEVNET_CONTINUOUS_FEE_CAP)
        expect(o.offer.continuousFeeCap).toBeGreaterThanOrEqual(BigInt(continuousFee))
      }
    }
    const { id } = deployment.markets[0]!
    for (const o of await liveOffers(id)) {
      const outcome = o.offer.buy
        ? await takeOutcome(0, o.offer, o.ratifierData, units, h.users[0]!.account.address)
        : await takeOutcome(1, o.offer, o.ratifierData, units, ZERO)
      expect(outcome).toBe('ok')
    }
  })

  it('refusal: a buy offer naming a receiverIfMakerIsSeller reverts UnusedReceiverMustBeZero', async () => {
    const taker = h.users[0]!.account.address
    const good = variant(seededBid, 'bid-control', {})
    expect(await takeOutcome(0, good, await ratified(good), units, taker)).toBe('ok')
    const bad = variant(seededBid, 'bid-receiver', { receiverIfMakerIsSeller: h.ctx.deployer })
    expect(await takeOutcome(0, bad, await ratified(bad), units, taker)).toBe('UnusedReceiverMustBeZero')
  })

  it('refusal: taking a sell offer with a receiverIfTakerIsSeller reverts UnusedReceiverMustBeZero', async () => {
    const ask = variant(seededAsk, 'ask-receiver', {})
    const data = await ratified(ask)
    expect(await takeOutcome(1, ask, data, units, ZERO)).toBe('ok')
    expect(await takeOutcome(1, ask, data, units, h.users[1]!.account.address)).toBe(
      'UnusedReceiverMustBeZero',
    )
  })

  it('refusal: an offer with neither size cap reverts InvalidOfferCaps (as with both)', async () => {
    const taker = h.users[0]!.account.address
    const neither = variant(seededBid, 'caps-neither', { maxUnits: 0n, maxAssets: 0n })
    expect(await takeOutcome(0, neither, await ratified(neither), units, taker)).toBe('InvalidOfferCaps')
    const both = variant(seededBid, 'caps-both', { maxAssets: 10n ** 12n })
    expect(await takeOutcome(0, both, await ratified(both), units, taker)).toBe('InvalidOfferCaps')
    const assetsOnly = variant(seededBid, 'caps-assets', { maxUnits: 0n, maxAssets: 10n ** 12n })
    expect(await takeOutcome(0, assetsOnly, await ratified(assetsOnly), units, taker)).toBe('ok')
  })

  it("refusal: a market fee above the offer's continuousFeeCap reverts ContinuousFeeAboveOfferCap", async () => {
    const { id } = deployment.markets[0]!
    const taker = h.users[0]!.account.address
    const bid = variant(seededBid, 'fee-cap', {})
    const data = await ratified(bid)
    // only the fee setter (the stand-in's admin) may set it
    await expect(send(0, midnight, abi, 'setMarketContinuousFee', [id, 1n])).rejects.toThrow(/OnlyFeeSetter/)
    const setFee = (fee: bigint) =>
      h.ctx.write({ address: midnight, abi, functionName: 'setMarketContinuousFee', args: [id, fee] })
    try {
      await setFee(bid.continuousFeeCap)
      expect(BigInt(await read<number>('continuousFee', [id]))).toBe(bid.continuousFeeCap)
      expect(await takeOutcome(0, bid, data, units, taker)).toBe('ok')
      await setFee(bid.continuousFeeCap + 1n)
      const state = (await h.ctx.publicClient.readContract({
        address: midnight,
        abi: marketStateAbi,
        functionName: 'marketState',
        args: [id],
      })) as readonly unknown[]
      expect(BigInt(state[11] as number)).toBe(bid.continuousFeeCap + 1n)
      expect(await takeOutcome(0, bid, data, units, taker)).toBe('ContinuousFeeAboveOfferCap')
      // an offer with a cap of 0 (what the devnet once posted) is refused by any fee at all
      const zeroCap = variant(seededBid, 'fee-cap-zero', { continuousFeeCap: 0n })
      await setFee(1n)
      expect(await takeOutcome(0, zeroCap, await ratified(zeroCap), units, taker)).toBe(
        'ContinuousFeeAboveOfferCap',
      )
    } finally {
      await setFee(0n)
    }
  })
})
