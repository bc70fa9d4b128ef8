import type { PaymentRequired } from '@x402/core/types'
import { describe, expect, test } from 'vitest'
import { useMcpClient } from '../helpers/mcpKit.js'
import { encodePayment, payer, useInstance, useWorld } from '../helpers/serviceWorld.js'

// Attacks on the MCP payment path: it shares the HTTP gates, so one authorization is one call whichever
// interface carries it, and garbage in `_meta` is a refusal, never a crash or a charge.
const sw = useWorld()
const svc = useInstance(sw)

const mcp = useMcpClient(svc, 'agentdesk-attacks')

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] }
const call = async (args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await mcp().callTool({
    name: 'getPrices',
    arguments: args,
    ...(meta === undefined ? {} : { _meta: meta }),
  })) as unknown as Result

describe('MCP payment attacks', () => {
  test('attack: one authorization sent over HTTP and MCP at once, 20 copies, is served once and moves USDC once', async () => {
    const who = payer(6)
    const unpaid = await call({ symbols: 'BTC' })
    const payload = await who.client.createPaymentPayload(
      unpaid.structuredContent as unknown as PaymentRequired,
    )
    const before = await sw.usdcBalance(who.account.address)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? call({ symbols: 'BTC' }, { 'x402/payment': payload }).then((r) => !r.isError)
          : fetch(`${svc.url}/v1/prices?symbols=BTC`, {
              headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) },
            }).then(async (r) => {
              await r.body?.cancel()
              return r.status === 200
            }),
      ),
    )
    expect(answers.filter(Boolean)).toHaveLength(1)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - 1_000n)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(1)
  })

  test('attack: garbage in _meta["x402/payment"] is an isError refusal, never an internal error, and charges nothing', async () => {
    const who = payer(7)
    const before = await sw.usdcBalance(who.account.address)
    for (const garbage of [
      'not a payload',
      42,
      [1, 2, 3],
      { x402Version: 2 },
      { accepted: 'x', payload: null },
    ]) {
      const result = await call({ symbols: 'ETH' }, { 'x402/payment': garbage })
      expect(result.isError, JSON.stringify(garbage)).toBe(true)
      expect(result.content[0]?.text).not.toContain('internal_error')
      expect(result.structuredContent).toMatchObject({ x402Version: 2 })
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
  })

  test('attack: a payment signed for one price is refused on a pricier tool and moves nothing', async () => {
    const who = payer(8)
    const unpaid = await call({ symbols: 'ETH' })
    const payload = await who.client.createPaymentPayload(
      unpaid.structuredContent as unknown as PaymentRequired,
    )
    const before = await sw.usdcBalance(who.account.address)
    const pricier = (await mcp().callTool({
      name: 'buildBurn',
      arguments: { amount: '1000000000000000000', owner: who.account.address },
      _meta: { 'x402/payment': payload },
    })) as unknown as Result
    expect(pricier.isError).toBe(true)
    expect(String(pricier.structuredContent?.error)).toMatch(/^payment_/)
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
  })
})
