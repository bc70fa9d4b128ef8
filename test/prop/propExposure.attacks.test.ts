import { describe, expect, test } from 'vitest'
import { createDatabase } from '../../src/store/database.js'
import { migrate } from '../../src/store/migrations.js'
import { createPropBook } from '../../src/store/propBook.js'
import { utilWallet } from '../helpers/creditKit.js'
import * as kit from '../helpers/propKit.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// Attack review of "a member's open exposure capped" (issue 37 item 8): the exposure sums on the embedded
// PGlite ledger, and an open the venue cancels (found by the review: it counted as open for ever, the
// member's allotment and the desk's room gone though the desk held nothing).
const sw = useWorld()
const svc = useInstance(sw, { PROP_COOLDOWN_SECONDS: '0' })
const { DESK, MEMBER_UTIL } = kit

describe('open exposure: attacks', () => {
  test('PGlite: the EXPOSURE sums and $2::bigint[] (closedAtVenue) on the embedded ledger', async () => {
    const db = await createDatabase({ dataDir: 'memory://' })
    try {
      await migrate(db)
      const book = createPropBook(db)
      const m = '0x00000000000000000000000000000000000000aa' as const
      const x = (closedAtVenue: number[], collateralUsdc = 40) => ({
        collateralUsdc,
        notionalUsd: collateralUsdc * 5,
        memberMaxCollateralUsdc: 100,
        memberMaxNotionalUsd: 500,
        deskMaxCollateralUsdc: 10_000,
        closedAtVenue,
      })
      type Open = { collateralUsdc: number; leverage: number }
      const claim = (hash: string, params: Open, closedAtVenue: number[] = []) =>
        book.claim({
          member: m,
          action: 'trade.open',
          params,
          authTxHash: hash as `0x${string}`,
          authKind: 'pay',
          utilAmount: 1n,
          plannedSteps: 1,
          cooldownSec: 0,
          exposure: x(closedAtVenue, Number(params.collateralUsdc)),
        })
      const first = await claim('0x01', JSON.parse('{"collateralUsdc":6e1,"leverage":5}') as never)
      expect(first.kind).toBe('claimed')
      const id = (first as { id: number }).id
      expect(await book.openExposure(m, [])).toEqual({
        memberCollateralUsdc: 60,
        memberNotionalUsd: 300,
        deskCollateralUsdc: 60,
      })
      expect((await claim('0x02', { collateralUsdc: 40.5, leverage: 5 })).kind).toBe('exposure')
      // The same open listed as closed at the venue leaves the sums (an array parameter on PGlite).
      expect(await book.openExposure(m, [id])).toMatchObject({ memberCollateralUsdc: 0 })
      expect((await claim('0x03', { collateralUsdc: 40, leverage: 5 }, [id])).kind).toBe('claimed')
    } finally {
      await db.close()
    }
  })

  test('attack: an open the venue cancels (slippage) holds no room: the desk holds nothing, and the member opens again', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const mark = await kit.ethPrice(sw)
    // A long whose reference price is 5% under the market with 0.001% slippage: the keeper cancels it.
    const params = {
      pairIndex: 1,
      long: true,
      leverage: 5,
      collateralUsdc: 100,
      markPrice: mark * 0.95,
      slippagePct: 0.001,
    }
    const hash = await kit.payFor(sw, member, svc.url, 'trade.open', params)
    const deskUsdc = await sw.usdcBalance(DESK)
    const opened = await kit.post(member, svc.url, '/v1/prop/execute', {
      actionId: 'trade.open',
      params,
      payTxHash: hash,
    })
    expect(opened.status, JSON.stringify(opened.body)).toBe(200)
    expect(await sw.usdcBalance(DESK)).toBe(deskUsdc - 100_000_000n)
    await sw.world.keeperTick()
    await sw.world.keeperTick()
    // The venue gave the collateral back: the desk holds no position for the member.
    expect(await sw.usdcBalance(DESK)).toBe(deskUsdc)

    // Its order neither filled nor pending: no longer open, so a $100 open fits the allotment again.
    const again = { pairIndex: 1, long: true, leverage: 5, collateralUsdc: 100, markPrice: mark }
    const quoted = await kit.post(member, svc.url, '/v1/prop/quote', {
      actionId: 'trade.open',
      params: again,
    })
    expect(quoted.status).toBe(200)
    expect(quoted.body.reasons).toEqual([])
    const h2 = await kit.payFor(sw, member, svc.url, 'trade.open', again)
    const served = await kit.post(member, svc.url, '/v1/prop/execute', {
      actionId: 'trade.open',
      params: again,
      payTxHash: h2,
    })
    expect(served.status, JSON.stringify(served.body)).toBe(200)
  })
})
