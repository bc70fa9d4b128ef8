import { describe, expect, test } from 'vitest'
import { UpstreamError } from '../../errors.js'
import { type FetchJson, UpstreamNotFound } from './fetchJson.js'
import { createMorphoMidnight } from './morphoMidnight.js'

const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'
const WETH = '0x4200000000000000000000000000000000000006'

/** A book as the API sends it (protocols.md §7a): snake_case, amounts and WADs as strings. */
function wireBook(n: number, extra: Record<string, unknown> = {}) {
  return {
    market_id: `0x${n.toString(16).padStart(64, 'A')}`,
    chain_id: 8453,
    midnight: '0xadedd8ab6de832766fedf0fac4992e5c4d3ea18a',
    loan_token: USDC,
    collaterals: [
      {
        token: WETH,
        lltv: '860000000000000000',
        liquidation_cursor: '300000000000000000',
        oracle: '0x663becd10dae6c4a3dcd89f1d76c1174199639b9',
      },
    ],
    maturity: 1_800_000_000 + n,
    rcf_threshold: '0',
    enter_gate: '0x0000000000000000000000000000000000000000',
    liquidator_gate: '0x0000000000000000000000000000000000000000',
    asks: [
      { tick: 4476, price: '995955100000000000', units: '50000000000', assets: '49797755000', count: 1 },
    ],
    bids: [],
    ...extra,
  }
}

/** Serves canned pages by cursor and records every URL asked for. */
function pagedUpstream(pages: Record<string, unknown>) {
  const urls: URL[] = []
  const fetchJson: FetchJson = async (_upstream, url) => {
    const u = new URL(url)
    urls.push(u)
    const page = pages[u.searchParams.get('cursor') ?? '']
    if (page === undefined) throw new Error(`unexpected ${url}`)
    return page
  }
  return { urls, fetchJson }
}

describe('Morpho Midnight adapter', () => {
  test('behavior: follows the cursor through every page and parses the wire format', async () => {
    const { urls, fetchJson } = pagedUpstream({
      '': { cursor: 'c2', data: [wireBook(1), wireBook(2)] },
      c2: { cursor: 'c3', data: [wireBook(3)] },
      c3: { cursor: null, data: [wireBook(4, { maturity: '1800000004' })] },
    })
    const books = await createMorphoMidnight('http://morpho.test', fetchJson, { pageSize: 2 }).books()

    expect(urls.map((u) => `${u.pathname}?${u.searchParams}`)).toEqual([
      '/v0/midnight/books?chain_ids=8453&sort=maturity&limit=2',
      '/v0/midnight/books?chain_ids=8453&sort=maturity&limit=2&cursor=c2',
      '/v0/midnight/books?chain_ids=8453&sort=maturity&limit=2&cursor=c3',
    ])
    expect(books.map((b) => b.maturity)).toEqual([1_800_000_001, 1_800_000_002, 1_800_000_003, 1_800_000_004])
    expect(books[0]).toEqual({
      marketId: `0x${'a'.repeat(63)}1`,
      chainId: 8453,
      midnight: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
      loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      collaterals: [
        {
          token: WETH,
          lltv: 860_000_000_000_000_000n,
          liquidationCursor: 300_000_000_000_000_000n,
          oracle: '0x663BECd10daE6C4A3Dcd89F1d76c1174199639B9',
        },
      ],
      maturity: 1_800_000_001,
      rcfThreshold: 0n,
      enterGate: '0x0000000000000000000000000000000000000000',
      liquidatorGate: '0x0000000000000000000000000000000000000000',
      asks: [
        {
          tick: 4476,
          price: 995_955_100_000_000_000n,
          units: 50_000_000_000n,
          assets: 49_797_755_000n,
          count: 1,
        },
      ],
      bids: [],
    })
  })

  test('behavior: a missing cursor ends the listing; answers are cached', async () => {
    const { urls, fetchJson } = pagedUpstream({ '': { data: [wireBook(1)] } })
    const midnight = createMorphoMidnight('http://morpho.test', fetchJson)
    expect(await midnight.books()).toHaveLength(1)
    expect(await midnight.books()).toHaveLength(1)
    expect(urls).toHaveLength(1)
  })

  test('error: a bad shape, a price above par, a looping cursor or a missing route is a 502', async () => {
    const cases: Record<string, unknown>[] = [
      { '': { cursor: null, data: [{ ...wireBook(1), market_id: 'nope' }] } },
      { '': { cursor: null, data: [wireBook(1, { collaterals: [] })] } },
      {
        '': {
          cursor: null,
          data: [
            wireBook(1, {
              bids: [{ tick: 6744, price: '1000000000000000001', units: '1', assets: '1', count: 1 }],
            }),
          ],
        },
      },
      { '': { cursor: 'a', data: [] }, a: { cursor: 'a', data: [] } },
      { '': { books: [] } },
    ]
    for (const pages of cases) {
      const { fetchJson } = pagedUpstream(pages)
      await expect(createMorphoMidnight('http://morpho.test', fetchJson).books()).rejects.toBeInstanceOf(
        UpstreamError,
      )
    }
    const missing: FetchJson = async (upstream, url) => {
      throw new UpstreamNotFound(upstream, url)
    }
    await expect(createMorphoMidnight('http://morpho.test', missing).books()).rejects.toMatchObject({
      status: 502,
      code: 'upstream_unavailable',
    })
    // An endless (but never repeating) cursor chain stops at maxPages.
    let n = 0
    const endless: FetchJson = async () => ({ cursor: `c${++n}`, data: [] })
    await expect(
      createMorphoMidnight('http://morpho.test', endless, { maxPages: 5 }).books(),
    ).rejects.toBeInstanceOf(UpstreamError)
    expect(n).toBe(5)
  })
})
