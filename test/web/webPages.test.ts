import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { wrapFetchWithPayment } from '@x402/fetch'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { PROJECT_ROOT } from '../../src/projectRoot.js'
import { routeTable } from '../../src/routes/table.js'
import { launchChromium } from '../helpers/browser.js'
import { payer, useInstance, useWorld } from '../helpers/serviceWorld.js'

// The web pages in a real browser (headless Chromium from the npm registry, or CHROMIUM_PATH's, through
// playwright-core; test/helpers/browser.ts): the landing page from the
// route table, and the operator's dashboard behind OPS_TOKEN with its chart. SCREENSHOT_DIR set (e.g.
// docs/screenshots) keeps a screenshot of each, as the README shows them.
const TOKEN = 'ops-token-for-the-web-test-0123'
const sw = useWorld()
const svc = useInstance(sw, { OPS_TOKEN: TOKEN })
const SCREENSHOTS = process.env.SCREENSHOT_DIR

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
  // Revenue to show: one paid call through the official client.
  const paid = await wrapFetchWithPayment(fetch, payer(3).client)(`${svc.url}/v1/prices?symbols=ETH`)
  expect(paid.status).toBe(200)
  await paid.body?.cancel()
  // Its ledger row is written just after the response.
  await svc.services.deps.ledger.drain()
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

const shot = async (page: import('playwright-core').Page, name: string) => {
  if (SCREENSHOTS === undefined) return
  mkdirSync(join(PROJECT_ROOT, SCREENSHOTS), { recursive: true })
  await page.screenshot({ path: join(PROJECT_ROOT, SCREENSHOTS, name), fullPage: false })
}

describe('web pages in a browser', () => {
  test('behavior: / lists every endpoint of the route table with its price, and a quick start', async () => {
    const page = await browser.newPage()
    await page.goto(`${svc.url}/`)
    expect(await page.title()).toContain('agentdesk')
    expect(await page.locator('tbody tr').count()).toBe(routeTable.length)
    const prices = await page.locator('#getPrices').textContent()
    expect(prices).toContain('$0.001')
    expect(prices).toContain('curl')
    expect(await page.locator('body').textContent()).toContain('npx agentdesk')
    await shot(page, 'landing.png')
    await page.close()
  })

  test('behavior: /ops without the token shows a login form and no figure; with it, the books and a chart', async () => {
    const page = await browser.newPage()
    const first = await page.goto(`${svc.url}/ops`)
    expect(first?.status()).toBe(401)
    const locked = await page.locator('body').textContent()
    expect(locked).not.toContain('Revenue')
    expect(locked).not.toContain('$')
    await page.fill('input[name=token]', 'wrong-token-wrong-token')
    await page.click('button[type=submit]')
    expect(await page.locator('body').textContent()).not.toContain('Revenue')

    await page.fill('input[name=token]', TOKEN)
    await page.click('button[type=submit]')
    await page.waitForSelector('svg.chart')
    const text = await page.locator('body').textContent()
    expect(text).toContain('Revenue by day')
    expect(text).toContain('GET /v1/prices')
    // The chart rendered: a bar with a height, for the day of the paid call.
    const heights = await page
      .locator('svg.chart rect.bar')
      .evaluateAll((bars) =>
        bars.map((b) => (b as unknown as { getBBox(): { height: number } }).getBBox().height),
      )
    expect(heights.length).toBeGreaterThan(0)
    expect(Math.max(...heights)).toBeGreaterThan(0)
    await shot(page, 'ops.png')
    await page.close()
  })

  test('attack: the /ops session cookie is a random id, never the token; HttpOnly, SameSite=Strict, expiring; sign out ends it', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${svc.url}/ops`)
    await page.fill('input[name=token]', TOKEN)
    await page.click('button[type=submit]')
    await page.waitForSelector('svg.chart')
    const [cookie, ...others] = await context.cookies(svc.url)
    expect(others).toEqual([])
    if (cookie === undefined) throw new Error('no session cookie')
    expect(cookie.value).not.toContain(TOKEN)
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' })
    // Served over plain http here (PUBLIC_URL http): not Secure, so the browser sends it back.
    expect(cookie.secure).toBe(false)
    const hours = (cookie.expires - Date.now() / 1000) / 3600
    expect(hours).toBeGreaterThan(7.9)
    expect(hours).toBeLessThanOrEqual(8)
    // The cookie opens /metrics too, but a made-up session id of the same shape, or the token, does not.
    const withCookie = (value: string) =>
      fetch(`${svc.url}/metrics`, { headers: { cookie: `agentdesk_ops=${value}` } })
    expect((await withCookie(cookie.value)).status).toBe(200)
    expect((await withCookie('A'.repeat(43))).status).toBe(401)
    expect((await withCookie(TOKEN)).status).toBe(401)

    // Sign out: the session ends on the server, so the cookie kept by anyone is worth nothing.
    await page.click('form[action="/ops/logout"] button')
    await page.waitForSelector('input[name=token]')
    expect(await context.cookies(svc.url)).toEqual([])
    expect((await withCookie(cookie.value)).status).toBe(401)
    await context.close()
  })

  test('behavior: behind https the session cookie is Secure', async () => {
    const tls = await sw.instance({ OPS_TOKEN: TOKEN, PUBLIC_URL: 'https://agentdesk.example' })
    try {
      const res = await fetch(`${tls.url}/ops/login`, {
        method: 'POST',
        body: new URLSearchParams({ token: TOKEN }),
        redirect: 'manual',
      })
      expect(res.status).toBe(303)
      const set = res.headers.get('set-cookie') ?? ''
      expect(set).toMatch(/; Secure/)
      expect(set).toMatch(/; HttpOnly/)
      expect(set).toMatch(/; SameSite=Strict/)
      expect(set).not.toContain(TOKEN)
    } finally {
      await tls.stop()
    }
  })

  test('behavior: /metrics needs the token and speaks Prometheus text', async () => {
    expect((await fetch(`${svc.url}/metrics`)).status).toBe(401)
    const res = await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toMatch(/# TYPE agentdesk_revenue_usdc_atomic gauge/)
    expect(text).toMatch(/agentdesk_revenue_usdc_atomic\{route="GET \/v1\/prices"\} \d+/)
    expect(text).toMatch(/agentdesk_requests_total\{route="GET \/v1\/prices",status="2xx"\} \d+/)
    // The process's memory: this instance runs in the test's process, whose VmRSS the kernel reports.
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1])
    const kernelRss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]) * 1024
    const rss = gauge('process_resident_memory_bytes')
    expect(Math.abs(rss - kernelRss) / kernelRss).toBeLessThan(0.2)
    expect(gauge('nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(gauge('nodejs_heap_size_used_bytes')).toBeLessThanOrEqual(gauge('nodejs_heap_size_total_bytes'))
    expect(gauge('nodejs_external_memory_bytes')).toBeGreaterThan(0)
  })

  test('behavior: without OPS_TOKEN the operator pages do not exist', async () => {
    const off = await sw.instance({})
    expect((await fetch(`${off.url}/ops`)).status).toBe(404)
    expect((await fetch(`${off.url}/metrics`)).status).toBe(404)
    await off.stop()
  })
})
