import { decodePaymentResponseHeader } from '@x402/core/http'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { privateKeyToAccount } from 'viem/accounts'
import { demoAccounts } from '../src/devnet/devnetAccounts.js'

/**
 * `npm run demo`: an agent's first minutes against a running `npm start` (default http://127.0.0.1:8402,
 * or AGENTDESK_URL). It discovers the API from the catalog and the tool manifest, reads a 402
 * challenge, then pays for prices and candles with the official @x402/fetch client from devnet demo
 * account #2 (DEMO_PRIVATE_KEY overrides) and prints the receipts. Broadcasting a built transaction
 * joins this script when the builders land.
 */
const base = (process.env.AGENTDESK_URL ?? 'http://127.0.0.1:8402').replace(/\/+$/, '')

interface CatalogEndpoint {
  method: string
  path: string
  priceUsd: number | null
  tier: string
  summary: string
}

async function main(): Promise<void> {
  const ready = await fetch(`${base}/ready`).catch(() => undefined)
  if (!ready) throw new Error(`nothing answers at ${base}: start the service with npm start first`)
  console.log(`ready: ${ready.status} ${JSON.stringify(await ready.json())}`)

  const catalog = (await (await fetch(`${base}/v1`)).json()) as {
    name: string
    network: string
    payment: { asset: string; payTo: string }
    endpoints: CatalogEndpoint[]
  }
  console.log(`catalog: ${catalog.name} on ${catalog.network}, ${catalog.endpoints.length} endpoints`)
  const byTier = new Map<string, number>()
  for (const e of catalog.endpoints) byTier.set(e.tier, (byTier.get(e.tier) ?? 0) + 1)
  console.log(`  by tier: ${[...byTier].map(([t, n]) => `${t} ${n}`).join(', ')}`)
  console.log(`  payment: USDC ${catalog.payment.asset} to ${catalog.payment.payTo}`)

  const { tools } = (await (await fetch(`${base}/v1/tools.json`)).json()) as { tools: { name: string }[] }
  console.log(
    `tools.json: ${tools.length} tools, e.g. ${tools
      .slice(0, 4)
      .map((t) => t.name)
      .join(', ')}`,
  )

  const unpaid = await fetch(`${base}/v1/prices?symbols=BTC,ETH`)
  const challenge = (await unpaid.json()) as { accepts: { amount: string; payTo: string }[] }
  console.log(
    `GET /v1/prices unpaid → ${unpaid.status}: pay ${challenge.accepts[0]?.amount} atomic USDC to ${challenge.accepts[0]?.payTo}`,
  )

  const key = (process.env.DEMO_PRIVATE_KEY ?? demoAccounts[2]?.privateKey) as `0x${string}`
  const account = privateKeyToAccount(key)
  const pay = wrapFetchWithPayment(
    fetch,
    new x402Client().register('eip155:8453', new ExactEvmScheme(account)),
  )
  for (const path of ['/v1/prices?symbols=BTC,ETH,EUR', '/v1/candles?product=ETH-USD&days=2']) {
    const res = await pay(`${base}${path}`)
    const receiptHeader = res.headers.get('payment-response')
    const receipt = receiptHeader ? decodePaymentResponseHeader(receiptHeader) : undefined
    console.log(`GET ${path} paid by ${account.address} → ${res.status}`)
    console.log(`  receipt: ${JSON.stringify(receipt)}`)
    console.log(`  body: ${JSON.stringify(await res.json()).slice(0, 300)}…`)
  }

  // Bad input with a payment attached: a 400 naming the field, and no settlement.
  const bad = await pay(`${base}/v1/candles?product=BTC-USD&days=400`)
  console.log(
    `GET /v1/candles?days=400 paid → ${bad.status} ${JSON.stringify(await bad.json())}; receipt: ${bad.headers.get('payment-response') ?? 'none (nothing charged)'}`,
  )
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
