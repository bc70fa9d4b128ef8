import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { wrapFetchWithPayment } from '@x402/fetch'
import { type Address, createWalletClient, erc20Abi, getAddress, type Hex, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../src/chain/addresses.js'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import type { History } from '../../src/market/history/getHistory.js'
import type { Portfolio } from '../../src/market/portfolio/getPortfolio.js'
import { getHistoryRoute } from '../../src/routes/history/getHistory.js'
import { getPortfolioRoute } from '../../src/routes/portfolio/getPortfolio.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { expectRefused } from '../helpers/expectRefused.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { type Instance, type ServiceWorld, startServiceWorld } from '../helpers/serviceWorld.js'

// Attacks on the six wallet reads (issue 14). Rules under attack: bad input is a 400 naming the field and
// costs nothing; a failed call costs nothing; an upstream fault is 502/503 uncharged and a single failing
// source only empties its own section; numbers are never fabricated; an address with nothing is a 200.
// Every charge is checked on the payer's USDC balance read here on the chain.

const DEMO = getAddress(demoAccounts[1]?.address as string)
/** Atomic USDC per data read ($0.001) and per alpha read ($0.01). */
const DATA_PRICE = 1_000n
const ALPHA_PRICE = 10_000n

let sw: ServiceWorld
let svc: Instance
let chain: PublicClient

beforeAll(async () => {
  sw = await startServiceWorld()
  chain = sw.chain
  svc = await sw.instance()
}, 120_000)
afterAll(async () => {
  await sw?.stop()
})

const walletPaths = (a: string) => [
  `/v1/portfolio/${a}`,
  `/v1/positions/${a}`,
  `/v1/pending-orders/${a}`,
  `/v1/history/${a}`,
  `/v1/stats/${a}`,
  `/v1/loan/analysis/${a}`,
]
const priceOf = (path: string) => (path.startsWith('/v1/loan/') ? ALPHA_PRICE : DATA_PRICE)

type Payer = Awaited<ReturnType<ServiceWorld['freshWallet']>>

/** One paid call by `who`; returns the status, the body and what the payer's USDC balance lost. */
async function paidCall(instance: Instance, who: Payer, path: string) {
  const before = await sw.usdcBalance(who.account.address)
  const res = await wrapFetchWithPayment(fetch, who.client)(`${instance.url}${path}`)
  const body = (await res.json()) as Record<string, unknown>
  const after = await sw.usdcBalance(who.account.address)
  return { status: res.status, body, charged: before - after, receipt: res.headers.get('payment-response') }
}

/** A local HTTP server answering with `handle`; closed at the end of the file. */
const servers: Server[] = []
async function serveJson(
  handle: (url: URL, req: IncomingMessage) => { status?: number; body: unknown },
): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const { status = 200, body } = handle(new URL(req.url ?? '/', 'http://x'), req)
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(typeof body === 'string' ? body : JSON.stringify(body))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  servers.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
afterAll(async () => {
  for (const s of servers) await new Promise((done) => s.close(done))
})

/** A URL nothing listens on. */
async function deadUrl(): Promise<string> {
  const closed = createServer()
  await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
  const port = (closed.address() as AddressInfo).port
  await new Promise((done) => closed.close(done))
  return `http://127.0.0.1:${port}`
}

/** A gTrade history record as the backend sends it (protocols.md §1 field names). */
function record(action: string, block: number, tradeIndex: number, pnl: number, tx: number) {
  return {
    action,
    address: DEMO,
    block,
    long: true,
    leverage: 2,
    pair: 'BTC/USD',
    pnl_net: pnl,
    price: 60_000,
    size: 100,
    tx: `0x${tx.toString(16).padStart(64, '0')}`,
    tradeIndex,
    date: new Date(1_700_000_000_000 + block * 1000).toISOString(),
    collateralIndex: 3,
  }
}

describe('attacks on the wallet reads (paid with @x402/fetch)', () => {
  test('attack: a mixed-case address with a wrong EIP-55 checksum is refused the same way by all six, uncharged', async () => {
    // DEMO with one letter's case flipped: still 40 hex, mixed case, checksum broken.
    const i = DEMO.search(/[a-f]/)
    const bad = `${DEMO.slice(0, i)}${DEMO.charAt(i).toUpperCase()}${DEMO.slice(i + 1)}`
    expect(bad).not.toBe(DEMO)
    const who = await sw.freshWallet(1_000_000n)
    for (const path of walletPaths(bad))
      await expectRefused(paidCall(svc, who, path), { status: 400, field: 'address', name: path })
    for (const odd of [
      '0x0',
      '0x',
      `${DEMO}00`,
      DEMO.slice(2),
      `0X${DEMO.slice(2)}`,
      `${DEMO.slice(0, 41)}g`,
    ])
      await expectRefused(paidCall(svc, who, `/v1/portfolio/${odd}`), {
        status: 400,
        field: 'address',
        name: `/v1/portfolio/${odd}`,
      })
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
  })

  test('attack: all-lowercase and all-uppercase spellings are accepted by all six and answer the checksummed address', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const upper = `0x${DEMO.slice(2).toUpperCase()}`
    let spent = 0n
    for (const spelling of [DEMO.toLowerCase(), upper]) {
      const answers = await Promise.all(walletPaths(spelling).map((p) => paidCall(svc, who, p)))
      answers.forEach((r, k) => {
        const path = walletPaths(spelling)[k] as string
        expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200)
        expect(r.body.address, path).toBe(DEMO)
        spent += priceOf(path)
      })
    }
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n - spent)
  })

  test('attack: the zero address and contract addresses (USDC, Morpho Blue) are 200s with no fabricated holdings', async () => {
    const who = await sw.freshWallet(1_000_000n)
    for (const target of [
      '0x0000000000000000000000000000000000000000',
      BASE_ADDRESSES.USDC,
      BASE_ADDRESSES.MorphoBlue,
    ]) {
      for (const path of walletPaths(target)) {
        const r = await paidCall(svc, who, path)
        expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200)
        expect(r.charged, path).toBe(priceOf(path))
      }
      // Whatever the portfolio lists is the chain's balance at its block.
      const r = await paidCall(svc, who, `/v1/portfolio/${target}`)
      const p = getPortfolioRoute.output.parse(r.body) as Portfolio
      for (const t of [...p.tokens, ...p.screened]) {
        const held =
          t.token === NATIVE_SENTINEL
            ? await chain.getBalance({ address: target as Address, blockNumber: BigInt(p.block.number) })
            : await chain.readContract({
                address: t.token,
                abi: erc20Abi,
                functionName: 'balanceOf',
                args: [target as Address],
                blockNumber: BigInt(p.block.number),
              })
        expect(BigInt(t.balance), `${target} ${t.token}`).toBe(held)
      }
    }
  })

  test('attack: history limit and cursor fuzz is a 400 naming the field, uncharged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    for (const limit of ['0', '101', '1.5', 'abc', '', '-1', '1e3', 'Infinity', 'NaN'])
      await expectRefused(paidCall(svc, who, `/v1/history/${DEMO}?limit=${limit}`), {
        status: 400,
        field: 'limit',
        name: `/v1/history/${DEMO}?limit=${limit}`,
      })
    for (const cursor of ['', '%00', 'a b', 'x'.repeat(257), '%22%3E%3Cscript%3E'])
      await expectRefused(paidCall(svc, who, `/v1/history/${DEMO}?cursor=${cursor}`), {
        status: 400,
        field: 'cursor',
        name: `/v1/history/${DEMO}?cursor=${cursor}`,
      })
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    // A repeated limit is refused or answered once, never a 500.
    const twice = await paidCall(svc, who, `/v1/history/${DEMO}?limit=1&limit=2`)
    expect([200, 400]).toContain(twice.status)
    if (twice.status === 400) expect(twice.charged).toBe(0n)
  })

  test('attack: targetHealth edge values: just above 1 answers, the absurd ones are a 400 naming targetHealth, uncharged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    for (const t of ['1', '0', '-2', '1e3', '101', 'Infinity', '-Infinity', 'NaN', '1e400', '', 'abc'])
      await expectRefused(paidCall(svc, who, `/v1/loan/analysis/${DEMO}?targetHealth=${t}`), {
        status: 400,
        field: 'targetHealth',
        name: `/v1/loan/analysis/${DEMO}?targetHealth=${t}`,
      })
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    const r = await paidCall(svc, who, `/v1/loan/analysis/${DEMO}?targetHealth=1.000001`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.targetHealth).toBe(1.000001)
    expect(r.charged).toBe(ALPHA_PRICE)
    const twice = await paidCall(svc, who, `/v1/loan/analysis/${DEMO}?targetHealth=2&targetHealth=3`)
    expect([200, 400]).toContain(twice.status)
    if (twice.status === 400) expect(twice.charged).toBe(0n)
  })

  test('attack: an explorer answering a non-address row: that row is left out, the others still read', async () => {
    const url = await serveJson(() => ({
      body: [
        { token: { address_hash: 'not-an-address', type: 'ERC-20', decimals: '255' }, value: '1' },
        { token: { address_hash: BASE_ADDRESSES.USDC, type: 'ERC-20', decimals: '6' }, value: '5' },
      ],
    }))
    const hostile = await sw.instance({ EXPLORER_URL: url })
    const who = await sw.freshWallet(1_000_000n)
    const r = await paidCall(hostile, who, `/v1/portfolio/${DEMO}`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const p = getPortfolioRoute.output.parse(r.body) as Portfolio
    // Rows are read one by one (the explorer's listing is a third party's loose view): one bad row sinks
    // nothing else, and every balance is the chain's anyway.
    expect(p.sources.explorer.ok).toBe(true)
    expect(p.tokens.some((t) => t.token.toLowerCase().includes('not-an'))).toBe(false)
    expect(p.sources.chain).toEqual({ ok: true })
    const usdc = p.tokens.find((t) => t.token === BASE_ADDRESSES.USDC)
    expect(BigInt(usdc?.balance ?? -1)).toBe(
      await chain.readContract({
        address: USDC,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [DEMO],
        blockNumber: BigInt(p.block.number),
      }),
    )
  })

  test('attack: an explorer listing 10,000 tokens (decimals 255) does not take the portfolio down', async () => {
    const rows = Array.from({ length: 10_000 }, (_, k) => ({
      token: {
        address_hash: `0x${(k + 1).toString(16).padStart(8, '0')}${'ab'.repeat(16)}`,
        type: 'ERC-20',
        name: `Spam ${k}`,
        symbol: `SPAM${k}`,
        decimals: '255',
      },
      value: '1000000000000000000000000',
    }))
    // The real USDC row is last: the token the chain confirms must still be read.
    rows.push({
      token: {
        address_hash: BASE_ADDRESSES.USDC,
        type: 'ERC-20',
        name: 'USD Coin',
        symbol: 'USDC',
        decimals: '6',
      },
      value: '1',
    })
    const url = await serveJson(() => ({ body: rows }))
    const flooded = await sw.instance({ EXPLORER_URL: url })
    const who = await sw.freshWallet(1_000_000n)
    const r = await paidCall(flooded, who, `/v1/portfolio/${DEMO}`)
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200)
    expect(r.charged).toBe(DATA_PRICE)
    const p = getPortfolioRoute.output.parse(r.body) as Portfolio
    // None of the flood exists on the chain: nothing of it is listed, and no decimals-255 figure appears.
    for (const t of [...p.tokens, ...p.screened]) expect(t.decimals, t.token).toBeLessThan(255)
    expect(p.tokens.some((t) => t.token === BASE_ADDRESSES.USDC)).toBe(true)
    // The cut is said, not silent.
    expect(p.sources.explorer).toEqual({
      ok: false,
      error: 'the explorer listed 10000 unlisted tokens; only the first 250 were read on the chain',
    })
    expect(p.sources.chain).toEqual({ ok: true })
  })

  test('attack: a gTrade history backend that loops on one cursor does not multiply the stats', async () => {
    // Every page is the same closed round trip (+10 USDC) with hasMore and the same cursor, forever.
    const url = await serveJson(() => ({
      body: {
        data: [record('TradeClosedMarket', 20, 0, 10, 2), record('TradeOpenedMarket', 10, 0, 0, 1)],
        pagination: { hasMore: true, nextCursor: 'again' },
      },
    }))
    const looping = await sw.instance({ GTRADE_HISTORY_URL: url })
    const who = await sw.freshWallet(1_000_000n)
    const r = await paidCall(looping, who, `/v1/stats/${DEMO}`)
    // One round trip exists; counting the repeated page fifty times was the defect. A pager that repeats a
    // cursor is broken: 502, nothing charged.
    expect(r.status, JSON.stringify(r.body)).toBe(502)
    expect((r.body as { error: { code: string } }).error.code).toBe('upstream_unavailable')
    expect(r.charged).toBe(0n)
    // The history page itself is one page: it answers with the backend's cursor.
    const h = await paidCall(looping, who, `/v1/history/${DEMO}`)
    expect(h.status).toBe(200)
    const page = getHistoryRoute.output.parse(h.body) as History
    expect(page.trades).toHaveLength(1)
    expect(page.nextCursor).toBe('again')
  })

  test('attack: a gTrade history backend sending garbage or absurd numbers is a 502/503, uncharged, never a 500', async () => {
    const garbage = await serveJson(() => ({ body: '<html>maintenance</html>' }))
    const huge = await serveJson(() => ({
      body: {
        data: [
          record('TradeClosedMarket', 40, 1, 1e308, 4),
          record('TradeOpenedMarket', 30, 1, 0, 3),
          record('TradeClosedMarket', 20, 0, 1e308, 2),
          record('TradeOpenedMarket', 10, 0, 0, 1),
        ],
        pagination: { hasMore: false, nextCursor: null },
      },
    }))
    await Promise.all(
      [garbage, huge].map(async (url) => {
        const [inst, who] = await Promise.all([
          sw.instance({ GTRADE_HISTORY_URL: url }),
          sw.freshWallet(1_000_000n),
        ])
        for (const path of [`/v1/stats/${DEMO}`, `/v1/history/${DEMO}`]) {
          const r = await paidCall(inst, who, path)
          // Before the fix, stats summed two 1e308 wins to Infinity and answered 200 (charged) with netUsd
          // null: JSON's spelling of Infinity. Records beyond any real gTrade figure are now garbage.
          expect([502, 503], `${url} ${path}: ${JSON.stringify(r.body)}`).toContain(r.status)
          expect(r.charged, path).toBe(0n)
        }
      }),
    )
  }, 60_000)

  test('attack: the Midnight API down only empties the fixed section of positions and loan analysis', async () => {
    const inst = await sw.instance({ MORPHO_API_URL: await deadUrl() })
    const who = await sw.freshWallet(1_000_000n)
    const pos = await paidCall(inst, who, `/v1/positions/${DEMO}`)
    expect(pos.status, JSON.stringify(pos.body)).toBe(200)
    const sources = pos.body.sources as Record<string, { ok: boolean }>
    expect(sources.midnight?.ok).toBe(false)
    expect(sources.lending?.ok).toBe(true)
    expect((pos.body.borrows as unknown[]).length).toBeGreaterThan(0)
    const loan = await paidCall(inst, who, `/v1/loan/analysis/${DEMO}`)
    expect(loan.status, JSON.stringify(loan.body)).toBe(200)
    expect((loan.body.sources as Record<string, { ok: boolean }>).midnight?.ok).toBe(false)
    expect((loan.body.positions as unknown[]).length).toBeGreaterThan(0)
  })

  test('attack: every upstream down at once: all six are 502/503 (or a 200 that says every source failed), uncharged', async () => {
    const dead = await deadUrl()
    const inst = await sw.instance({
      RPC_URL: dead,
      EXPLORER_URL: dead,
      GTRADE_HISTORY_URL: dead,
      GTRADE_BACKEND_URL: dead,
      MORPHO_API_URL: dead,
      COINBASE_URL: dead,
      PYTH_HERMES_URL: dead,
    })
    const who = await sw.freshWallet(1_000_000n)
    for (const path of walletPaths(DEMO)) {
      const r = await paidCall(inst, who, path)
      expect([502, 503], `${path}: ${JSON.stringify(r.body)}`).toContain(r.status)
      expect(r.charged, path).toBe(0n)
    }
  })

  test('attack: 20 concurrent identical reads by 20 payers: all 200, one answer, each charged exactly once', async () => {
    const payers: Payer[] = []
    for (let k = 0; k < 20; k++) payers.push(await sw.freshWallet(100_000n))
    const answers = await Promise.all(payers.map((p) => paidCall(svc, p, `/v1/positions/${DEMO}`)))
    for (const r of answers) {
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.charged).toBe(DATA_PRICE)
    }
    // Answers read at the same block are the same answer (one shared load per head block, or two equal
    // loads): no payer sees another's half-built or differently priced state.
    const byBlock = new Map<string, string>()
    for (const r of answers) {
      const key = JSON.stringify(r.body.block)
      const seen = byBlock.get(key)
      if (seen === undefined) byBlock.set(key, JSON.stringify(r.body))
      else expect(JSON.stringify(r.body)).toBe(seen)
    }
    for (const p of payers) expect(await sw.usdcBalance(p.account.address)).toBe(100_000n - DATA_PRICE)
  })

  test('attack: a transfer included right after a read shows on the very next read (no stale cache)', async () => {
    const holder = privateKeyToAccount(generatePrivateKey()).address
    const who = await sw.freshWallet(1_000_000n)
    const funder = createWalletClient({
      account: privateKeyToAccount(demoAccounts[6]?.privateKey as Hex),
      chain: base,
      transport: headroomHttp(sw.world.rpcUrl),
    })
    const first = await paidCall(svc, who, `/v1/portfolio/${holder}`)
    expect(first.status).toBe(200)
    expect(first.body.tokens).toEqual([])
    await pollReceipt(chain, await funder.sendTransaction({ to: holder, value: 12345n }), RECEIPT)
    const second = await paidCall(svc, who, `/v1/portfolio/${holder}`)
    expect(second.status).toBe(200)
    const p = getPortfolioRoute.output.parse(second.body) as Portfolio
    expect(p.tokens).toEqual([expect.objectContaining({ token: NATIVE_SENTINEL, balance: '12345' })])
  })
})
