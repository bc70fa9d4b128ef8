import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { PaymentRequired } from '@x402/core/types'
import { afterEach, describe, expect, test } from 'vitest'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { getPricesRoute } from '../../src/routes/prices/getPrices.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The unpaid ceiling over MCP (issue 26): one instance with a tiny RATE_LIMIT_UNPAID behind one trusted
// proxy, so each test is its own client by its X-Forwarded-For. Over HTTP the ceiling counts unpaid
// requests and never a paid one (docs/payments.md#rate-limits); MCP must count the same calls the same way.
const UNPAID = 5
const sw = useWorld()
const svc = useInstance(sw, { RATE_LIMIT_UNPAID: String(UNPAID), TRUST_PROXY: 'true' })
const PRICE = usdToAtomic(getPricesRoute.priceUsd as number)

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] }

const clients: Client[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => {})
})

/** The official MCP client, seen by the service as `ip` (the entry its trusted proxy appended). */
async function mcpClient(ip: string): Promise<Client> {
  const client = new Client({ name: 'agentdesk-limits', version: '1.0.0' })
  clients.push(client)
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), {
      requestInit: { headers: { 'x-forwarded-for': ip } },
    }),
  )
  return client
}

const callOf = (client: Client) => async (args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await client.callTool({
    name: 'getPrices',
    arguments: args,
    ...(meta === undefined ? {} : { _meta: meta }),
  })) as unknown as Result

/** A JSON-RPC batch in one POST to /mcp, from client `ip`; its answers as a list. */
async function postBatch(batch: unknown[], ip: string): Promise<{ result?: Result }[]> {
  const res = await fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-03-26',
      'x-forwarded-for': ip,
    },
    body: JSON.stringify(batch),
  })
  const answers = (await res.json()) as { result?: Result }[] | { result?: Result }
  return Array.isArray(answers) ? answers : [answers]
}

/** Whether a tool result is an x402 PaymentRequired (the unpaid answer of a priced tool). */
const isChallenge = (r: { result?: Result }) => Array.isArray(r.result?.structuredContent?.accepts)

describe('MCP unpaid ceiling', () => {
  test('attack: an unpaid flood from one client stops at RATE_LIMIT_UNPAID with a clear 429 naming rate_limited, not a crash', async () => {
    const call = callOf(await mcpClient('198.51.100.1'))
    const outcomes: string[] = []
    for (let i = 0; i < UNPAID + 3; i++) {
      outcomes.push(
        await call({ symbols: 'BTC' }).then(
          (r) => (Array.isArray(r.structuredContent?.accepts) ? 'challenge' : `other:${r.content[0]?.text}`),
          (err: unknown) => `thrown:${String(err)}`,
        ),
      )
    }
    // Connecting spends some of the ceiling too: some challenges, then only refusals that say why.
    const refused = outcomes.filter((o) => o !== 'challenge')
    expect(outcomes[0]).toBe('challenge')
    expect(refused.length).toBeGreaterThanOrEqual(3)
    for (const o of refused) expect(o).toMatch(/429|rate_limited/)
  })

  test('attack: a JSON-RPC batch of 50 unpaid tools/call in one POST counts as 50 unpaid calls, not one', async () => {
    // The SDK's server transport takes a batch of up to 100 messages (protocol 2025-03-26); the HTTP layer
    // counts the POST once. Each message is a call: a challenge signed (a quote) or a free tool run.
    const batch = Array.from({ length: 50 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'getPrices', arguments: { symbols: 'BTC' } },
    }))
    const list = await postBatch(batch, '198.51.100.2')
    // However the server refuses the excess (per message, or the batch), no more than the ceiling is served.
    expect(list.filter(isChallenge).length).toBeLessThanOrEqual(UNPAID)
  })

  test('attack: a payment of null, an empty string or a number in _meta is no payment: each call counts against the unpaid ceiling, one by one and in a batch', async () => {
    // The outside review (issue 37 item 5): 60 challenges past a ceiling of 20 with `x402/payment: null`,
    // and 30 in one batch, where the control (no _meta) got 429 after 20.
    for (const [n, payment] of [null, '', 0].entries()) {
      const call = callOf(await mcpClient(`198.51.100.${20 + n}`))
      const outcomes: string[] = []
      for (let i = 0; i < UNPAID + 3; i++) {
        outcomes.push(
          await call({ symbols: 'BTC' }, { 'x402/payment': payment }).then(
            (r) =>
              Array.isArray(r.structuredContent?.accepts) ? 'challenge' : `other:${r.content[0]?.text}`,
            (err: unknown) => `thrown:${String(err)}`,
          ),
        )
      }
      expect(outcomes.filter((o) => o === 'challenge').length, JSON.stringify(payment)).toBeLessThan(UNPAID)
      for (const o of outcomes.filter((o) => o !== 'challenge')) expect(o).toMatch(/429|rate_limited/)
    }
    const batch = Array.from({ length: 30 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'getPrices', arguments: { symbols: 'BTC' }, _meta: { 'x402/payment': null } },
    }))
    const list = await postBatch(batch, '198.51.100.30')
    expect(list.filter(isChallenge).length).toBeLessThanOrEqual(UNPAID)
  })

  test('attack: a paying MCP client is not throttled by the unpaid ceiling: 2x RATE_LIMIT_UNPAID paid calls are all served and each charged once', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const call = callOf(await mcpClient('198.51.100.3'))
    const unpaid = await call({ symbols: 'ETH' })
    const challenge = unpaid.structuredContent as unknown as PaymentRequired
    const served: boolean[] = []
    for (let i = 0; i < 2 * UNPAID; i++) {
      // A fresh authorization each time (a new nonce), as an agent pays call after call.
      const payload = await who.client.createPaymentPayload(challenge)
      served.push(
        await call({ symbols: 'ETH' }, { 'x402/payment': payload }).then(
          (r) => r.isError !== true,
          () => false,
        ),
      )
    }
    // Over HTTP the same paid calls never touch the unpaid ceiling (docs/payments.md#rate-limits).
    expect(served).toEqual(Array.from({ length: 2 * UNPAID }, () => true))
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - BigInt(2 * UNPAID) * PRICE)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(2 * UNPAID)
  })
})
