import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type Address,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionResult,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  maxUint256,
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
import type { FixedMarket } from '../../src/builders/fixed/fixedMarket.js'
import { verifyFixedTake } from '../../src/builders/fixed/fixedTake.js'
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
import { MIDNIGHT_MAKERS_BOOK, midnightMakers } from '../../src/devnet/deploy/midnightMakers.js'
import { UpstreamError } from '../../src/errors.js'
import { broadcast, builderClient, expectEnvelope, selectorOf } from '../helpers/builderCalls.js'
import { expectMined } from '../helpers/expectMined.js'
import { expectRefused } from '../helpers/expectRefused.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { type Instance, type ServiceWorld, startServiceWorld } from '../helpers/serviceWorld.js'

// The fixed-rate builders (Morpho Midnight) attacked as a hostile Midnight API, a careless caller or a
// caller probing the edges would: prices misreported, offers of another market filed under this one,
// expired or not-started offers, offers with `buy` flipped, absurd offer caps, the owner's own offers,
// rounding at odd amounts (with a settlement fee), slippage edges, units beyond the debt or credit, the
// health boundary of a collateral withdrawal, unlisted and matured markets and malformed bodies. The money
// rules: a refusal is a named 4xx or a 502, never charged, nothing moved; a success pays (borrow) at least
// and costs (lend) at most what it states, with every approve exact and to Midnight only.
const MIDNIGHT = BASE_ADDRESSES.MorphoMidnight
const USDC = BASE_ADDRESSES.USDC
const WETH = BASE_ADDRESSES.WETH
const WAD = 10n ** 18n
const APPROVE = '0x095ea7b3'
const STRANGER = getAddress('0x000000000000000000000000000000000000bEEF')
/** 0.2 % of a unit per take, on every breakpoint (centi-basis-points). */
const { settlementFeeCbps: FEE_CBPS, bidTicks: BID_TICKS, askTicks: ASK_TICKS } = MIDNIGHT_MAKERS_BOOK

let sw: ServiceWorld
let svc: Instance
let client: ReturnType<typeof builderClient>
let proxy: TamperingProxy
/** A: the market under attack (30 days, settlement fee on); B: another open market; U: unlisted collateral; M: matured. */
let A: MidnightMarket
let B: MidnightMarket
let idA: Hex
let idB: Hex
let idU: Hex
let idM: Hex
let fee: bigint
type Wallet = ReturnType<typeof walletOf>
let borrower: Wallet
let lender: Wallet
let selfMaker: Wallet
let bidMaker: Wallet
const priceOf = new Map<bigint, bigint>()
const servers: Server[] = []

function walletOf(privateKey: Hex) {
  return createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: base,
    transport: headroomHttp(sw.world.rpcUrl),
  })
}

const send = (hash: Promise<Hex>) => expectMined(sw.chain, hash)

async function freshOwner(usdc: bigint, weth = 0n): Promise<Wallet> {
  const fresh = await sw.freshWallet(usdc, parseUnits('10', 18))
  const w = walletOf(fresh.privateKey)
  if (weth > 0n)
    await send(
      w.writeContract({
        address: WETH,
        abi: parseAbi(['function deposit() payable']),
        functionName: 'deposit',
        value: weth,
      }),
    )
  return w
}

async function postOffer(
  maker: Wallet,
  market: MidnightMarket,
  buy: boolean,
  tick: bigint,
  units: bigint,
  tag: string,
) {
  const offer: MidnightOffer = {
    market,
    buy,
    maker: maker.account.address,
    start: 0n,
    expiry: market.maturity,
    tick,
    group: keccak256(toHex(`attack-fixed-${tag}`)),
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

async function authorizeRatifier(maker: Wallet) {
  await send(
    maker.writeContract({
      address: MIDNIGHT,
      abi: midnightStandInAbi,
      functionName: 'setIsAuthorized',
      args: [MIDNIGHT_ADDRESSES.setterRatifier, true, maker.account.address],
    }),
  )
}

async function approveMax(w: Wallet, token: Address) {
  await send(
    w.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [MIDNIGHT, maxUint256] }),
  )
}

const touch = (w: Wallet, market: MidnightMarket) =>
  send(
    w.writeContract({
      address: MIDNIGHT,
      abi: midnightStandInAbi,
      functionName: 'touchMarket',
      args: [market],
    }),
  )

const position = async (id: Hex, who: Address) => {
  const [credit, , , , debt] = await sw.chain.readContract({
    address: MIDNIGHT,
    abi: midnightAbi,
    functionName: 'position',
    args: [id, who],
  })
  return { credit, debt }
}
const collateralOf = (id: Hex, who: Address) =>
  sw.chain.readContract({
    address: MIDNIGHT,
    abi: midnightAbi,
    functionName: 'collateral',
    args: [id, who, 0n],
  })
const balanceOf = (token: Address, who: Address) =>
  sw.chain.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
/** What a refusal must leave untouched: the owner's tokens and its positions in A and B. */
const holdings = (who: Address) =>
  Promise.all([
    balanceOf(USDC, who),
    balanceOf(WETH, who),
    position(idA, who),
    position(idB, who),
    collateralOf(idA, who),
  ])

// ---------------------------------------------------------------------------------------- hostile API

interface WireLevel {
  tick: number
  price: string
  units: string
  assets: string
  count: number
}
interface WireBook {
  market_id: string
  asks: WireLevel[]
  bids: WireLevel[]
}
interface WireOffer {
  buy: boolean
  maker: string
  start: number
  expiry: number
  tick: number
  max_units: string
}
interface WireTakeable {
  market_id: string
  units: string
  offer: WireOffer
  ratifier_data: string
}
interface Tamper {
  books?: (books: WireBook[]) => WireBook[]
  takeable?: (
    marketId: string,
    side: string,
    offers: WireTakeable[],
  ) => Promise<WireTakeable[]> | WireTakeable[]
}
interface TamperingProxy {
  url: string
  upstream: string
  set(tamper: Tamper | null): void
}

/** An HTTP proxy in front of the devnet's Morpho API that rewrites Midnight answers as a hostile API would. */
async function tamperingProxy(upstream: string): Promise<TamperingProxy> {
  let tamper: Tamper | null = null
  const server = createServer((req, res) => {
    const url = req.url ?? '/'
    fetch(`${upstream}${url}`)
      .then(async (answer) => {
        let text = await answer.text()
        const t = tamper
        if (t !== null && answer.ok) {
          const taking = /^\/v0\/midnight\/books\/(0x[0-9a-f]{64})\/(asks|bids)\/takeable-offers/.exec(url)
          if (taking !== null && t.takeable !== undefined) {
            const json = JSON.parse(text) as { data: WireTakeable[] }
            text = JSON.stringify({
              data: await t.takeable(taking[1] as string, taking[2] as string, json.data),
            })
          } else if (url.startsWith('/v0/midnight/books?') && t.books !== undefined) {
            const json = JSON.parse(text) as { cursor: string | null; data: WireBook[] }
            text = JSON.stringify({ ...json, data: t.books(json.data) })
          }
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' })
        res.end(text)
      })
      .catch((err: unknown) => res.writeHead(502).end(String(err)))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  servers.push(server)
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    upstream,
    set(t) {
      tamper = t
    },
  }
}

/** A fresh service instance behind the proxy (its 10 s book cache starts empty) under `tamper`. */
async function hostile(tamper: Tamper) {
  proxy.set(tamper)
  const instance = await sw.instance({ MORPHO_API_URL: proxy.url })
  return builderClient(sw, instance)
}

const upstreamTakeable = async (id: Hex, side: 'asks' | 'bids') =>
  (
    (await (await fetch(`${proxy.upstream}/v0/midnight/books/${id}/${side}/takeable-offers`)).json()) as {
      data: WireTakeable[]
    }
  ).data

beforeAll(async () => {
  sw = await startServiceWorld()
  const block = await sw.chain.getBlock()
  // A and B are the devnet makers' book (src/devnet/deploy/midnightMakers.ts, in the cached state): opened
  // with the settlement fee on, the bid maker's bids and the ask maker's asks (on 2 WETH) already posted.
  const seeded = (
    await sw.chain.getLogs({
      address: MIDNIGHT,
      event: parseAbi([
        'event CreateMarket(bytes32 indexed id, (uint256,address,address,(address,uint256,uint256,address)[],uint256,uint256,address,address) market)',
      ])[0],
      fromBlock: 0n,
    })
  )[0]?.args.market
  if (seeded === undefined) throw new Error('no seeded Midnight market')
  const collateralParams = seeded[3].map(([token, lltv, liquidationCursor, oracle]) => ({
    token,
    lltv,
    liquidationCursor,
    oracle,
  }))
  const marketAt = (maturity: bigint, params = collateralParams): MidnightMarket => ({
    chainId: 8453n,
    midnight: MIDNIGHT,
    loanToken: USDC,
    collateralParams: params,
    maturity,
    rcfThreshold: 0n,
    enterGate: zeroAddress,
    liquidatorGate: zeroAddress,
  })
  A = marketAt(MIDNIGHT_MAKERS_BOOK.maturities.A)
  B = marketAt(MIDNIGHT_MAKERS_BOOK.maturities.B)
  const U = marketAt(block.timestamp + 30n * 86_400n, [
    { ...(collateralParams[0] as (typeof collateralParams)[number]), token: STRANGER },
  ])
  const M = marketAt(block.timestamp - 10n)
  ;[idA, idB, idU, idM] = [A, B, U, M].map(midnightMarketId) as [Hex, Hex, Hex, Hex]

  bidMaker = walletOf(midnightMakers.bid.privateKey)
  ;[borrower, lender, selfMaker] = await Promise.all([
    freshOwner(parseUnits('100', 6), parseUnits('2', 18)),
    freshOwner(parseUnits('1000', 6)),
    freshOwner(parseUnits('100', 6), parseUnits('2', 18)),
  ])
  for (const m of [U, M]) await touch(bidMaker, m)
  await authorizeRatifier(selfMaker)
  for (const tick of [...BID_TICKS, ...ASK_TICKS, 4480n])
    priceOf.set(
      tick,
      await sw.chain.readContract({
        address: MIDNIGHT,
        abi: midnightStandInAbi,
        functionName: 'tickToPrice',
        args: [tick],
      }),
    )
  fee = await sw.chain.readContract({
    address: MIDNIGHT,
    abi: midnightAbi,
    functionName: 'settlementFee',
    args: [idA, A.maturity - block.timestamp],
  })
  svc = await sw.instance()
  client = builderClient(sw, svc)
  proxy = await tamperingProxy(svc.config.upstreams.morphoApi)
}, 180_000)

afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r))
  await sw?.stop()
})

describe('attacks on the fixed-rate builders', () => {
  test('attack: a borrow at odd amounts with a settlement fee receives at least `assets` and owes exactly the units it states; broadcast, the chain agrees', async () => {
    expect(fee).toBe(BigInt(FEE_CBPS) * 10n ** 12n)
    const who = borrower.account.address
    const p1 = (priceOf.get(BID_TICKS[0] as bigint) as bigint) - fee
    for (const asked of [1n, 7n, 123_456_789n]) {
      const res = await client.post<FixedBorrowAction>('/v1/tx/fixed/borrow', {
        marketId: idA,
        assets: asked.toString(),
        owner: who,
        slippageBps: 0,
        collateral: { token: WETH, assets: WAD.toString() },
      })
      expect(res.status, JSON.stringify(res.body.error)).toBe(200)
      const a = res.body.action
      // The fewest units whose proceeds (rounded down, fee off the price) cover the ask.
      const units = (asked * WAD + p1 - 1n) / p1
      expect(a.units).toBe(units.toString())
      expect(a.assets).toBe(((units * p1) / WAD).toString())
      expect(BigInt(a.assets)).toBeGreaterThanOrEqual(asked)
      expect(((units - 1n) * p1) / WAD).toBeLessThan(asked)
      expect(a.fills.map((f) => f.price)).toEqual([p1.toString()])
      expect(res.body.simulation.balanceChanges[0]).toMatchObject({ token: USDC, delta: a.assets })
    }
    const before = await balanceOf(USDC, who)
    const res = await client.post<FixedBorrowAction>('/v1/tx/fixed/borrow', {
      marketId: idA,
      assets: '123456789',
      owner: who,
      slippageBps: 0,
      collateral: { token: WETH, assets: WAD.toString() },
    })
    expect(res.status).toBe(200)
    expectEnvelope(res.body, who)
    // The collateral approve: exact, to Midnight, on the collateral token.
    const approve = res.body.steps[0] as { to: Address; data: Hex }
    expect(selectorOf(approve.data)).toBe(APPROVE)
    expect(getAddress(approve.to)).toBe(WETH)
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.data }).args).toEqual([MIDNIGHT, WAD])
    await broadcast(sw.chain, borrower, res.body)
    expect(await position(idA, who)).toEqual({ credit: 0n, debt: BigInt(res.body.action.units) })
    expect((await balanceOf(USDC, who)) - before).toBe(BigInt(res.body.action.assets))
    expect(res.body.action.debtAfter).toBe(res.body.action.units)
  })

  test('attack: a lend at odd amounts with a settlement fee pays at most `assets`, buys the most units it can, approves exactly that to Midnight', async () => {
    const who = lender.account.address
    const q1 = (priceOf.get(ASK_TICKS[0] as bigint) as bigint) + fee
    for (const asked of [1n, 2n, 99_999_999n]) {
      const res = await client.post<FixedLendAction>('/v1/tx/fixed/lend', {
        marketId: idA,
        assets: asked.toString(),
        owner: who,
        slippageBps: 0,
      })
      // 1 atomic buys one unit only above a price of 1: below it, no unit fits and the build is refused.
      if ((asked * WAD) / q1 === 0n) {
        expect(res.status).toBe(422)
        expect(res.charged).toBe(0n)
        continue
      }
      expect(res.status, JSON.stringify(res.body.error)).toBe(200)
      const a = res.body.action
      const units = (asked * WAD) / q1
      const paid = (units * q1 + WAD - 1n) / WAD
      expect(a.units).toBe(units.toString())
      expect(a.assets).toBe(paid.toString())
      expect(paid).toBeLessThanOrEqual(asked)
      const approve = res.body.steps[0] as { to: Address; data: Hex }
      expect(getAddress(approve.to)).toBe(USDC)
      expect(decodeFunctionData({ abi: erc20Abi, data: approve.data }).args).toEqual([MIDNIGHT, paid])
      expect(res.body.simulation.balanceChanges[0]).toMatchObject({ delta: (-paid).toString() })
    }
  })

  test('attack: the Midnight API inflating bid prices (or deflating ask prices) gets the borrow and the lend refused as 502 after simulating, free, nothing moved', async () => {
    const bump = (levels: WireLevel[], num: bigint) =>
      levels.map((l) => {
        const p = (BigInt(l.price) * num) / 100n
        return { ...l, price: (p > WAD ? WAD : p).toString() }
      })
    const liar = await hostile({
      books: (books) =>
        books.map((b) =>
          b.market_id === idA ? { ...b, bids: bump(b.bids, 105n), asks: bump(b.asks, 95n) } : b,
        ),
    })
    const who = borrower.account.address
    // A lender with a standing allowance: no exact approve caps what the takes pull.
    await approveMax(lender, USDC)
    const before = await holdings(who)
    const lenderBefore = await holdings(lender.account.address)
    const borrow = await liar.post('/v1/tx/fixed/borrow', {
      marketId: idA,
      assets: '100000000',
      owner: who,
      slippageBps: 100,
      collateral: { token: WETH, assets: (WAD / 2n).toString() },
    })
    await expectRefused(borrow, { status: 502, code: 'upstream_unavailable' })
    expect(borrow.body.error?.details).toMatchObject({ upstream: 'Morpho Midnight' })
    expect(borrow.body.error?.message).toMatch(/less than the planned/)
    const lend = await liar.post('/v1/tx/fixed/lend', {
      marketId: idA,
      assets: '100000000',
      owner: lender.account.address,
      slippageBps: 100,
    })
    await expectRefused(lend, { status: 502, code: 'upstream_unavailable' })
    // The engine's rule that nothing beyond the declared loan token leaves the owner sees it first.
    expect(lend.body.error?.message).toMatch(
      new RegExp(`takes \\d+ of ${USDC} from the owner, more than the \\d+ the request spends`),
    )
    expect(await holdings(who)).toEqual(before)
    expect(await holdings(lender.account.address)).toEqual(lenderBefore)
    proxy.set(null)
  })

  test('attack: offers of another market filed under this market id are never taken (a lend would buy credit in market B): 422 book_too_thin, free', async () => {
    const bAsks = await upstreamTakeable(idB, 'asks')
    expect(bAsks.length).toBe(1)
    const liar = await hostile({
      takeable: (id, side, offers) =>
        id === idA && side === 'asks' ? bAsks.map((o) => ({ ...o, market_id: idA })) : offers,
    })
    const who = lender.account.address
    const before = await holdings(who)
    const lend = await liar.post('/v1/tx/fixed/lend', {
      marketId: idA,
      assets: '10000000',
      owner: who,
      slippageBps: 5000,
    })
    await expectRefused(lend, { status: 422, code: 'book_too_thin', field: 'assets' })
    expect(lend.body.error?.details).toMatchObject({ availableAssets: '0' })
    expect(await holdings(who)).toEqual(before)
    proxy.set(null)
  })

  // Four service instances start in turn (one per tampered upstream): about 20 s idle, more under load.
  test('attack: expired, not-started and side-flipped offers are left out (422 book_too_thin), a `buy` flipped in place fails the ratifier (422), all free', async () => {
    const who = borrower.account.address
    const before = await holdings(who)
    const now = Math.floor(Date.now() / 1000)
    const body = {
      marketId: idA,
      assets: '1000000',
      owner: who,
      slippageBps: 5000,
      collateral: { token: WETH, assets: (WAD / 2n).toString() },
    }
    const cases: [string, Tamper, string][] = [
      [
        'expired',
        { takeable: (_i, _s, o) => o.map((t) => ({ ...t, offer: { ...t.offer, expiry: now - 3600 } })) },
        'book_too_thin',
      ],
      [
        'not started',
        { takeable: (_i, _s, o) => o.map((t) => ({ ...t, offer: { ...t.offer, start: now + 86_400 } })) },
        'book_too_thin',
      ],
      [
        'asks served as bids',
        { takeable: async (i, s, o) => (s === 'bids' ? upstreamTakeable(i as Hex, 'asks') : o) },
        'book_too_thin',
      ],
      [
        'asks served as bids with buy flipped',
        {
          takeable: async (i, s, o) =>
            s === 'bids'
              ? (await upstreamTakeable(i as Hex, 'asks')).map((t) => ({
                  ...t,
                  offer: { ...t.offer, buy: true },
                }))
              : o,
        },
        'simulation_reverted',
      ],
    ]
    for (const [, tamper, code] of cases) {
      const liar = await hostile(tamper)
      const res = await liar.post('/v1/tx/fixed/borrow', body)
      await expectRefused(res, { status: 422, code })
    }
    expect(await holdings(who)).toEqual(before)
    proxy.set(null)
  }, 90_000)

  test('attack: offer caps beyond uint128 from the API are a 502, never a 500, free', async () => {
    const liar = await hostile({
      takeable: (_i, _s, o) =>
        o.map((t) => ({ ...t, offer: { ...t.offer, max_units: (2n ** 129n).toString() } })),
    })
    const res = await liar.post('/v1/tx/fixed/borrow', {
      marketId: idA,
      assets: '1000000',
      owner: borrower.account.address,
      slippageBps: 100,
    })
    await expectRefused(res, { status: 502, code: 'upstream_unavailable' })
    proxy.set(null)
  })

  test('attack: the owner’s own best bid is skipped (no SelfTake): the borrow fills at the next best price', async () => {
    const who = selfMaker.account.address
    await approveMax(selfMaker, USDC)
    await postOffer(selfMaker, A, true, 4480n, parseUnits('50', 6), 'self')
    const res = await client.post<FixedBorrowAction>('/v1/tx/fixed/borrow', {
      marketId: idA,
      assets: '10000000',
      owner: who,
      slippageBps: 0,
      collateral: { token: WETH, assets: WAD.toString() },
    })
    expect(res.status, JSON.stringify(res.body.error)).toBe(200)
    const best = (priceOf.get(4480n) as bigint) - fee
    const next = (priceOf.get(BID_TICKS[0] as bigint) as bigint) - fee
    expect(res.body.action.fills.map((f) => f.price)).toEqual([next.toString()])
    expect(BigInt(res.body.action.guardPrice)).toBe(next)
    expect(BigInt(res.body.action.guardPrice)).toBeLessThan(best)
    // Taken off the book again so the other tests see the same bids.
    const [ids, offers] = await sw.chain.readContract({
      address: MIDNIGHT_ADDRESSES.offerBook,
      abi: midnightStandInAbi,
      functionName: 'liveOffers',
      args: [idA],
    })
    const mine = offers.findIndex((o) => getAddress(o.maker) === getAddress(who))
    await send(
      selfMaker.writeContract({
        address: MIDNIGHT_ADDRESSES.offerBook,
        abi: midnightStandInAbi,
        functionName: 'cancel',
        args: [idA, ids[mine] as bigint],
      }),
    )
  })

  test('attack: slippageBps 0 takes the best level only (422 book_too_thin past it), 5000 is allowed, out-of-range or non-integer slippage is 400, all refusals free', async () => {
    const who = borrower.account.address
    const body = (patch: Record<string, unknown>) => ({
      marketId: idA,
      assets: '400000000',
      owner: who,
      ...patch,
    })
    const zero = await client.post('/v1/tx/fixed/borrow', body({ slippageBps: 0 }))
    await expectRefused(zero, { status: 422, code: 'book_too_thin', field: 'assets' })
    const p1 = (priceOf.get(BID_TICKS[0] as bigint) as bigint) - fee
    expect(zero.body.error?.details).toMatchObject({ bestPrice: p1.toString(), guardPrice: p1.toString() })
    const wide = await client.post<FixedBorrowAction>(
      '/v1/tx/fixed/borrow',
      body({ slippageBps: 5000, assets: '10000000' }),
    )
    expect(wide.status, JSON.stringify(wide.body.error)).toBe(200)
    expect(BigInt(wide.body.action.guardPrice)).toBe((p1 * 5_000n) / 10_000n)
    for (const slippageBps of [5001, -1, 2.5, '50', null, 1e9])
      await expectRefused(await client.post('/v1/tx/fixed/borrow', body({ slippageBps })), {
        status: 400,
        field: 'slippageBps',
      })
    const lend = await client.post<FixedLendAction>('/v1/tx/fixed/lend', {
      marketId: idA,
      assets: '1000000',
      owner: lender.account.address,
      slippageBps: 5000,
    })
    expect(lend.status).toBe(200)
    // An ask guard 50 % above the best price is capped at a price of 1 (no unit costs more than it pays).
    const q1 = (priceOf.get(ASK_TICKS[0] as bigint) as bigint) + fee
    const up = (q1 * 15_000n + 9_999n) / 10_000n
    expect(BigInt(lend.body.action.guardPrice)).toBe(up > WAD ? WAD : up)
  })

  test('attack: repay and withdraw beyond the debt or credit (up to uint128 and uint256 overflow) are 422 naming units, free, nothing moved', async () => {
    const who = borrower.account.address
    const { debt } = await position(idA, who)
    expect(debt).toBeGreaterThan(0n)
    const before = await holdings(who)
    for (const units of [debt + 1n, 2n ** 128n, 2n ** 128n + debt, maxUint256]) {
      const r = await client.post('/v1/tx/fixed/repay', {
        marketId: idA,
        units: units.toString(),
        owner: who,
      })
      await expectRefused(r, { status: 422, code: 'exceeds_debt', field: 'units' })
      const w = await client.post('/v1/tx/fixed/withdraw', {
        marketId: idA,
        units: units.toString(),
        owner: who,
      })
      await expectRefused(w, { status: 422, code: 'exceeds_credit', field: 'units' })
    }
    // The exact repay approves exactly the units, to Midnight.
    const ok = await client.post('/v1/tx/fixed/repay', { marketId: idA, units: '1000', owner: who })
    expect(ok.status).toBe(200)
    const approve = ok.body.steps[0] as { to: Address; data: Hex }
    expect(getAddress(approve.to)).toBe(USDC)
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.data }).args).toEqual([MIDNIGHT, 1000n])
    expect(await holdings(who)).toEqual(before)
  })

  test('attack: withdraw-collateral at the health boundary: the last healthy amount builds (the chain agrees), one wei more is 422 unhealthy_after; maxDebtAfter is Σ c × price / 1e36 × LLTV', async () => {
    const who = borrower.account.address
    const { debt } = await position(idA, who)
    const held = await collateralOf(idA, who)
    const c0 = A.collateralParams[0] as MidnightMarket['collateralParams'][number]
    const price = await sw.chain.readContract({
      address: c0.oracle,
      abi: parseAbi(['function price() view returns (uint256)']),
      functionName: 'price',
    })
    const maxDebt = (c: bigint) => (((c * price) / 10n ** 36n) * c0.lltv) / WAD
    // The least collateral that still backs the debt, by bisection.
    let lo = 0n
    let hi = held
    while (lo < hi) {
      const mid = (lo + hi) / 2n
      if (maxDebt(mid) >= debt) hi = mid
      else lo = mid + 1n
    }
    const edge = held - lo
    const before = await holdings(who)
    const ok = await client.post<FixedWithdrawCollateralAction>('/v1/tx/fixed/withdraw-collateral', {
      marketId: idA,
      collateralToken: WETH,
      assets: edge.toString(),
      owner: who,
    })
    expect(ok.status, JSON.stringify(ok.body.error)).toBe(200)
    expect(ok.body.action.maxDebtAfter).toBe(maxDebt(lo).toString())
    expect(BigInt(ok.body.action.maxDebtAfter ?? '0')).toBeGreaterThanOrEqual(debt)
    const over = await client.post('/v1/tx/fixed/withdraw-collateral', {
      marketId: idA,
      collateralToken: WETH,
      assets: (edge + 1n).toString(),
      owner: who,
    })
    await expectRefused(over, { status: 422, code: 'unhealthy_after', field: 'assets' })
    expect(over.body.error?.details).toMatchObject({
      debt: debt.toString(),
      maxDebtAfter: maxDebt(lo - 1n).toString(),
    })
    for (const assets of [held + 1n, 2n ** 128n, maxUint256])
      await expectRefused(
        await client.post('/v1/tx/fixed/withdraw-collateral', {
          marketId: idA,
          collateralToken: WETH,
          assets: assets.toString(),
          owner: who,
        }),
        { status: 422, code: 'exceeds_collateral', field: 'assets' },
      )
    expect(await holdings(who)).toEqual(before)
  })

  test('attack: the borrow’s collateral object: the loan token, a stranger, zero or missing assets, extra keys are refused (422 unknown_collateral / 400), free', async () => {
    const who = borrower.account.address
    const body = (collateral: unknown) => ({
      marketId: idA,
      assets: '1000000',
      owner: who,
      slippageBps: 100,
      collateral,
    })
    const cases: [unknown, number, string | undefined, string][] = [
      [{ token: USDC, assets: '1' }, 422, 'unknown_collateral', 'collateral.token'],
      [{ token: STRANGER, assets: '1' }, 422, 'unknown_collateral', 'collateral.token'],
      [{ token: WETH, assets: '0' }, 400, undefined, 'collateral.assets'],
      [{ token: WETH }, 400, undefined, 'collateral.assets'],
      [{ token: WETH, assets: '1', onBehalf: STRANGER }, 400, undefined, ''],
      [{ token: WETH, assets: (2n ** 256n).toString() }, 400, undefined, 'collateral.assets'],
    ]
    for (const [collateral, status, code, field] of cases)
      await expectRefused(await client.post('/v1/tx/fixed/borrow', body(collateral)), {
        status,
        code,
        field: field === '' ? undefined : field,
      })
    // A collateral larger than the wallet holds: named before simulating.
    await expectRefused(
      await client.post('/v1/tx/fixed/borrow', body({ token: WETH, assets: (2n ** 128n).toString() })),
      { status: 422, code: 'insufficient_balance', field: 'collateral.assets' },
    )
  })

  test('attack: a market with a collateral outside the address book, and a matured market, are refused on every builder that names them, free', async () => {
    const who = borrower.account.address
    const unlisted: [string, unknown][] = [
      [
        '/v1/tx/fixed/supply-collateral',
        { marketId: idU, collateralToken: STRANGER, assets: '1', owner: who },
      ],
      ['/v1/tx/fixed/borrow', { marketId: idU, assets: '1000000', owner: who, slippageBps: 100 }],
      ['/v1/tx/fixed/lend', { marketId: idU, assets: '1000000', owner: who, slippageBps: 100 }],
    ]
    for (const [path, body] of unlisted)
      await expectRefused(await client.post(path, body), {
        status: 422,
        code: 'unlisted_target',
        field: 'marketId',
      })
    for (const path of ['/v1/tx/fixed/borrow', '/v1/tx/fixed/lend'])
      await expectRefused(
        await client.post(path, { marketId: idM, assets: '1000000', owner: who, slippageBps: 100 }),
        { status: 422, code: 'matured', field: 'marketId' },
      )
  })

  test('attack: huge and malformed bodies are 400 or a named 422, never a 500, never charged', async () => {
    const who = borrower.account.address
    const take = (patch: Record<string, unknown>) => ({
      marketId: idA,
      assets: '1000000',
      owner: who,
      slippageBps: 100,
      ...patch,
    })
    const cases: [string, unknown, number, string][] = [
      ['/v1/tx/fixed/borrow', take({ assets: maxUint256.toString() }), 422, 'assets'],
      ['/v1/tx/fixed/lend', take({ assets: maxUint256.toString() }), 422, 'assets'],
      ['/v1/tx/fixed/borrow', take({ assets: (2n ** 256n).toString() }), 400, 'assets'],
      ['/v1/tx/fixed/lend', take({ assets: '0' }), 400, 'assets'],
      ['/v1/tx/fixed/lend', take({ assets: '01' }), 400, 'assets'],
      ['/v1/tx/fixed/borrow', take({ marketId: `${idA}00` }), 400, 'marketId'],
      ['/v1/tx/fixed/borrow', take({ marketId: `0x${'00'.repeat(32)}` }), 422, 'marketId'],
      ['/v1/tx/fixed/borrow', take({ owner: zeroAddress }), 400, 'owner'],
      ['/v1/tx/fixed/lend', take({ units: '1' }), 400, ''],
      ['/v1/tx/fixed/repay', { marketId: idA, units: '0', owner: who }, 400, 'units'],
      ['/v1/tx/fixed/withdraw', { marketId: idA, units: '-5', owner: who }, 400, 'units'],
      [
        '/v1/tx/fixed/supply-collateral',
        { marketId: idA, collateralToken: WETH, assets: maxUint256.toString(), owner: who },
        422,
        'assets',
      ],
      [
        '/v1/tx/fixed/supply-collateral',
        { marketId: idA, collateralToken: 'weth', assets: '1', owner: who },
        400,
        'collateralToken',
      ],
    ]
    for (const [path, body, status, field] of cases) {
      const r = await client.post(path, body)
      await expectRefused(r, { status, field: field === '' ? undefined : field })
    }
  })

  test('attack: a simulated take that moves the position by other than the planned units is refused as 502 (verifyFixedTake, pure)', () => {
    const m = {
      id: idA,
      market: A,
      loanToken: { address: USDC, symbol: 'USDC', decimals: 6 },
      collaterals: [],
      maturity: Number(A.maturity),
    } satisfies FixedMarket
    const pos = (credit: bigint, debt: bigint) =>
      encodeFunctionResult({
        abi: midnightAbi,
        functionName: 'position',
        result: [credit, 0n, 0n, 0n, debt, 0n],
      })
    const accrued = (credit: bigint) =>
      encodeFunctionResult({ abi: midnightAbi, functionName: 'updatePositionView', result: [credit, 0n, 0n] })
    const sim = (delta: bigint) => ({
      blockNumber: '1',
      gasUsed: '1',
      steps: [],
      balanceChanges: [{ token: USDC, before: '0', after: '0', delta: delta.toString() }],
    })
    const probes = (credit: [bigint, bigint], debt: [bigint, bigint]) => [
      { before: accrued(credit[0]), after: accrued(credit[1]) },
      { before: pos(credit[0], debt[0]), after: pos(credit[1], debt[1]) },
    ]
    const borrow = { takingBids: true, assets: 100n, units: 120n, loanSpentElsewhere: 0n }
    const lend = { takingBids: false, assets: 100n, units: 110n, loanSpentElsewhere: 0n }
    // As planned: passes (a borrow cancelling 20 credit then adding 100 debt; a lend adding 110 credit).
    expect(() => verifyFixedTake(m, borrow, sim(100n), probes([20n, 0n], [0n, 100n]))).not.toThrow()
    expect(() => verifyFixedTake(m, lend, sim(-100n), probes([0n, 110n], [0n, 0n]))).not.toThrow()
    const refused: [typeof borrow, ReturnType<typeof sim>, ReturnType<typeof probes>][] = [
      [borrow, sim(99n), probes([0n, 0n], [0n, 120n])],
      [borrow, sim(100n), probes([0n, 0n], [0n, 121n])],
      [borrow, sim(100n), probes([0n, 0n], [0n, 0n])],
      [lend, sim(-101n), probes([0n, 110n], [0n, 0n])],
      [lend, sim(-100n), probes([0n, 109n], [0n, 0n])],
      [lend, sim(-100n), probes([0n, 0n], [0n, 0n])],
    ]
    for (const [plan, s, p] of refused) {
      let thrown: unknown
      try {
        verifyFixedTake(m, plan, s, p)
      } catch (err) {
        thrown = err
      }
      expect(thrown).toBeInstanceOf(UpstreamError)
      expect((thrown as UpstreamError).status).toBe(502)
    }
  })
})
