import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types'
import { type DiscoveryExtension, validateDiscoveryExtension } from '@x402/extensions/bazaar'
import { erc20Abi } from 'viem'
import { describe, expect, test } from 'vitest'
import type { BuilderEnvelope } from '../../src/builders/txStep.js'
import { DEAD_ADDRESS, DEVNET_UTIL_TOKEN } from '../../src/chain/addresses.js'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { getPricesRoute } from '../../src/routes/prices/getPrices.js'
import { buildBurnRoute } from '../../src/routes/tx/buildBurn.js'
import { broadcast, ownerWallet } from '../helpers/builderCalls.js'
import { useMcpClient } from '../helpers/mcpKit.js'
import { payer, useInstance, useWorld } from '../helpers/serviceWorld.js'

// The MCP server at /mcp (issue 26) with the official MCP SDK client, paid through x402's MCP transport
// (`_meta["x402/payment"]`) with payloads the official x402 client signs.
const sw = useWorld()
const svc = useInstance(sw)

const mcp = useMcpClient(svc, 'agentdesk-test')

type Result = Awaited<ReturnType<Client['callTool']>> & {
  structuredContent?: Record<string, unknown>
  _meta?: Record<string, unknown>
  content: { type: string; text: string }[]
}
const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  (await mcp().callTool({ name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) })) as Result

/** The x402 PaymentRequired an unpaid priced call answers, signed by a demo account's official client. */
async function payFor(name: string, args: Record<string, unknown>, index: number): Promise<PaymentPayload> {
  const unpaid = await call(name, args)
  expect(unpaid.isError).toBe(true)
  return payer(index).client.createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired)
}

describe('MCP server', () => {
  test('behavior: tools/list has every tool of /v1/tools.json, with its schema and annotations', async () => {
    const { tools } = await mcp().listTools()
    const http = (await (await fetch(`${svc.url}/v1/tools.json`)).json()) as {
      tools: { name: string; inputSchema: unknown }[]
    }
    expect(tools.map((t) => t.name).sort()).toEqual(http.tools.map((t) => t.name).sort())
    const prices = tools.find((t) => t.name === 'getPrices')
    expect(prices?.inputSchema).toEqual(http.tools.find((t) => t.name === 'getPrices')?.inputSchema)
    expect(prices?.annotations).toMatchObject({ readOnlyHint: true })
    expect(tools.find((t) => t.name === 'buildSwap')?.annotations?.readOnlyHint).toBe(true)
    expect(tools.find((t) => t.name === 'propExecute')?.annotations?.readOnlyHint).toBe(false)
    const card = (await (await fetch(`${svc.url}/.well-known/mcp/server-card.json`)).json()) as {
      remotes: { type: string; url: string }[]
    }
    expect(card.remotes).toEqual([{ type: 'streamable-http', url: expect.stringMatching(/\/mcp$/) }])
  })

  test('behavior: a free tool answers directly', async () => {
    const result = await call('getCatalog', {})
    expect(result.isError).toBeFalsy()
    const catalog = JSON.parse(result.content[0]?.text ?? '{}') as { endpoints: unknown[] }
    expect(catalog.endpoints.length).toBeGreaterThan(40)
    expect(result.structuredContent).toEqual(catalog)
  })

  test('behavior: a priced tool unpaid is an isError PaymentRequired for mcp://tool/<name>; paid through _meta it moves USDC once and returns the receipt; the same payload again is refused', async () => {
    const unpaid = await call('getPrices', { symbols: 'ETH' })
    expect(unpaid.isError).toBe(true)
    const required = unpaid.structuredContent as unknown as PaymentRequired
    expect(required.x402Version).toBe(2)
    expect(required.resource.url).toBe('mcp://tool/getPrices')
    expect(JSON.parse(unpaid.content[0]?.text ?? '{}')).toEqual(unpaid.structuredContent)
    expect(required.accepts[0]).toMatchObject({ scheme: 'exact', amount: '1000' })
    // The MCP form of bazaar, valid for the official package.
    const bazaar = required.extensions?.bazaar as DiscoveryExtension
    expect(validateDiscoveryExtension(bazaar)).toMatchObject({ valid: true })
    expect(bazaar.info.input).toMatchObject({ type: 'mcp', toolName: 'getPrices' })

    const who = payer(3)
    const payload = await who.client.createPaymentPayload(required)
    const before = await sw.usdcBalance(who.account.address)
    const paid = await call('getPrices', { symbols: 'ETH' }, { 'x402/payment': payload })
    expect(paid.isError, paid.content[0]?.text).toBeFalsy()
    expect((paid.structuredContent as { prices: unknown[] }).prices).toHaveLength(1)
    const receipt = paid._meta?.['x402/payment-response'] as SettleResponse
    expect(receipt).toMatchObject({ success: true, payer: who.account.address })
    const mined = await sw.chain.getTransactionReceipt({ hash: receipt.transaction as `0x${string}` })
    expect(mined.status).toBe('success')
    const price = usdToAtomic(getPricesRoute.priceUsd as number)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - price)

    const replayed = await call('getPrices', { symbols: 'ETH' }, { 'x402/payment': payload })
    expect(replayed.isError).toBe(true)
    expect(replayed.structuredContent).toMatchObject({ error: 'payment_replayed' })
    // The content withheld: the result is the PaymentRequired, not the data.
    expect(replayed.structuredContent).not.toHaveProperty('prices')
    expect(JSON.parse(replayed.content[0]?.text ?? '{}')).toEqual(replayed.structuredContent)
    expect(await sw.usdcBalance(who.account.address)).toBe(before - price)
  })

  test('behavior: bad input to a paid tool is an isError naming the field, and charges nothing', async () => {
    const payload = await payFor('getCandles', { product: 'BTC-USD', days: 7 }, 4)
    const who = payer(4)
    const before = await sw.usdcBalance(who.account.address)
    const bad = await call('getCandles', { product: 'BTC-USD', days: 999 }, { 'x402/payment': payload })
    expect(bad.isError).toBe(true)
    expect(bad.structuredContent).toMatchObject({ error: { code: 'invalid_input', field: 'days' } })
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
  })

  test('behavior: a builder tool’s steps, paid through MCP, broadcast and execute onchain', async () => {
    const owner = ownerWallet(sw, 1)
    const amount = 10n ** 18n
    const args = { amount: amount.toString(), owner: owner.account.address }
    const payload = await payFor('buildBurn', args, 5)
    const who = payer(5)
    const before = await sw.usdcBalance(who.account.address)
    const built = await call('buildBurn', args, { 'x402/payment': payload })
    expect(built.isError, built.content[0]?.text).toBeFalsy()
    expect(await sw.usdcBalance(who.account.address)).toBe(
      before - usdToAtomic(buildBurnRoute.priceUsd as number),
    )
    const dead = () =>
      sw.chain.readContract({
        address: DEVNET_UTIL_TOKEN,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [DEAD_ADDRESS],
      })
    const burned = await dead()
    await broadcast(sw.chain, owner, built.structuredContent as unknown as BuilderEnvelope<unknown>)
    expect(await dead()).toBe(burned + amount)
  })
})
