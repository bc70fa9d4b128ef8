import type { PaymentPayload } from '@x402/core/types'
import { describe, expect, test } from 'vitest'
import { USDC as USDC_TOKEN } from '../src/chain/network.js'
import { pay } from './helpers/attackKit.js'
import { expectRefused } from './helpers/expectRefused.js'
import { challengeOf, payer, signChallenge, useInstance, useWorld } from './helpers/serviceWorld.js'

// Issue 9, part 3: input an agent would be better served refusing. Every case is a PAID request signed
// by the official client: the answer is a 400 naming the field, no USDC moves and no ledger row is written.
const sw = useWorld()
const svc = useInstance(sw)

type Who = ReturnType<typeof payer>

const CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
/** The same address with one letter's case flipped: well-formed hex, wrong EIP-55 checksum. */
const BAD_CHECKSUM = CHECKSUMMED.replace('C5', 'c5')
const WETH = '0x4200000000000000000000000000000000000006'
const MARKET_ID = `0x${'ab'.repeat(32)}`

/** A payment for `path` (GET) or for a POST to it, signed by the official client from the live challenge. */
async function signFor(who: Who, path: string, method: 'GET' | 'POST' = 'GET'): Promise<PaymentPayload> {
  const init: RequestInit =
    method === 'POST' ? { method, body: '{}', headers: { 'content-type': 'application/json' } } : {}
  return signChallenge(who, await challengeOf(`${svc.url}${path}`, init))
}

/** A paid GET of `path`, or a paid JSON POST of `body` to it. */
const sendPaid = (path: string, payment: PaymentPayload, body?: unknown) =>
  body === undefined
    ? pay(`${svc.url}${path}`, payment)
    : pay(
        `${svc.url}${path}`,
        payment,
        { 'content-type': 'application/json' },
        { method: 'POST', body: JSON.stringify(body) },
      )

/** Nothing charged or recorded for `who` since `before` (its USDC, its ledger rows). */
const paidNothing = (who: Who, before: bigint) => [
  { read: () => sw.usdcBalance(who.account.address), before },
  { read: () => svc.services.deps.ledger.byPayer(who.account.address), before: [] },
]

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
    const payment = await signFor(who, '/v1/prices?symbols=BTC')
    const before = await sw.usdcBalance(who.account.address)

    const alone = await sendPaid('/v1/prices?symbols=1e309', payment)
    await expectRefused(alone, {
      status: 400,
      code: 'unknown_symbol',
      field: 'symbols',
      untouched: paidNothing(who, before),
    })
    expect(alone.body.error?.message).toMatch(/1E309/)
    expect(alone.body.error?.details).toEqual({ unknown: ['1E309'] })
    await expectRefused(await sendPaid('/v1/prices?symbols=ZZZ,foo', payment), {
      status: 400,
      code: 'unknown_symbol',
      field: 'symbols',
      untouched: paidNothing(who, before),
    })

    // The refusals consumed nothing: the same authorization pays once for a mix of known and unknown.
    const mixed = await sendPaid('/v1/prices?symbols=BTC,FOO,EUR', payment)
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
    const payment = await signFor(who, '/v1/prices?symbols=BTC')
    const before = await sw.usdcBalance(who.account.address)

    const junk = await sendPaid(`${swapPrice({})}&fromAmount=${encodeURIComponent('!!junk!!')}`, payment)
    await expectRefused(junk, {
      status: 400,
      code: 'invalid_input',
      field: 'fromAmount',
      untouched: paidNothing(who, before),
    })
    expect(junk.body.error?.message).toMatch(/^query field "fromAmount" was given more than once/)
    // Even identical values are refused: the rule is about the key, not the values.
    await expectRefused(await sendPaid('/v1/prices?symbols=BTC&symbols=BTC', payment), {
      status: 400,
      code: 'invalid_input',
      field: 'symbols',
      untouched: paidNothing(who, before),
    })
    await expectRefused(
      await sendPaid(`/v1/prices?symbols=BTC&ref=${CHECKSUMMED}&ref=${CHECKSUMMED.toLowerCase()}`, payment),
      { status: 400, code: 'invalid_input', field: 'ref', untouched: paidNothing(who, before) },
    )
    await expectRefused(await sendPaid('/v1/candles?product=BTC-USD&days=7&days=350', payment), {
      status: 400,
      code: 'invalid_input',
      field: 'days',
      untouched: paidNothing(who, before),
    })

    // Given once, the same authorization pays.
    expect((await sendPaid('/v1/prices?symbols=BTC', payment)).status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1000n)
  })

  test('error: a mixed-case address with a wrong EIP-55 checksum is a 400 naming the field, in path, query and body', async () => {
    const who = payer(4)
    const payment = await signFor(who, `/v1/portfolio/${CHECKSUMMED}`)
    const builderPayment = await signFor(who, '/v1/tx/loan/borrow', 'POST')
    const before = await sw.usdcBalance(who.account.address)

    const inPath = await sendPaid(`/v1/portfolio/${BAD_CHECKSUM}`, payment)
    await expectRefused(inPath, {
      status: 400,
      code: 'invalid_input',
      field: 'address',
      untouched: paidNothing(who, before),
    })
    expect(inPath.body.error?.message).toMatch(/EIP-55 checksum/)
    await expectRefused(await sendPaid(swapPrice({ taker: BAD_CHECKSUM }), payment), {
      status: 400,
      code: 'invalid_input',
      field: 'taker',
      untouched: paidNothing(who, before),
    })
    await expectRefused(await sendPaid(swapPrice({ toToken: USDC_TOKEN.replace('fCD', 'fcd') }), payment), {
      status: 400,
      code: 'invalid_input',
      field: 'toToken',
      untouched: paidNothing(who, before),
    })
    const inBody = await sendPaid('/v1/tx/loan/borrow', builderPayment, {
      marketId: MARKET_ID,
      assets: '1000000',
      owner: BAD_CHECKSUM,
    })
    await expectRefused(inBody, {
      status: 400,
      code: 'invalid_input',
      field: 'owner',
      untouched: paidNothing(who, before),
    })

    // Correct checksum, all lowercase and all uppercase hex pass validation and are served (each paid once).
    const forms = [CHECKSUMMED, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`]
    for (const ok of forms) {
      const res = await sendPaid(`/v1/portfolio/${ok}`, await signFor(who, `/v1/portfolio/${ok}`))
      expect(res.status, ok).toBe(200)
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1_000n * BigInt(forms.length))
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(forms.length)
  })

  test('error: atomic amounts with leading zeros, or zero where tokens move, are a 400 naming the field, before the handler', async () => {
    const who = payer(5)
    const payment = await signFor(who, swapPrice({}))
    const builderPayment = await signFor(who, '/v1/tx/loan/borrow', 'POST')
    const before = await sw.usdcBalance(who.account.address)

    for (const fromAmount of ['00', '0', '01000000']) {
      const res = await sendPaid(swapPrice({ fromAmount }), payment)
      await expectRefused(res, {
        status: 400,
        code: 'invalid_input',
        field: 'fromAmount',
        untouched: paidNothing(who, before),
      })
      expect(res.body.error?.message, fromAmount).toMatch(
        /positive integer in the token's smallest unit, without leading zeros/,
      )
    }
    // A builder whose capability is not built yet still validates first: 400 for a bad amount…
    for (const assets of ['0', '00', '007']) {
      const res = await sendPaid('/v1/tx/loan/borrow', builderPayment, {
        marketId: MARKET_ID,
        assets,
        owner: CHECKSUMMED,
      })
      await expectRefused(res, {
        status: 400,
        code: 'invalid_input',
        field: 'assets',
        untouched: paidNothing(who, before),
      })
    }
    const burn = await sendPaid('/v1/tx/burn', builderPayment, { amount: '0', owner: CHECKSUMMED })
    await expectRefused(burn, {
      status: 400,
      code: 'invalid_input',
      field: 'amount',
      untouched: paidNothing(who, before),
    })
    const deposit = await sendPaid('/v1/tx/earn/deposit', builderPayment, {
      vault: CHECKSUMMED,
      assets: '0',
      owner: CHECKSUMMED,
    })
    await expectRefused(deposit, {
      status: 400,
      code: 'invalid_input',
      field: 'assets',
      untouched: paidNothing(who, before),
    })

    // …and only a good one reaches the handler (which refuses this market from the chain's state, 422,
    // never a 400). Zero stays valid where it means something.
    const good = await sendPaid('/v1/tx/loan/borrow', builderPayment, {
      marketId: MARKET_ID,
      assets: '1000000',
      owner: CHECKSUMMED,
    })
    expect(good.status).toBe(422)
    const collectOnly = await sendPaid('/v1/tx/lp/uni/remove', builderPayment, {
      tokenId: '7',
      liquidity: '0',
      owner: CHECKSUMMED,
    })
    // Position 7 is not the caller's (or does not exist): refused from the chain's state, 422.
    expect(collectOnly.status).toBe(422)
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
    // The well-formed swap price is served, and it alone is charged.
    expect((await sendPaid(swapPrice({}), payment)).status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1_000n)
  })
})
