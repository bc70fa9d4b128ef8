import { type Address, erc20Abi, type Hex, keccak256, toHex } from 'viem'
import { describe, expect, test } from 'vitest'
import { BASE_ADDRESSES, DEAD_ADDRESS } from '../../src/chain/addresses.js'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { devnetPropDesk } from '../../src/devnet/devnetAccounts.js'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { propExecuteRoute } from '../../src/routes/prop/propExecute.js'
import { createDatabase } from '../../src/store/database.js'
import { createPropBook } from '../../src/store/propBook.js'
import { devnetWallet, RECEIPT } from '../helpers/chainChecks.js'
import {
  type CreditWallet,
  paidFetch,
  poolSqrtPrice,
  setPoolSqrtPrice,
  transferUtil,
  utilUsdAt,
  utilWallet,
} from '../helpers/creditKit.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import * as kit from '../helpers/propKit.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The prop desk (issue 25) on the devnet: members pay the x402 fee with the official client and authorize
// each action with a UTIL transfer of their own; the desk trades gTrade (the stand-in) with its own USDC
// from its own key, and every refusal is checked for what it did not move.
const sw = useWorld()
const svc = useInstance(sw, { PROP_COOLDOWN_SECONDS: '0' })

const DIAMOND = BASE_ADDRESSES.GtradeDiamond
const { DESK, MEMBER_UTIL } = kit
const EXECUTE_PRICE = usdToAtomic(propExecuteRoute.priceUsd as number)

// The kit's helpers, bound to this file's world and instance.
const openTrades = (who: Address) => kit.openTrades(sw, who)
const ethPrice = () => kit.ethPrice(sw)
const post = (w: CreditWallet, path: string, body: unknown, url = svc.url) => kit.post(w, url, path, body)
const payFor = (w: CreditWallet, actionId: string, params: unknown, burn = false) =>
  kit.payFor(sw, w, svc.url, actionId, params, burn)

async function openParams() {
  const mark = await ethPrice()
  return {
    pairIndex: 1,
    long: true,
    leverage: 5,
    collateralUsdc: 100,
    markPrice: mark,
    tp: mark * 1.1,
    sl: mark * 0.9,
  }
}

describe('prop desk', () => {
  test('behavior: a quote states cost, match factor, eligibility, allotment and where to send', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const quote = await post(member, '/v1/prop/quote', { actionId: 'trade.open', params: await openParams() })
    expect(quote.status).toBe(200)
    expect(quote.body).toMatchObject({
      actionId: 'trade.open',
      eligible: true,
      reasons: [],
      matchFactor: 1,
      utilCostUsd: 1, // 0.1% of $500 notional is under the $1 minimum
      allotment: { maxCollateralUsdc: 100, maxLeverage: 10, pairs: [0, 1] },
      cooldownRemainingSec: 0,
      send: { agents: { to: DESK, field: 'payTxHash' }, humans: { to: DEAD_ADDRESS, field: 'burnTxHash' } },
    })
    // $1 at the pool's price now (about $0.0001 per UTIL, wandering ±0.5% with the pusher): ~10,000 UTIL.
    const usdPerUtil = await utilUsdAt(sw.chain, 10n ** 18n, 'latest')
    expect(Number(BigInt(quote.body.utilCost as string)) / 1e18).toBeCloseTo(1 / usdPerUtil, -1)
    // The member's UTIL (about $1,000) at the same price.
    expect((quote.body.membership as { combinedUsd: number }).combinedUsd).toBeCloseTo(
      (Number(MEMBER_UTIL) / 1e18) * usdPerUtil,
      0,
    )

    const poor = await utilWallet(sw, 1_000_000n, 10n ** 18n)
    const refused = await post(poor, '/v1/prop/quote', { actionId: 'trade.open', params: await openParams() })
    expect(refused.status).toBe(200)
    expect(refused.body.eligible).toBe(false)
    expect((refused.body.reasons as string[])[0]).toContain('membership needs $500')
  })

  test('behavior: trade.open with a valid payTxHash opens the desk’s trade within the allotment, attributed to the member; trade.close closes it', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const hash = await payFor(member, 'trade.open', params)
    const deskUsdc = await sw.usdcBalance(DESK)
    const memberUsdc = await sw.usdcBalance(member.account.address)
    const tradesBefore = (await openTrades(DESK)).length

    const opened = await post(member, '/v1/prop/execute', { actionId: 'trade.open', params, payTxHash: hash })
    expect(opened.status, JSON.stringify(opened.body)).toBe(200)
    expect(opened.body).toMatchObject({
      actionId: 'trade.open',
      status: 'executed',
      member: member.account.address,
      desk: DESK,
      position: { state: 'pending_fill' },
    })
    // The desk's own capital went in; the member paid only the x402 fee (and the UTIL).
    expect(await sw.usdcBalance(DESK)).toBe(deskUsdc - 100_000_000n)
    expect(await sw.usdcBalance(member.account.address)).toBe(memberUsdc - EXECUTE_PRICE)
    const deskTx = await sw.chain.getTransaction({ hash: opened.body.txHash as Hex })
    expect(deskTx.from.toLowerCase()).toBe(DESK.toLowerCase())
    expect(deskTx.to?.toLowerCase()).toBe(DIAMOND.toLowerCase())

    // The venue's keeper fills the MARKET order: the desk holds the trade, 5x on ETH/USD.
    await sw.world.keeperTick()
    const trade = await eventually(async () => {
      const trades = await openTrades(DESK)
      expect(trades.length).toBe(tradesBefore + 1)
      return trades.at(-1)
    })
    expect(trade).toMatchObject({ pairIndex: 1, long: true, leverage: 5_000 })

    // Closing it takes its own transfer (a $1 close).
    const close = { positionId: opened.body.positionId, expectedPrice: await ethPrice() }
    const closeHash = await payFor(member, 'trade.close', close)
    const closed = await post(member, '/v1/prop/execute', {
      actionId: 'trade.close',
      params: close,
      payTxHash: closeHash,
    })
    expect(closed.status, JSON.stringify(closed.body)).toBe(200)
    expect(closed.body).toMatchObject({
      status: 'executed',
      positionId: opened.body.positionId,
      position: { state: 'closing' },
    })
    // The open's fill, found by a later open's exposure read once 64 blocks deep (no reorg of the head
    // can reorder it), is kept with the position: no later read searches its log again.
    const recorded = async () => {
      const db = await createDatabase({ databaseUrl: svc.config.storage.databaseUrl, dataDir: 'memory://' })
      const row = await createPropBook(db).get(opened.body.positionId as number)
      await db.close()
      return (row?.result?.position as { tradeIndex?: number } | undefined)?.tradeIndex
    }
    expect(await recorded()).toBeUndefined()
    await sw.chain.request({ method: 'anvil_mine' as never, params: ['0x46'] as never })
    const later = await post(member, '/v1/prop/quote', { actionId: 'trade.open', params: await openParams() })
    expect(later.status).toBe(200)
    expect(await recorded()).toBe(trade?.index)
    await sw.world.keeperTick()
    await eventually(async () => expect((await openTrades(DESK)).length).toBe(tradesBefore))

    // Closed is closed: another close of it is refused, free.
    const again = await payFor(member, 'trade.close', close)
    const before = await sw.usdcBalance(member.account.address)
    const twice = await post(member, '/v1/prop/execute', {
      actionId: 'trade.close',
      params: close,
      payTxHash: again,
    })
    expect(twice.status).toBe(409)
    expect(errorOf(twice.body)?.code).toBe('prop_position_closed')
    expect(await sw.usdcBalance(member.account.address)).toBe(before)
  })

  test('behavior: a burn authorizes as a payment to the desk does (burnTxHash)', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const hash = await payFor(member, 'trade.open', params, true)
    const res = await post(member, '/v1/prop/execute', { actionId: 'trade.open', params, burnTxHash: hash })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.utilPaid).toBeDefined()
  })
})

describe('a prop quote holds through execute (issue 36)', () => {
  /** Moves the UTIL/USDC pool so an action's UTIL cost now is `factor` × what it was (UTIL per USDC × factor). */
  async function scaleUtilCost(factor: number) {
    const now = await poolSqrtPrice(sw.chain)
    const scale = BigInt(Math.round(Math.sqrt(factor) * 1e12))
    await setPoolSqrtPrice(sw.chain, (now * scale) / 10n ** 12n)
  }

  /** A member quotes trade.open, burns exactly the quoted UTIL, and then the pool moves by `factor`. */
  async function quoteBurnThenMove(factor: number) {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const quote = await post(member, '/v1/prop/quote', { actionId: 'trade.open', params })
    expect(quote.status).toBe(200)
    const q = quote.body as {
      utilCost: string
      quote: { token: string; expiresAt: number; tolerancePct: number }
    }
    expect(q.quote.tolerancePct).toBe(2)
    expect(q.quote.expiresAt - Date.now() / 1000).toBeGreaterThan(290)
    const burnTxHash = await transferUtil(sw.chain, member.privateKey, DEAD_ADDRESS, BigInt(q.utilCost))
    const before = await poolSqrtPrice(sw.chain)
    await scaleUtilCost(factor)
    return { member, params, q, burnTxHash, restore: () => setPoolSqrtPrice(sw.chain, before) }
  }

  test('behavior: quote, burn of the quoted UTIL, the pool ticks 1% against it, execute with the quote token is served', async () => {
    const { member, params, q, burnTxHash, restore } = await quoteBurnThenMove(1.01)
    try {
      // Without the quote's token the cost is today's, 1% more than was burned: refused, free.
      const bare = await post(member, '/v1/prop/execute', { actionId: 'trade.open', params, burnTxHash })
      expect(bare.status, JSON.stringify(bare.body)).toBe(422)
      expect(errorOf(bare.body)?.details).toMatchObject({ reason: 'too_small', quote: 'absent' })
      const usdc = await sw.usdcBalance(member.account.address)
      const res = await post(member, '/v1/prop/execute', {
        actionId: 'trade.open',
        params,
        burnTxHash,
        quoteToken: q.quote.token,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.utilPaid).toBe(q.utilCost)
      // Charged the execute price, once.
      expect(usdc - (await sw.usdcBalance(member.account.address))).toBe(EXECUTE_PRICE)
    } finally {
      await restore()
    }
  })

  test('attack: a quote past its tolerance, edited, or for other params or another member holds nothing; each refusal free', async () => {
    const beyond = await quoteBurnThenMove(1.05)
    try {
      const { member, params, q, burnTxHash } = beyond
      const execute = async (body: Record<string, unknown>, who = member) => {
        const usdc = await sw.usdcBalance(who.account.address)
        const res = await post(who, '/v1/prop/execute', {
          actionId: 'trade.open',
          params,
          burnTxHash,
          ...body,
        })
        expect(await sw.usdcBalance(who.account.address), JSON.stringify(res.body)).toBe(usdc)
        return res
      }
      // 5% against the quote, past its 2%: the price now applies, and names what it asks.
      const past = await execute({ quoteToken: q.quote.token })
      expect(past.status).toBe(422)
      const details = errorOf(past.body)?.details as Record<string, string>
      expect(details).toMatchObject({ reason: 'too_small', quote: 'beyond_tolerance', sent: q.utilCost })
      expect(BigInt(details.required as string)).toBe(BigInt(details.utilCostNow as string))
      expect(Number(BigInt(details.required as string)) / Number(BigInt(q.utilCost))).toBeCloseTo(1.05, 3)
      // 1% against the quote: within its tolerance, yet only the token as issued, for this member and these
      // params, holds the quoted cost.
      await beyond.restore()
      await scaleUtilCost(1.01)
      const [cost, mac] = q.quote.token.split('~') as [string, string]
      for (const token of [`${BigInt(cost) / 2n}~${mac}`, `${cost}~${mac.slice(0, -2)}xx`, 'not-a-token']) {
        const res = await execute({ quoteToken: token })
        expect(res.status).toBe(422)
        expect(errorOf(res.body)?.details).toMatchObject({ reason: 'too_small', quote: 'invalid' })
      }
      const bigger = await execute({ quoteToken: q.quote.token, params: { ...params, leverage: 6 } })
      expect(errorOf(bigger.body)?.details).toMatchObject({ reason: 'too_small', quote: 'invalid' })
      const other = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
      const othersBurn = await transferUtil(sw.chain, other.privateKey, DEAD_ADDRESS, BigInt(q.utilCost))
      const borrowed = await execute({ quoteToken: q.quote.token, burnTxHash: othersBurn }, other)
      expect(errorOf(borrowed.body)?.details).toMatchObject({ reason: 'too_small', quote: 'invalid' })
    } finally {
      await beyond.restore()
    }
  })
})

describe('prop desk refusals: each free, each moving nothing', () => {
  /**
   * Executes and expects a refusal: no x402 charge, no desk USDC moved, no desk transaction sent (its nonce;
   * its trade count would move with the keeper filling earlier tests' orders).
   */
  async function refused(w: CreditWallet, body: unknown, status: number, code: string, reason?: string) {
    const usdc = await sw.usdcBalance(w.account.address)
    const desk = await sw.usdcBalance(DESK)
    const sent = await sw.chain.getTransactionCount({ address: DESK, blockTag: 'pending' })
    const res = await post(w, '/v1/prop/execute', body)
    expect(res.status, JSON.stringify(res.body)).toBe(status)
    const error = errorOf(res.body)
    expect(error?.code).toBe(code)
    if (reason !== undefined) expect(error?.details?.reason).toBe(reason)
    expect(await sw.usdcBalance(w.account.address)).toBe(usdc)
    expect(await sw.usdcBalance(DESK)).toBe(desk)
    expect(await sw.chain.getTransactionCount({ address: DESK, blockTag: 'pending' })).toBe(sent)
    return error
  }

  test('attack: the same hash again, another wallet’s hash, too little UTIL, no hash', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    // Half the allotment: the member's open position leaves room, so the refusals below are the transfer's.
    const params = { ...(await openParams()), collateralUsdc: 50 }
    const hash = await payFor(member, 'trade.open', params)
    expect(
      (await post(member, '/v1/prop/execute', { actionId: 'trade.open', params, payTxHash: hash })).status,
    ).toBe(200)
    await refused(member, { actionId: 'trade.open', params, payTxHash: hash }, 422, 'bad_pay_tx_hash', 'used')

    // Acting for another wallet: its transfer authorizes nothing for whoever presents it.
    const other = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const othersHash = await payFor(member, 'trade.open', params)
    await refused(
      other,
      { actionId: 'trade.open', params, payTxHash: othersHash },
      422,
      'bad_pay_tx_hash',
      'wrong_sender',
    )

    const short = await transferUtil(sw.chain, member.privateKey, DESK, 10n ** 18n)
    await refused(
      member,
      { actionId: 'trade.open', params, payTxHash: short },
      422,
      'bad_pay_tx_hash',
      'too_small',
    )
    await refused(member, { actionId: 'trade.open', params }, 422, 'bad_pay_tx_hash', 'missing')
    // A payment to the desk presented as a burn went to the wrong place.
    await refused(
      member,
      { actionId: 'trade.open', params, burnTxHash: othersHash },
      422,
      'bad_burn_tx_hash',
      'wrong_destination',
    )
  })

  test('attack: an ineligible wallet is told what it lacks; over the allotment and off the allowlist are refused', async () => {
    const poor = await utilWallet(sw, 1_000_000n, 10n ** 21n)
    const params = await openParams()
    const hash = await transferUtil(sw.chain, poor.privateKey, DESK, 10n ** 21n)
    const error = await refused(
      poor,
      { actionId: 'trade.open', params, payTxHash: hash },
      403,
      'prop_ineligible',
    )
    expect(error?.details).toMatchObject({ thresholdUsd: 500 })

    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const big = { ...params, collateralUsdc: 150 }
    const bigHash = await payFor(member, 'trade.open', big)
    const over = await refused(
      member,
      { actionId: 'trade.open', params: big, payTxHash: bigHash },
      422,
      'prop_over_allotment',
    )
    expect(over?.field).toBe('params.collateralUsdc')
    const btc = { ...params, pairIndex: 2 }
    await refused(
      member,
      { actionId: 'trade.open', params: btc, payTxHash: bigHash },
      422,
      'prop_pair_not_allowed',
    )
    // The refused hash was never claimed: it still authorizes an action within the allotment.
    expect(
      (await post(member, '/v1/prop/execute', { actionId: 'trade.open', params, payTxHash: bigHash })).status,
    ).toBe(200)
  })

  test('attack: a position is closed only by the member it was opened for', async () => {
    const owner = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const opened = await post(owner, '/v1/prop/execute', {
      actionId: 'trade.open',
      params,
      payTxHash: await payFor(owner, 'trade.open', params),
    })
    expect(opened.status).toBe(200)
    const thief = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const close = { positionId: opened.body.positionId, expectedPrice: await ethPrice() }
    await refused(
      thief,
      { actionId: 'trade.close', params: close, payTxHash: await payFor(thief, 'trade.close', close) },
      404,
      'prop_position_unknown',
    )
  })

  test('behavior: the desk key is its own and the cooldown spaces a member’s actions', async () => {
    expect(DESK.toLowerCase()).not.toBe(svc.config.payTo.toLowerCase())
    const slow = await sw.instance({ PROP_COOLDOWN_SECONDS: '3600' })
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const send = async (hash: Hex) =>
      paidFetch(member)(`${slow.url}/v1/prop/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ actionId: 'trade.open', params, payTxHash: hash }),
      })
    const first = await payFor(member, 'trade.open', params)
    expect((await send(first)).status).toBe(200)
    const second = await payFor(member, 'trade.open', params)
    const usdc = await sw.usdcBalance(member.account.address)
    const res = await send(second)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).not.toBeNull()
    expect(errorOf(await res.json())?.code).toBe('prop_cooldown')
    expect(await sw.usdcBalance(member.account.address)).toBe(usdc)
    await slow.stop()
  })
})

describe('open desk exposure (issue 37 item 8)', () => {
  test('attack: a member’s open positions stay within the allotment and the desk’s within PROP_DESK_MAX_OPEN_USDC, across two instances at once; each refusal free; a close frees room', async () => {
    const env = { PROP_COOLDOWN_SECONDS: '0', PROP_DESK_MAX_OPEN_USDC: '100' }
    const one = await sw.instance(env)
    const two = await sw.instance({ ...env, DATABASE_URL: one.config.storage.databaseUrl })
    try {
      const a = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
      const b = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
      const at = (collateralUsdc: number) => openParams().then((p) => ({ ...p, collateralUsdc }))
      const a60 = await at(60)
      const execute = (w: CreditWallet, url: string, params: unknown, payTxHash: Hex) =>
        kit.post(w, url, '/v1/prop/execute', { actionId: 'trade.open', params, payTxHash })
      const deskUsdc = await sw.usdcBalance(DESK)

      // Two $60 opens of one member at once, one on each instance: a $100 allotment holds one of them.
      const [h1, h2] = [
        await kit.payFor(sw, a, one.url, 'trade.open', a60),
        await kit.payFor(sw, a, two.url, 'trade.open', a60),
      ]
      const usdcA = await sw.usdcBalance(a.account.address)
      const both = await Promise.all([execute(a, one.url, a60, h1), execute(a, two.url, a60, h2)])
      expect(both.map((r) => r.status).sort(), JSON.stringify(both.map((r) => r.body))).toEqual([200, 422])
      const [served, refused] = both[0]?.status === 200 ? [both[0], both[1]] : [both[1], both[0]]
      expect(errorOf(refused?.body)).toMatchObject({
        code: 'prop_over_exposure',
        field: 'params.collateralUsdc',
        details: {
          scope: 'member',
          openCollateralUsdc: 60,
          maxCollateralUsdc: 100,
          requestedCollateralUsdc: 60,
        },
      })
      // One execute charged, one $60 of desk capital moved.
      expect(usdcA - (await sw.usdcBalance(a.account.address))).toBe(EXECUTE_PRICE)
      expect(deskUsdc - (await sw.usdcBalance(DESK))).toBe(60_000_000n)
      const spareHash = both[0]?.status === 200 ? h2 : h1

      // Another member's $60 would take the desk past its $100: refused, said in the quote first.
      const b60 = await at(60)
      const quoted = await kit.post(b, one.url, '/v1/prop/quote', { actionId: 'trade.open', params: b60 })
      expect((quoted.body.reasons as string[]).join(' ')).toContain('$100 limit')
      const hb = await kit.payFor(sw, b, one.url, 'trade.open', b60)
      const usdcB = await sw.usdcBalance(b.account.address)
      const overDesk = await execute(b, two.url, b60, hb)
      expect(errorOf(overDesk.body)).toMatchObject({
        code: 'prop_over_exposure',
        details: { scope: 'desk', openCollateralUsdc: 60, maxCollateralUsdc: 100 },
      })
      expect(await sw.usdcBalance(b.account.address)).toBe(usdcB)

      // The member closes their position: once the venue has filled the close, the room is back, and the
      // transfers refused before authorize (they were never used).
      const positionId = served?.body.positionId as number
      await sw.world.keeperTick()
      const close = { positionId, expectedPrice: await ethPrice() }
      const closeHash = await kit.payFor(sw, a, one.url, 'trade.close', close)
      const closed = await eventually(async () => {
        const res = await kit.post(a, one.url, '/v1/prop/execute', {
          actionId: 'trade.close',
          params: close,
          payTxHash: closeHash,
        })
        expect(res.status, JSON.stringify(res.body)).toBe(200)
        return res
      })
      expect(closed.body.status).toBe('executed')
      // Queued is not closed: until the venue fills the close, the position holds its room.
      const early = await execute(b, two.url, b60, hb)
      if (early.status !== 200) {
        expect(errorOf(early.body)?.details).toMatchObject({ scope: 'desk', openCollateralUsdc: 60 })
        await sw.world.keeperTick()
        await eventually(async () => {
          const retried = await execute(b, two.url, b60, hb)
          expect(retried.status, JSON.stringify(retried.body)).toBe(200)
        })
      }
      // The desk holds $60 again (b's): a's spare $60 transfer now meets the desk's limit, not a's own.
      const spare = await execute(a, one.url, a60, spareHash)
      expect(errorOf(spare.body)?.details).toMatchObject({ scope: 'desk', openCollateralUsdc: 60 })
    } finally {
      await two.stop()
      await one.stop()
    }
  })
})

describe('prop desk across a restart', () => {
  test('attack: an action left in flight by a stopped instance is reconciled from the chain, never sent again', async () => {
    let offsetMs = 0
    const one = await sw.instance({ PROP_COOLDOWN_SECONDS: '0' }, { clock: () => Date.now() + offsetMs })
    const db = await createDatabase({ databaseUrl: one.config.storage.databaseUrl, dataDir: 'memory://' })
    const book = createPropBook(db)
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    // Half the allotment each: the executed one stays open in the book, and the retry still fits beside it.
    const params = { ...(await openParams()), collateralUsdc: 50 }
    const claim = async (hash: Hex) => {
      const claimed = await book.claim({
        member: member.account.address,
        action: 'trade.open',
        params,
        authTxHash: hash,
        authKind: 'pay',
        utilAmount: 1n,
        plannedSteps: 1,
        cooldownSec: 0,
      })
      if (claimed.kind !== 'claimed') throw new Error(`not claimed: ${claimed.kind}`)
      return claimed.id
    }
    // A: the instance recorded and broadcast its transaction, then stopped before writing the outcome.
    const sentHash = await payFor(member, 'trade.open', params)
    const sent = await claim(sentHash)
    const deskTx = await devnetWallet(sw.chain, devnetPropDesk.privateKey).writeContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'approve',
      args: [DIAMOND, 0n],
    })
    await book.addDeskTx(sent, deskTx)
    await pollReceipt(sw.chain, deskTx, RECEIPT)
    // B: it recorded a transaction and stopped before broadcasting it.
    const lostHash = await payFor(member, 'trade.open', params)
    const lost = await claim(lostHash)
    await book.addDeskTx(lost, keccak256(toHex(`never-sent-${Date.now()}`)))

    // Young rows may still be running on their instance: left alone.
    await one.services.reconcile()
    expect((await book.get(sent))?.status).toBe('submitted')
    offsetMs = 3 * 60 * 1000
    await one.services.reconcile()
    expect(await book.get(sent)).toMatchObject({ status: 'executed', deskTxs: [deskTx] })
    expect((await book.get(lost))?.status).toBe('failed')
    offsetMs = 0 // back to the payer's time: its payments are signed on the wall clock

    const execute = (hash: Hex) =>
      paidFetch(member)(`${one.url}/v1/prop/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ actionId: 'trade.open', params, payTxHash: hash }),
      })
    // The executed action's transfer stays used; the failed one's authorizes a new try.
    const reused = await execute(sentHash)
    expect(reused.status).toBe(422)
    expect(errorOf(await reused.json())?.details?.reason).toBe('used')
    expect((await execute(lostHash)).status).toBe(200)
    await db.close()
    await one.stop()
  })
})
