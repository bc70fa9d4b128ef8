/**
 * `npm run demo`: an agent's first minutes against a running `npm start` (default http://127.0.0.1:8402,
 * or AGENTDESK_URL). It discovers the API from the catalog and the tool manifest, then tries a priced
 * call and reports what the service answered. Paying with @x402/fetch and broadcasting a built
 * transaction join this script when the payment gate and the builders land.
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

  const res = await fetch(`${base}/v1/prices?symbols=BTC,ETH`)
  const body = (await res.json()) as { error?: { code: string; message: string } }
  console.log(
    `GET /v1/prices → ${res.status}${body.error ? ` ${body.error.code}: ${body.error.message}` : ''}`,
  )
  if (res.status === 501)
    console.log('  (the payment gate and market reads are not built yet: nothing was charged)')

  const bad = await fetch(`${base}/v1/candles?product=BTC-USD&days=400`)
  console.log(`GET /v1/candles?days=400 → ${bad.status} ${JSON.stringify(await bad.json())}`)
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
