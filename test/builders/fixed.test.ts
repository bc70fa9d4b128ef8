import {
  type Address,
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  keccak256,
  parseAbi,
  parseUnits,
  toHex,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { FixedBorrowAction } from '../../src/builders/fixed/fixedBorrow.js'
import type { FixedLendAction } from '../../src/builders/fixed/fixedLend.js'
import type { FixedRepayAction } from '../../src/builders/fixed/fixedRepay.js'
import type { FixedWithdrawAction } from '../../src/builders/fixed/fixedWithdraw.js'
import type { FixedWithdrawCollateralAction } from '../../src/builders/fixed/fixedWithdrawCollateral.js'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import {
  type MidnightMarket,
  type MidnightOffer,
  midnightAbi,
  midnightMarketId,
} from '../../src/chain/midnight.js'
import {
  MIDNIGHT_ADDRESSES,
  makerOfferTerms,
  midnightStandInAbi,
  singleLeafRatifierData,
} from '../../src/devnet/deploy/midnight.js'
import { midnightMakers } from '../../src/devnet/deploy/midnightMakers.js'
import { broadcast, builderClient, expectEnvelope, selectorOf } from '../helpers/builderCalls.js'
import { expectMined } from '../helpers/expectMined.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { type Instance, type ServiceWorld, startServiceWorld } from '../helpers/serviceWorld.js'

// The fixed-rate builders on Morpho Midnight's devnet stand-in, paid with the official x402 client and
// broadcast from fresh wallets. The test opens its own short market (maturity ~100 s out, so the chain can
// be moved to maturity without outrunning the x402 authorizations' 120 s validity), posts ratified maker
// offers on both sides, and checks every outcome against Midnight's position()/collateral()/withdrawable()
// and the tokens' balances, with the units and APRs recomputed here from the contract's own tick prices.
const MIDNIGHT = BASE_ADDRESSES.MorphoMidnight
const USDC = BASE_ADDRESSES.USDC
const WETH = BASE_ADDRESSES.WETH
const WAD = 10n ** 18n
const APPROVE = '0x095ea7b3'
const SUPPLY_COLLATERAL = '0x32292d96'
const MULTICALL = '0xac9650d8'
const wethAbi = parseAbi(['function deposit() payable'])

let sw: ServiceWorld
let svc: Instance
let client: ReturnType<typeof builderClient>
let market: MidnightMarket
let id: Hex
type Wallet = ReturnType<typeof walletOf>
let borrower: Wallet
let lender: Wallet
/** Bid ticks (lender-maker, best first) and ask ticks (borrower-maker, best first), 300 and 250 units each. */
const BID_TICKS = [4400n, 4360n, 4320n]
const ASK_TICKS = [4200n, 4260n]
const BID_UNITS = parseUnits('300', 6)
const ASK_UNITS = parseUnits('250', 6)
const priceOf = new Map<bigint, bigint>()

function walletOf(privateKey: Hex) {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: base,
    transport: headroomHttp(sw.world.rpcUrl),
  })
}

const send = (hash: Promise<Hex>) => expectMined(sw.chain, hash)

/** A fresh wallet with USDC, ETH and `weth` WETH wrapped from it. */
async function freshOwner(usdc: bigint, weth = 0n): Promise<Wallet> {
  const fresh = await sw.freshWallet(usdc, parseUnits('10', 18))
  const w = walletOf(fresh.privateKey)
  if (weth > 0n)
    await send(w.writeContract({ address: WETH, abi: wethAbi, functionName: 'deposit', value: weth }))
  return w
}

/** A maker ratifies (SetterRatifier, single-leaf root) and posts one offer on the devnet offer book. */
async function postOffer(maker: Wallet, buy: boolean, tick: bigint, units: bigint, n: number) {
  const offer: MidnightOffer = {
    market,
    buy,
    maker: maker.account.address,
    start: 0n,
    expiry: market.maturity,
    tick,
    group: keccak256(toHex(`fixed-test-${buy}-${n}`)),
    callback: zeroAddress,
    callbackData: '0x',
    ratifier: MIDNIGHT_ADDRESSES.setterRatifier,
    reduceOnly: false,
    maxUnits: units,
    maxAssets: 0n,
    ...makerOfferTerms(maker.account.address, buy),
  }
  const root = await sw.chain.readContract({
    address: MIDNIGHT_ADDRESSES.setterRatifier,
    abi: midnightStandInAbi,
    functionName: 'hashOffer',
    args: [offer],
  })
  await send(
    maker.writeContract({
      address: MIDNIGHT_ADDRESSES.setterRatifier,
      abi: midnightStandInAbi,
      functionName: 'setIsRootRatified',
      args: [maker.account.address, root, true],
    }),
  )
  await send(
    maker.writeContract({
      address: MIDNIGHT_ADDRESSES.offerBook,
      abi: midnightStandInAbi,
      functionName: 'post',
      args: [offer, singleLeafRatifierData(root)],
    }),
  )
}

const position = async (who: Address) => {
  const [credit, , , , debt] = await sw.chain.readContract({
    address: MIDNIGHT,
    abi: midnightAbi,
    functionName: 'position',
    args: [id, who],
  })
  return { credit, debt }
}
const collateralOf = (who: Address) =>
  sw.chain.readContract({
    address: MIDNIGHT,
    abi: midnightAbi,
    functionName: 'collateral',
    args: [id, who, 0n],
  })
const balanceOf = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
const apr = (price: bigint, quotedAt: number) =>
  (Number(WAD) / Number(price) - 1) * (31_536_000 / (Number(market.maturity) - quotedAt))

beforeAll(async () => {
  sw = await startServiceWorld()
  svc = await sw.instance()
  client = builderClient(sw, svc)
  // The seeded markets' collaterals (WETH and cbBTC at 86%), in a market maturing ~100 s from now.
  const block = await sw.chain.getBlock()
  // The devnet's Midnight makers (src/devnet/deploy/midnightMakers.ts, in the cached state): funded, the
  // ratifier authorized, USDC (bid maker) and WETH (ask maker) approved to Midnight.
  const bidMaker = walletOf(midnightMakers.bid.privateKey)
  const askMaker = walletOf(midnightMakers.ask.privateKey)
  ;[borrower, lender] = await Promise.all([
    freshOwner(parseUnits('100', 6), parseUnits('2', 18)),
    freshOwner(parseUnits('1000', 6)),
  ])
  const oracles = await sw.chain.getLogs({
    address: MIDNIGHT,
    event: parseAbi([
      'event CreateMarket(bytes32 indexed id, (uint256,address,address,(address,uint256,uint256,address)[],uint256,uint256,address,address) market)',
    ])[0],
    fromBlock: 0n,
  })
  const seeded = oracles[0]?.args.market
  if (seeded === undefined) throw new Error('no seeded Midnight market')
  market = {
    chainId: 8453n,
    midnight: MIDNIGHT,
    loanToken: USDC,
    collateralParams: seeded[3].map(([token, lltv, liquidationCursor, oracle]) => ({
      token,
      lltv,
      liquidationCursor,
      oracle,
    })),
    // From the later of the latest block and the wall clock: a freshly loaded state's latest block is as
    // old as the state cache, and the next block is mined at the wall clock.
    maturity: laterThanNow(block.timestamp) + 100n,
    rcfThreshold: 0n,
    enterGate: zeroAddress,
    liquidatorGate: zeroAddress,
  }
  id = midnightMarketId(market)
  await send(
    bidMaker.writeContract({
      address: MIDNIGHT,
      abi: midnightStandInAbi,
      functionName: 'touchMarket',
      args: [market],
    }),
  )
  // The ask maker borrows against 2 WETH in this market.
  await send(
    askMaker.writeContract({
      address: MIDNIGHT,
      abi: midnightStandInAbi,
      functionName: 'supplyCollateral',
      args: [market, 0n, parseUnits('2', 18), askMaker.account.address],
    }),
  )
  for (const [i, tick] of BID_TICKS.entries()) await postOffer(bidMaker, true, tick, BID_UNITS, i)
  for (const [i, tick] of ASK_TICKS.entries()) await postOffer(askMaker, false, tick, ASK_UNITS, i)
  for (const tick of [...BID_TICKS, ...ASK_TICKS])
    priceOf.set(
      tick,
      await sw.chain.readContract({
        address: MIDNIGHT,
        abi: midnightStandInAbi,
        functionName: 'tickToPrice',
        args: [tick],
      }),
    )
}, 180_000)

afterAll(async () => {
  await sw?.stop()
})

describe('fixed-rate builders (Morpho Midnight)', () => {
  test('behavior: a borrow with collateral fills across three bids within the guard; the debt is the units recomputed from the offers’ prices', async () => {
    const assets = parseUnits('700', 6)
    const usdcBefore = await balanceOf(USDC, borrower.account.address)
    const res = await client.post<FixedBorrowAction>('/v1/tx/fixed/borrow', {
      marketId: id,
      assets: assets.toString(),
      owner: borrower.account.address,
      slippageBps: 200,
      collateral: { token: WETH, assets: WAD.toString() },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectEnvelope(res.body, borrower.account.address)
    expect(res.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, SUPPLY_COLLATERAL, MULTICALL])

    // The test's own walk: best bid first, whole offers while they fit, then the fewest units covering the rest.
    const [p1, p2, p3] = BID_TICKS.map((t) => priceOf.get(t) as bigint) as [bigint, bigint, bigint]
    const got1 = (BID_UNITS * p1) / WAD
    const got2 = (BID_UNITS * p2) / WAD
    const u3 = ((assets - got1 - got2) * WAD + p3 - 1n) / p3
    const units = BID_UNITS * 2n + u3
    const a = res.body.action
    expect(a.units).toBe(units.toString())
    expect(a.fills.map((f) => f.units)).toEqual([BID_UNITS, BID_UNITS, u3].map(String))
    expect(a.fills.map((f) => f.price)).toEqual([p1, p2, p3].map(String))
    expect(BigInt(a.worstPrice)).toBeGreaterThanOrEqual(BigInt(a.guardPrice))
    expect(BigInt(a.guardPrice)).toBe((p1 * 9_800n) / 10_000n)
    expect(a.maturity).toBe(Number(market.maturity))
    const received = got1 + got2 + (u3 * p3) / WAD
    expect(a.assets).toBe(received.toString())
    const avg = (received * WAD) / units
    expect(a.averagePrice).toBe(avg.toString())
    expect(a.averageApr).toBeCloseTo(apr(avg, res.body.quotedAt), 6)
    expect(a.worstApr).toBeCloseTo(apr(p3, res.body.quotedAt), 6)

    await broadcast(sw.chain, borrower, res.body)
    expect(await position(borrower.account.address)).toEqual({ credit: 0n, debt: units })
    expect(await collateralOf(borrower.account.address)).toBe(WAD)
    expect((await balanceOf(USDC, borrower.account.address)) - usdcBefore).toBe(received)
    expect(a.debtAfter).toBe(units.toString())
  })

  test('behavior: supply-collateral prepends the exact approve; rebuilt after it is broadcast, the approve step is gone', async () => {
    const body = {
      marketId: id,
      collateralToken: WETH,
      assets: (WAD / 10n).toString(),
      owner: borrower.account.address,
    }
    const first = await client.post('/v1/tx/fixed/supply-collateral', body)
    expect(first.status).toBe(200)
    expect(first.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, SUPPLY_COLLATERAL])
    await broadcast(sw.chain, borrower, { ...first.body, steps: first.body.steps.slice(0, 1) })
    expect(
      await sw.chain.readContract({
        address: WETH,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [borrower.account.address, MIDNIGHT],
      }),
    ).toBe(WAD / 10n)
    const again = await client.post('/v1/tx/fixed/supply-collateral', body)
    expect(again.body.steps.map((s) => selectorOf(s.data))).toEqual([SUPPLY_COLLATERAL])
    await broadcast(sw.chain, borrower, again.body)
    expect(await collateralOf(borrower.account.address)).toBe(WAD + WAD / 10n)
  })

  test('behavior: a lend fills against two asks and shows the credit recomputed from their prices', async () => {
    const assets = parseUnits('400', 6)
    const before = await balanceOf(USDC, lender.account.address)
    const res = await client.post<FixedLendAction>('/v1/tx/fixed/lend', {
      marketId: id,
      assets: assets.toString(),
      owner: lender.account.address,
      slippageBps: 500,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expectEnvelope(res.body, lender.account.address)
    expect(res.body.steps.map((s) => selectorOf(s.data))).toEqual([APPROVE, MULTICALL])
    const [q1, q2] = ASK_TICKS.map((t) => priceOf.get(t) as bigint) as [bigint, bigint]
    const paid1 = (ASK_UNITS * q1 + WAD - 1n) / WAD
    const u2 = ((assets - paid1) * WAD) / q2
    const paid = paid1 + (u2 * q2 + WAD - 1n) / WAD
    const a = res.body.action
    expect(a.fills.map((f) => f.units)).toEqual([ASK_UNITS, u2].map(String))
    expect(a.assets).toBe(paid.toString())
    expect(a.worstApr).toBeCloseTo(apr(q2, res.body.quotedAt), 6)
    await broadcast(sw.chain, lender, res.body)
    expect(await position(lender.account.address)).toEqual({ credit: ASK_UNITS + u2, debt: 0n })
    expect(before - (await balanceOf(USDC, lender.account.address))).toBe(paid)
  })

  test('error: a worst price the book cannot meet, repay beyond the debt, withdraw before maturity, an unhealthy collateral withdrawal and an unknown market are refused, unpaid, nothing moved', async () => {
    const who = borrower.account.address
    const balances = async () =>
      Promise.all([
        balanceOf(USDC, who),
        balanceOf(WETH, who),
        position(who),
        collateralOf(who),
        position(lender.account.address),
      ])
    const before = await balances()
    const { debt } = before[2]
    const remaining = BID_UNITS - (BigInt((await position(who)).debt) - BID_UNITS * 2n)
    const p3 = priceOf.get(BID_TICKS[2] as bigint) as bigint
    const cases = [
      [
        '/v1/tx/fixed/borrow',
        { marketId: id, assets: '5000000000', owner: who, slippageBps: 100 },
        'book_too_thin',
        'assets',
      ],
      [
        '/v1/tx/fixed/repay',
        { marketId: id, units: (debt + 1n).toString(), owner: who },
        'exceeds_debt',
        'units',
      ],
      [
        '/v1/tx/fixed/withdraw',
        { marketId: id, units: '1000000', owner: lender.account.address },
        'not_matured',
        'units',
      ],
      [
        '/v1/tx/fixed/withdraw-collateral',
        { marketId: id, collateralToken: WETH, assets: WAD.toString(), owner: who },
        'unhealthy_after',
        'assets',
      ],
      [
        '/v1/tx/fixed/repay',
        { marketId: `0x${'ab'.repeat(32)}`, units: '1', owner: who },
        'unknown_market',
        'marketId',
      ],
    ] as const
    const answers = await Promise.all(cases.map(([path, body]) => client.post(path, body)))
    for (const [i, [path, , code, field]] of cases.entries()) {
      const r = answers[i]!
      expect(r.status, path).toBe(422)
      expect(r.body.error?.code, path).toBe(code)
      expect(r.body.error?.field, path).toBe(field)
      expect(r.charged, path).toBe(0n)
    }
    // The depth within the guard: only the third bid's remainder is within 100 bps of it (the best now).
    expect(answers[0]!.body.error?.details).toMatchObject({
      availableUnits: remaining.toString(),
      availableAssets: ((remaining * p3) / WAD).toString(),
    })
    expect(answers[1]!.body.error?.details).toMatchObject({ debt: debt.toString() })
    expect(answers[2]!.body.error?.details).toMatchObject({
      withdrawable: '0',
      maturity: Number(market.maturity),
    })
    expect(await balances()).toEqual(before)
  })

  test('behavior: at maturity the borrower repays all, the lender withdraws its credit, and the collateral comes back', async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
    const now = (await sw.chain.getBlock()).timestamp
    if (now < market.maturity) {
      await test.setNextBlockTimestamp({ timestamp: market.maturity })
      await test.mine({ blocks: 1 })
    }
    const who = borrower.account.address
    const { debt } = await position(who)
    const usdcBefore = await balanceOf(USDC, who)
    const repay = await client.post<FixedRepayAction>('/v1/tx/fixed/repay', {
      marketId: id,
      units: debt.toString(),
      owner: who,
    })
    expect(repay.status, JSON.stringify(repay.body)).toBe(200)
    expectEnvelope(repay.body, who)
    expect(repay.body.steps.map((s) => selectorOf(s.data))[0]).toBe(APPROVE)
    await broadcast(sw.chain, borrower, repay.body)
    expect((await position(who)).debt).toBe(0n)
    expect(usdcBefore - (await balanceOf(USDC, who))).toBe(debt)
    expect(
      await sw.chain.readContract({
        address: MIDNIGHT,
        abi: midnightAbi,
        functionName: 'withdrawable',
        args: [id],
      }),
    ).toBe(debt)

    const l = lender.account.address
    const { credit } = await position(l)
    const lenderBefore = await balanceOf(USDC, l)
    const withdraw = await client.post<FixedWithdrawAction>('/v1/tx/fixed/withdraw', {
      marketId: id,
      units: credit.toString(),
      owner: l,
    })
    expect(withdraw.status, JSON.stringify(withdraw.body)).toBe(200)
    expectEnvelope(withdraw.body, l)
    await broadcast(sw.chain, lender, withdraw.body)
    expect(await position(l)).toEqual({ credit: 0n, debt: 0n })
    expect((await balanceOf(USDC, l)) - lenderBefore).toBe(credit)

    const held = await collateralOf(who)
    const wethBefore = await balanceOf(WETH, who)
    const out = await client.post<FixedWithdrawCollateralAction>('/v1/tx/fixed/withdraw-collateral', {
      marketId: id,
      collateralToken: WETH,
      assets: held.toString(),
      owner: who,
    })
    expect(out.status, JSON.stringify(out.body)).toBe(200)
    await broadcast(sw.chain, borrower, out.body)
    expect(await collateralOf(who)).toBe(0n)
    expect((await balanceOf(WETH, who)) - wethBefore).toBe(held)
  })
})

/** The later of a block timestamp and the wall clock (unix seconds). */
function laterThanNow(timestamp: bigint): bigint {
  const now = BigInt(Math.floor(Date.now() / 1000))
  return timestamp > now ? timestamp : now
}
