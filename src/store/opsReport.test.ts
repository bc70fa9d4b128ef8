import { afterAll, describe, expect, test } from 'vitest'
import { testDatabase } from '../../test/helpers/testDatabase.js'
import { prometheusText } from '../web/prometheusText.js'
import { createDatabase, type Database } from './database.js'
import { createLedger } from './ledger.js'
import { migrate } from './migrations.js'
import { readOpsReport } from './opsReport.js'
import { readPgliteTemplate } from './pgliteTemplate.js'

const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const REFERRER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const PAY_TO = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
const ROUTE = 'GET /v1/prices'

const drops: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const drop of drops) await drop()
})

/** The two ledgers the service runs on: embedded PGlite, and a PostgreSQL schema of its own. */
const DATABASES: [string, () => Promise<Database>][] = [
  ['PGlite', () => createDatabase({ dataDir: 'memory://', template: readPgliteTemplate() })],
  [
    'PostgreSQL',
    async () => {
      const own = await testDatabase()
      drops.push(own.drop)
      return createDatabase({ dataDir: 'unused', databaseUrl: own.url })
    },
  ],
]

describe.each(DATABASES)('ops report on %s', (_name, open) => {
  test('behavior: revenue and referral volume count settled and served rows only; settled, unserved rows are refunds owed', async () => {
    const db = await open()
    await migrate(db)
    const ledger = createLedger(db)
    const row = async (nonce: string, amount: bigint, referrer?: string) =>
      (await ledger.open({
        payer: PAYER,
        nonce,
        route: ROUTE,
        amount,
        referrer,
        payTo: PAY_TO,
        validBefore: 2_000_000_000,
      })) as number
    // Settled and served, one with a referrer: revenue 1,000 + 2,000, referral volume 2,000.
    await ledger.settle(await row('0x01', 1_000n), '0x01', true)
    await ledger.settle(await row('0x02', 2_000n, REFERRER), '0x02', true)
    // Settled, never served (the process died in the settlement, the caller left): owed back, 4,000 + 8,000.
    await ledger.settle(await row('0x03', 4_000n, REFERRER), '0x03')
    await ledger.settle(await row('0x04', 8_000n), '0x04')
    // Served, chain undecided; in flight; failed; served and never paid (closed unpaid): none is revenue
    // or a refund.
    await ledger.markPending(await row('0x05', 16_000n, REFERRER), '0x05', true)
    await row('0x06', 32_000n, REFERRER)
    await ledger.fail(await row('0x07', 64_000n), 'payment_insufficient_funds')
    const unpaid = await row('0x09', 256_000n, REFERRER)
    await ledger.markPending(unpaid, '0x09', true)
    await ledger.closeUnpaid(unpaid, 'authorization_canceled')
    // A batch-settlement voucher is booked settled and served: revenue.
    await ledger.recordVoucher({
      payer: PAYER,
      channelId: '0xc0',
      cumulative: 512_000n,
      route: ROUTE,
      amount: 512_000n,
      referrer: REFERRER,
      payTo: PAY_TO,
      scheme: 'batch-settlement',
    })
    await ledger.drain()

    const report = await readOpsReport(db)
    expect(report.revenueByDay).toHaveLength(1)
    expect(report.revenueByDay[0]).toMatchObject({
      route: ROUTE,
      calls: 3,
      atomic: 1_000n + 2_000n + 512_000n,
    })
    expect(report.referralVolumeAtomic).toBe(2_000n + 512_000n)
    expect(report.refundsOwed).toEqual({ calls: 2, atomic: 12_000n })
    expect(report.pendingSettlements).toBe(2)
    expect(report.unpaidServed).toBe(1)
    const metrics = prometheusText(report, [])
    expect(metrics).toContain('agentdesk_refunds_owed 2\n')
    expect(metrics).toContain('agentdesk_refunds_owed_usdc_atomic 12000\n')
    expect(metrics).toContain(`agentdesk_revenue_usdc_atomic{route="${ROUTE}"} 515000\n`)
    await db.close()
  })
})
