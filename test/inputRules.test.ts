import type { PaymentPayload } from '@x402/core/types'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { USDC as USDC_TOKEN } from '../src/chain/network.js'
import {
  challengeOf,
  encodePayment,
  type Instance,
  payer,
  type ServiceWorld,
  signChallenge,
  startServiceWorld,
} from './helpers/serviceWorld.js'

// Issue 9, part 3: input an agent would be better served refusing. Every case is a PAID request signed
// by the official client: the answer is a 400 naming the field, no USDC moves and no ledger row is written.
let sw: ServiceWorld
let svc: Instance

beforeAll(async () => {
  sw = await startServiceWorld()
  svc = await sw.instance()
}, 120_000)
afterAll(async () => {
  await sw?.stop()
})

type Who = ReturnType<typeof payer>
interface Answer {
  status: number
  body: {
    error?: { code: string; message: string; field?: string; details?: Record<string, unknown> }
  } & Record<string, unknown>
  headers: Headers
}

const CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
/** The same address with one letter's case flipped: well-formed hex, wrong EIP-55 checksum. */
const BAD_CHECKSUM = CHECKSUMMED.replace('C5', 'c5')
const WETH = '0x4200000000000000000000000000000000000006'
const MARKET_ID = `0x${'ab'.repeat(32)}`

/** A payment for `path` (GET) or for a POST to it, signed by the official client from the live challenge. */
async function pay(who: Who, path: string, method: 'GET' | 'POST' = 'GET'): Promise<PaymentPayload> {
  const init: RequestInit =
    method === 'POST' ? { method, body: '{}', headers: { 'content-type': 'application/json' } } : {}
  return signChallenge(who, await challengeOf(`${svc.url}${path}`, init))
}

async function send(path: string, payment: PaymentPayload, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { 'PAYMENT-SIGNATURE': encodePayment(payment) }
  const init: RequestInit = { headers }
  if (body !== undefined) {
    headers['content-type'] = 'application/json'
    Object.assign(init, { method: 'POST', body: JSON.stringify(body) })
  }
  const res = await fetch(`${svc.url}${path}`, init)
  return { status: res.status, body: (await res.json()) as Answer['body'], headers: res.headers }
}

/** 400 naming `field`, no receipt, and nothing charged or recorded for `who` since `before`. */
async function expectRefused(res: Answer, field: string, who: Who, before: bigint, code = 'invalid_input') {
  expect(res.status, JSON.stringify(res.body)).toBe(400)
  expect(res.body.error?.code).toBe(code)
  expect(res.body.error?.field).toBe(field)
  expect(res.headers.get('payment-response')).toBeNull()
  expect(await sw.usdcBalance(who.account.address)).toBe(before)
  expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
}

const swapPrice = (q: Record<string, string>) =>
  `/v1/swap/price?${new URLSearchParams({
    fromToken: USDC_TOKEN,
    toToken: WETH,
    fromAmount: '1000000',
    taker: CHECKSUMMED,
    ...q,
  })}`

describe('input rules on paid requests (devnet)', () => {
  test('error: symbols that are all unknown are a 400 unknown_symbol naming symbols; a mix is served with the unknown listed', async () => {
    const who = payer(2)
    const payment = await pay(who, '/v1/prices?symbols=BTC')
    const before = await sw.usdcBalance(who.account.address)

    const alone = await send('/v1/prices?symbols=1e309', payment)
    await expectRefused(alone, 'symbols', who, before, 'unknown_symbol')
    expect(alone.body.error?.message).toMatch(/1E309/)
    expect(alone.body.error?.details).toEqual({ unknown: ['1E309'] })
    await expectRefused(
      await send('/v1/prices?symbols=ZZZ,foo', payment),
      'symbols',
      who,
      before,
      'unknown_symbol',
    )

    // The refusals consumed nothing: the same authorization pays once for a mix of known and unknown.
    const mixed = await send('/v1/prices?symbols=BTC,FOO,EUR', payment)
    expect(mixed.status).toBe(200)
    expect(mixed.headers.get('payment-response')).toBeTruthy()
    const prices = mixed.body.prices as { symbol: string; spot: unknown; perp: unknown }[]
    expect(prices.map((p) => p.symbol)).toEqual(['BTC', 'EUR'])
    expect(mixed.body.unknown).toEqual(['FOO'])
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toMatchObject([
      { status: 'settled', route: 'GET /v1/prices' },
    ])
  })

  test('error: a query key given more than once is a 400 naming it, on every route (ref included)', async () => {
    const who = payer(3)
    const payment = await pay(who, '/v1/prices?symbols=BTC')
    const before = await sw.usdcBalance(who.account.address)

    const junk = await send(`${swapPrice({})}&fromAmount=${encodeURIComponent('!!junk!!')}`, payment)
    await expectRefused(junk, 'fromAmount', who, before)
    expect(junk.body.error?.message).toMatch(/^query field "fromAmount" was given more than once/)
    // Even identical values are refused: the rule is about the key, not the values.
    await expectRefused(await send('/v1/prices?symbols=BTC&symbols=BTC', payment), 'symbols', who, before)
    await expectRefused(
      await send(`/v1/prices?symbols=BTC&ref=${CHECKSUMMED}&ref=${CHECKSUMMED.toLowerCase()}`, payment),
      'ref',
      who,
      before,
    )
    await expectRefused(
      await send('/v1/candles?product=BTC-USD&days=7&days=350', payment),
      'days',
      who,
      before,
    )

    // Given once, the same authorization pays.
    expect((await send('/v1/prices?symbols=BTC', payment)).status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
  })

  test('error: a mixed-case address with a wrong EIP-55 checksum is a 400 naming the field, in path, query and body', async () => {
    const who = payer(4)
    const payment = await pay(who, `/v1/portfolio/${CHECKSUMMED}`)
    const builderPayment = await pay(who, '/v1/tx/loan/borrow', 'POST')
    const before = await sw.usdcBalance(who.account.address)

    const inPath = await send(`/v1/portfolio/${BAD_CHECKSUM}`, payment)
    await expectRefused(inPath, 'address', who, before)
    expect(inPath.body.error?.message).toMatch(/EIP-55 checksum/)
    await expectRefused(await send(swapPrice({ taker: BAD_CHECKSUM }), payment), 'taker', who, before)
    await expectRefused(
      await send(swapPrice({ toToken: USDC_TOKEN.replace('fCD', 'fcd') }), payment),
      'toToken',
      who,
      before,
    )
    const inBody = await send('/v1/tx/loan/borrow', builderPayment, {
      marketId: MARKET_ID,
      assets: '1000000',
      owner: BAD_CHECKSUM,
    })
    await expectRefused(inBody, 'owner', who, before)

    // Correct checksum, all lowercase and all uppercase hex pass validation and are served (each paid once).
    const forms = [CHECKSUMMED, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`]
    for (const ok of forms) {
      const res = await send(`/v1/portfolio/${ok}`, await pay(who, `/v1/portfolio/${ok}`))
      expect(res.status, ok).toBe(200)
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1_000n * BigInt(forms.length))
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(forms.length)
  })

  test('error: atomic amounts with leading zeros, or zero where tokens move, are a 400 naming the field, before the handler', async () => {
    const who = payer(5)
    const payment = await pay(who, swapPrice({}))
    const builderPayment = await pay(who, '/v1/tx/loan/borrow', 'POST')
    const before = await sw.usdcBalance(who.account.address)

    for (const fromAmount of ['00', '0', '01000000']) {
      const res = await send(swapPrice({ fromAmount }), payment)
      await expectRefused(res, 'fromAmount', who, before)
      expect(res.body.error?.message, fromAmount).toMatch(
        /positive integer in the token's smallest unit, without leading zeros/,
      )
    }
    // A builder whose capability is not built yet still validates first: 400 for a bad amount…
    for (const assets of ['0', '00', '007']) {
      const res = await send('/v1/tx/loan/borrow', builderPayment, {
        marketId: MARKET_ID,
        assets,
        owner: CHECKSUMMED,
      })
      await expectRefused(res, 'assets', who, before)
    }
    const burn = await send('/v1/tx/burn', builderPayment, { amount: '0', owner: CHECKSUMMED })
    await expectRefused(burn, 'amount', who, before)
    const deposit = await send('/v1/tx/earn/deposit', builderPayment, {
      vault: CHECKSUMMED,
      assets: '0',
      owner: CHECKSUMMED,
    })
    await expectRefused(deposit, 'assets', who, before)

    // …and only a good one reaches the handler (which refuses this market from the chain's state, 422,
    // never a 400). Zero stays valid where it means something.
    const good = await send('/v1/tx/loan/borrow', builderPayment, {
      marketId: MARKET_ID,
      assets: '1000000',
      owner: CHECKSUMMED,
    })
    expect(good.status).toBe(422)
    const collectOnly = await send('/v1/tx/lp/uni/remove', builderPayment, {
      tokenId: '7',
      liquidity: '0',
      owner: CHECKSUMMED,
    })
    // Position 7 is not the caller's (or does not exist): refused from the chain's state, 422.
    expect(collectOnly.status).toBe(422)
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
    // The well-formed swap price is served, and it alone is charged.
    expect((await send(swapPrice({}), payment)).status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1_000n)
  })
})
