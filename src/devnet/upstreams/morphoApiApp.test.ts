import type { Address, Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import type { MidnightMarket } from '../../chain/midnight.js'
import type { MidnightSourceMarket, MidnightSourceOffer } from './midnightBookSource.js'
import { createMorphoApiApp, priceLevels } from './morphoApiApp.js'

const NOW_SEC = 1_795_000_000
const WAD = 10n ** 18n
const USDC: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const WETH: Address = '0x4200000000000000000000000000000000000006'
const CBBTC: Address = '0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf'

function market(maturity: number, collateral: Address = WETH): MidnightMarket {
  return {
    chainId: 8453n,
    midnight: '0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A',
    loanToken: USDC,
    collateralParams: [
      {
        token: collateral,
        lltv: 860_000_000_000_000_000n,
        liquidationCursor: 300_000_000_000_000_000n,
        oracle: '0xdE7E000000000000000000000000000000000020',
      },
    ],
    maturity: BigInt(maturity),
    rcfThreshold: 0n,
    enterGate: '0x0000000000000000000000000000000000000000',
    liquidatorGate: '0x0000000000000000000000000000000000000000',
  }
}

const offer = (buy: boolean, tick: number, price: bigint, remaining: bigint, cappedByAssets = false) =>
  ({ buy, tick, price, remaining, cappedByAssets }) satisfies MidnightSourceOffer

const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex

const markets: MidnightSourceMarket[] = [
  { id: id(3), market: market(NOW_SEC + 90 * 86_400, CBBTC), offers: [] },
  {
    id: id(1),
    market: market(NOW_SEC + 30 * 86_400),
    offers: [
      offer(true, 4400, 994_000_000_000_000_000n, 1_000_000n),
      offer(true, 4408, 994_300_000_000_000_000n, 3_000_001n),
      offer(true, 4408, 994_300_000_000_000_000n, 2_000_000n),
      offer(false, 4476, 995_900_000_000_000_000n, 7_000_001n),
      // capped by assets: 1,000,000 assets buy floor(1e6 / 0.9962) units
      offer(false, 4480, 996_200_000_000_000_000n, 1_000_000n, true),
    ],
  },
  { id: id(2), market: market(NOW_SEC - 1), offers: [offer(true, 4400, 994_000_000_000_000_000n, 5n)] },
  { id: id(4), market: market(NOW_SEC + 60 * 86_400), offers: [] },
]

const app = createMorphoApiApp({
  books: { markets: async () => markets },
  clock: { now: () => NOW_SEC * 1000 },
})

async function get(query: string) {
  const res = await app.request(`/v0/midnight/books${query}`)
  return {
    status: res.status,
    body: (await res.json()) as { cursor: string | null; data: { market_id: string }[] },
  }
}

describe('Morpho API simulator (Midnight books)', () => {
  test('behavior: offers group by tick, best first, amounts rounded the way take rounds', () => {
    const offers = markets[1]?.offers ?? []
    expect(priceLevels(offers, true)).toEqual([
      {
        tick: 4408,
        price: '994300000000000000',
        units: '5000001',
        // the bid maker pays units × price rounded down, per offer
        assets: String(
          (3_000_001n * 994_300_000_000_000_000n) / WAD + (2_000_000n * 994_300_000_000_000_000n) / WAD,
        ),
        count: 2,
      },
      { tick: 4400, price: '994000000000000000', units: '1000000', assets: '994000', count: 1 },
    ])
    expect(priceLevels(offers, false)).toEqual([
      // the ask maker receives units × price rounded up
      { tick: 4476, price: '995900000000000000', units: '7000001', assets: '6971301', count: 1 },
      { tick: 4480, price: '996200000000000000', units: '1003814', assets: '1000000', count: 1 },
    ])
  })

  test('behavior: lists active markets by maturity in the wire format, paged by cursor', async () => {
    const first = await get('?chain_ids=8453&sort=maturity&limit=2')
    expect(first.status).toBe(200)
    expect(first.body.data.map((b) => b.market_id)).toEqual([id(1), id(4)])
    expect(first.body.data[0]).toMatchObject({
      chain_id: 8453,
      loan_token: USDC,
      collaterals: [{ token: WETH, lltv: '860000000000000000', liquidation_cursor: '300000000000000000' }],
      maturity: NOW_SEC + 30 * 86_400,
      rcf_threshold: '0',
      asks: [{ tick: 4476 }, { tick: 4480 }],
      bids: [{ tick: 4408 }, { tick: 4400 }],
    })
    expect(first.body.cursor).toEqual(expect.any(String))
    const second = await get(`?chain_ids=8453&sort=maturity&limit=2&cursor=${first.body.cursor}`)
    expect(second.body).toMatchObject({ cursor: null, data: [{ market_id: id(3), asks: [], bids: [] }] })
    // the matured market (id 2) is never listed
    expect((await get('?limit=100')).body.data.map((b) => b.market_id)).toEqual([id(1), id(4), id(3)])
    expect((await get('?sort=-maturity')).body.data.map((b) => b.market_id)).toEqual([id(3), id(4), id(1)])
  })

  test('behavior: filters by chain, token, collateral, maturity and id', async () => {
    const ids = async (q: string) => (await get(q)).body.data.map((b) => b.market_id)
    expect(await ids('?chain_ids=1')).toEqual([])
    expect(await ids(`?loan_tokens=${USDC.toLowerCase()}`)).toHaveLength(3)
    expect(await ids(`?collateral_tokens=${CBBTC}`)).toEqual([id(3)])
    expect(await ids(`?maturities=${NOW_SEC + 60 * 86_400}`)).toEqual([id(4)])
    expect(await ids(`?ids=${id(4)},${id(1)}`)).toEqual([id(1), id(4)])
  })

  test('error: bad parameters are a 400 with an error envelope; unknown routes a 404', async () => {
    for (const q of [
      '?cursor=nope',
      '?limit=0',
      '?limit=101',
      '?sort=tick',
      '?loan_tokens=0x12',
      '?ids=0xab',
    ]) {
      const { status, body } = await get(q)
      expect(status, q).toBe(400)
      expect(body).toMatchObject({ error: { code: 'bad_request' } })
    }
    expect((await app.request('/v0/midnight/nope')).status).toBe(404)
  })
})
