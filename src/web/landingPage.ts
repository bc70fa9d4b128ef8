import type { Config } from '../config.js'
import type { Route } from '../routes/route.js'
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../routes/shared/catalog.js'
import { routeSchemas } from '../routes/shared/routeSchemas.js'
import { esc, page } from './html.js'

/** One endpoint's example request, as a curl line an agent developer can paste. */
function exampleOf(route: Route, base: string): string {
  const example = route.example
  if (example === undefined) return ''
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    String((example.params as Record<string, unknown> | undefined)?.[name] ?? `{${name}}`),
  )
  const query = new URLSearchParams(example.query ?? {}).toString()
  const url = `${base}${path}${query === '' ? '' : `?${query}`}`
  return route.method === 'POST'
    ? `curl -X POST '${url}' -H 'content-type: application/json' -d '${JSON.stringify(example.body)}'`
    : `curl '${url}'`
}

/**
 * `/`: what the service is, how paying works, every endpoint of the route table (price, parameters, an
 * example), and a quick start over HTTP, MCP and the CLI. Generated from the table, so it cannot drift.
 */
export function landingPage(routes: readonly Route[], config: Config): string {
  const base = config.publicUrl
  const rows = routes
    .map((route) => {
      const { parameters, body } = routeSchemas(route)
      const inputs = [
        ...parameters.map((p) => `${p.name}${p.required ? '' : '?'}`),
        ...Object.keys((body?.properties ?? {}) as Record<string, unknown>),
      ]
      const example = exampleOf(route, base)
      return `<tr id="${esc(route.id)}"><td><code>${route.method} ${esc(route.path)}</code><br>${esc(route.summary)}</td>
<td class="price">${route.priceUsd === null ? 'free' : `$${route.priceUsd}`}</td>
<td>${inputs.map((i) => `<code>${esc(i)}</code>`).join(' ')}</td>
<td>${example === '' ? '' : `<pre>${esc(example)}</pre>`}</td></tr>`
    })
    .join('\n')
  return page(
    `${SERVICE_NAME}: paid market data and calldata for agents on Base`,
    `<h1>${esc(SERVICE_NAME)}</h1>
<p>${esc(SERVICE_DESCRIPTION)}</p>
<h2>How paying works</h2>
<p>No accounts and no API keys: every priced call is paid per request in USDC on Base with
<a href="https://x402.org">x402</a> v2. Call an endpoint; a <code>402</code> answers with the price in
<code>PAYMENT-REQUIRED</code>; sign it with any x402 client and send it again in <code>PAYMENT-SIGNATURE</code>. A
failed call costs nothing. Prepaid UTIL credit pays half price: <a href="/auth.md">/auth.md</a>.</p>
<h2>Quick start</h2>
<p>HTTP, with the official client (<code>@x402/fetch</code>):</p>
<pre>const pay = wrapFetchWithPayment(fetch, new x402Client().register('eip155:8453', new ExactEvmScheme(account)))
const prices = await (await pay('${esc(base)}/v1/prices?symbols=ETH')).json()</pre>
<p>MCP: connect a Streamable HTTP client to <code>${esc(base)}/mcp</code>; priced tools are paid through
<code>_meta["x402/payment"]</code> (<a href="/.well-known/mcp/server-card.json">server card</a>).</p>
<p>CLI: <code>AGENTDESK_PRIVATE_KEY=0x… npx agentdesk call /v1/prices symbols=ETH</code></p>
<p>Documents: <a href="/v1/openapi.json">OpenAPI</a>, <a href="/v1/tools.json">tools</a>,
<a href="/.well-known/x402">x402 discovery</a>, <a href="/llms-full.txt">llms-full.txt</a>.</p>
<h2>Endpoints (${routes.length})</h2>
<table><thead><tr><th>endpoint</th><th>price</th><th>inputs</th><th>example</th></tr></thead><tbody>
${rows}
</tbody></table>`,
  )
}
