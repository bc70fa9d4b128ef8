import type { PaymentPayload, PaymentRequired } from '@x402/core/types'
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier'
import { describe, expect, test } from 'vitest'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { getPortfolioRoute } from '../../src/routes/portfolio/getPortfolio.js'
import { getPricesRoute } from '../../src/routes/prices/getPrices.js'
import { authorizationUsed, creditOf, transferUtil, utilWallet } from '../helpers/creditKit.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import { useMcpClient } from '../helpers/mcpKit.js'
import { encodePayment, type payerClient, useInstance, useWorld } from '../helpers/serviceWorld.js'

// Attacks on the MCP money path beyond one payload's copies (mcpServer.attacks.test.ts): payment
// identifiers, path parameters from tool arguments, a payment sent to a free tool and the UTIL credit
// rail, each through x402's MCP transport and judged by USDC balances, ledger rows and credit.
const sw = useWorld()
const svc = useInstance(sw)
const PRICES = usdToAtomic(getPricesRoute.priceUsd as number)
const PORTFOLIO = usdToAtomic(getPortfolioRoute.priceUsd as number)

const mcp = useMcpClient(svc, 'agentdesk-rails-attacks')

type Wallet = ReturnType<typeof payerClient>
type Result = {
  isError?: boolean
  structuredContent?: Record<string, unknown>
  content: { text: string }[]
  _meta?: Record<string, unknown>
}
const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await mcp().callTool({ name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) })) as Result

/** The PaymentRequired of an unpaid call, signed by `who`'s official client (with a payment identifier). */
async function payFor(who: Wallet, name: string, args: Record<string, unknown>, id?: string) {
  const unpaid = await call(name, args)
  expect(unpaid.isError).toBe(true)
  const challenge = unpaid.structuredContent as unknown as PaymentRequired
  if (id !== undefined) {
    challenge.extensions ??= {}
    appendPaymentIdentifierToExtensions(challenge.extensions, id)
  }
  return who.client.createPaymentPayload(challenge)
}

const nonceOf = (p: PaymentPayload) =>
  (p.payload as { authorization: { nonce: `0x${string}` } }).authorization.nonce

/** The payer's ledger rows once every outcome is written (just after the answer). */
const settledRows = (wallet: `0x${string}`, count: number) =>
  eventually(async () => {
    const rows = await svc.services.deps.ledger.byPayer(wallet)
    expect(rows.map((r) => r.status)).toEqual(Array.from({ length: count }, () => 'settled'))
    return rows
  })

describe('MCP money path: identifiers, path parameters, free tools, credit', () => {
  test('attack: a payment identifier retried over MCP and HTTP gets the stored answer and is charged once; the same id with other arguments is refused, free', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const id = generatePaymentId()
    const payload = await payFor(who, 'getPrices', { symbols: 'BTC' }, id)
    const meta = { 'x402/payment': payload }

    const first = await call('getPrices', { symbols: 'BTC' }, meta)
    expect(first.isError, first.content[0]?.text).toBeUndefined()
    const retry = await call('getPrices', { symbols: 'BTC' }, meta)
    expect(retry).toEqual(first)
    // The same request over HTTP (GET /v1/prices?symbols=BTC) is the same call: its stored answer.
    const overHttp = await fetch(`${svc.url}/v1/prices?symbols=BTC`, {
      headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) },
    })
    expect(overHttp.status).toBe(200)
    expect(await overHttp.json()).toEqual(first.structuredContent)

    const other = await call('getPrices', { symbols: 'ETH' }, meta)
    expect(other.isError).toBe(true)
    expect(errorOf(other.structuredContent)).toMatchObject({ code: 'payment_identifier_conflict' })
    expect(other.content[0]?.text).not.toContain('"prices"')

    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - PRICES)
    await settledRows(who.account.address, 1)
  })

  test("attack: a path argument carrying '/', '?' or '..' is validated as over HTTP, charges nothing, and leaves the authorization usable", async () => {
    const who = await sw.freshWallet(1_000_000n)
    const payload = await payFor(who, 'getPortfolio', { address: who.account.address })
    for (const address of [
      '../prices?symbols=BTC',
      `${who.account.address}/../../prices`,
      `${who.account.address}?ref=${who.account.address}`,
      { toString: 'x' },
    ]) {
      const refused = await call('getPortfolio', { address }, { 'x402/payment': payload })
      expect(refused.isError, JSON.stringify(address)).toBe(true)
      expect(errorOf(refused.structuredContent), refused.content[0]?.text).toMatchObject({
        code: 'invalid_input',
        field: 'address',
      })
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    expect(await authorizationUsed(sw.chain, who.account.address, nonceOf(payload))).toBe(false)

    // Nothing was taken: the same authorization pays the well-formed call, once.
    const served = await call('getPortfolio', { address: who.account.address }, { 'x402/payment': payload })
    expect(served.isError, served.content[0]?.text).toBeUndefined()
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - PORTFOLIO)
    await settledRows(who.account.address, 1)
  })

  test('attack: a valid payment sent to a free tool is ignored: nothing charged, and it still pays its own tool once', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const payload = await payFor(who, 'getPrices', { symbols: 'ETH' })
    const free = await call('getUtilCredit', { wallet: who.account.address }, { 'x402/payment': payload })
    expect(free.isError, free.content[0]?.text).toBeUndefined()
    expect(free._meta?.['x402/payment-response']).toBeUndefined()
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toEqual([])

    expect((await call('getPrices', { symbols: 'ETH' }, { 'x402/payment': payload })).isError).toBeUndefined()
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - PRICES)
    await settledRows(who.account.address, 1)
  })

  test('attack: a UTIL top-up through _meta is credited once, debits half price, moves no USDC; the hash again and the payload again change nothing', async () => {
    const UTIL_1M = 10n ** 24n
    const w = await utilWallet(sw, 1_000_000n, UTIL_1M)
    const hash = await transferUtil(sw.chain, w.privateKey, svc.config.payments.creditRecipient, UTIL_1M)
    const payload = await payFor(w, 'getPrices', { symbols: 'ETH' })

    const first = await call(
      'getPrices',
      { symbols: 'ETH' },
      { 'x402/payment': payload, 'x402/util-topup': hash },
    )
    expect(first.isError, first.content[0]?.text).toBeUndefined()
    expect(first._meta?.['x402/payment-response']).toMatchObject({ success: true, amount: '0' })
    const statement = await creditOf(svc.url, w.account.address)
    expect(statement.topUps).toHaveLength(1)
    const credited = BigInt(Math.round((statement.topUps[0]?.creditedUsd as number) * 1e6))
    expect(BigInt(statement.balanceAtomic)).toBe(credited - PRICES / 2n)

    // The same payload again (a replay, over MCP and over HTTP) and the same hash on a new payload.
    const replayed = await call('getPrices', { symbols: 'ETH' }, { 'x402/payment': payload })
    expect(replayed.isError).toBe(true)
    const overHttp = await fetch(`${svc.url}/v1/prices?symbols=ETH`, {
      headers: { 'PAYMENT-SIGNATURE': encodePayment(payload), 'X-UTIL-TOPUP': hash },
    })
    expect(overHttp.status).toBe(402)
    await overHttp.body?.cancel()
    const again = await payFor(w, 'getPrices', { symbols: 'ETH' })
    const reused = await call(
      'getPrices',
      { symbols: 'ETH' },
      { 'x402/payment': again, 'x402/util-topup': hash },
    )
    expect(reused.isError).toBe(true)
    expect(errorOf(reused.structuredContent)).toMatchObject({ code: 'topup_used' })

    const after = await creditOf(svc.url, w.account.address)
    expect(after.topUps).toHaveLength(1)
    expect(BigInt(after.balanceAtomic)).toBe(credited - PRICES / 2n)
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n)
    expect(await authorizationUsed(sw.chain, w.account.address, nonceOf(payload))).toBe(false)
  })
})
