import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { createDatabase } from './database.js'
import { createLedger } from './ledger.js'
import { MIGRATIONS, migrate } from './migrations.js'
import { readPgliteTemplate } from './pgliteTemplate.js'

const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const REFERRER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const PAY_TO = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720'
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const payment = (nonce: string, referrer?: string, validBefore = 2_000_000_000, payer = PAYER) => ({
  payer,
  nonce,
  route: 'GET /v1/prices',
  amount: 1000n,
  referrer,
  payTo: PAY_TO,
  validBefore,
})
/** An authorization whose life is over (2001): it can no longer settle, and no answer is still leaving. */
const EXPIRED = 1_000_000_000

describe('ledger on PGlite', () => {
  test('a row survives a restart: close the database, reopen the directory, read it back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'))
    dirs.push(dir)
    const first = await createDatabase({ dataDir: dir })
    expect(await migrate(first)).toEqual(MIGRATIONS.map((m) => m.id))
    const ledger = createLedger(first)
    const id = await ledger.open(payment('0x01', REFERRER))
    expect(id).toBeTypeOf('number')
    await ledger.settle(id as number, '0xabc')
    await first.close()

    const second = await createDatabase({ dataDir: dir })
    expect(await migrate(second)).toEqual([])
    const rows = await createLedger(second).byPayer(PAYER)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      status: 'settled',
      txHash: '0xabc',
      amount: 1000n,
      referrer: REFERRER.toLowerCase(),
    })
    await second.close()
  })

  test('an authorization opens once; a failed one may be tried again', async () => {
    const db = await createDatabase({ dataDir: 'memory://', template: readPgliteTemplate() })
    await migrate(db)
    const ledger = createLedger(db)
    const id = await ledger.open(payment('0x02'))
    expect(await ledger.open(payment('0x02'))).toBeUndefined()
    await ledger.fail(id as number, 'payment_insufficient_funds')
    const again = await ledger.open(payment('0x02'))
    expect(again).toBe(id)
    await ledger.settle(again as number, '0xdef')
    expect(await ledger.open(payment('0x02'))).toBeUndefined()
    await db.close()
  })

  test('referral standing counts settled payments only', async () => {
    const db = await createDatabase({ dataDir: 'memory://', template: readPgliteTemplate() })
    await migrate(db)
    const ledger = createLedger(db)
    const a = await ledger.open(payment('0x03', REFERRER))
    const b = await ledger.open(payment('0x04', REFERRER))
    await ledger.open(payment('0x05', REFERRER))
    await ledger.settle(a as number, '0x1', true)
    await ledger.settle(b as number, '0x2', true)
    // The third is in its settlement (its answer not decided yet): pending, not paid.
    expect(await ledger.referralStanding(REFERRER)).toEqual({
      referredWallets: 1,
      paidCalls: 2,
      paidVolume: 2000n,
      pendingCalls: 1,
    })
    expect((await ledger.pending()).map((r) => r.nonce)).toEqual(['0x05'])
    await db.close()
  })

  test('referral standing: paid is settled and served; pending is served or possibly being answered, never an expired row nobody answered', async () => {
    const db = await createDatabase({ dataDir: 'memory://', template: readPgliteTemplate() })
    await migrate(db)
    const ledger = createLedger(db)
    const OTHER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
    const open = async (nonce: string, validBefore = 2_000_000_000, payer = PAYER) =>
      (await ledger.open(payment(nonce, REFERRER, validBefore, payer))) as number
    // Paid: settled and served.
    await ledger.settle(await open('0x20'), '0x20', true)
    // A refund owed (settled, its caller never answered, its authorization's life over): neither paid nor
    // pending, and its wallet is not a referred wallet.
    await ledger.settle(await open('0x21', EXPIRED, OTHER), '0x21')
    // Pending: served, the chain not decided (even past the authorization's life: it may have landed).
    await ledger.markPending(await open('0x22', EXPIRED), '0x22', true)
    // Pending: in flight, its answer may be leaving now (the served mark is written after it).
    await open('0x23')
    // Pending: settled by the reconciler while the gate's served mark is on its way.
    await ledger.settle(await open('0x24'), '0x24')
    // Not pending (the defect): never answered, never failed, their authorizations' life over.
    await open('0x25', EXPIRED)
    await open('0x28', EXPIRED, OTHER)
    // Not pending: withheld (answered 503), and failed.
    await ledger.withhold(await open('0x26'), 'settlement_unknown')
    await ledger.fail(await open('0x27'), 'payment_insufficient_funds')
    expect(await ledger.referralStanding(REFERRER)).toEqual({
      referredWallets: 1,
      paidCalls: 1,
      paidVolume: 1000n,
      pendingCalls: 3,
    })
    await db.close()
  })

  test('a row whose caller was never answered (its process killed in the settlement) settles unserved when the transfer lands, and closes failed, not unpaid, when it does not', async () => {
    const db = await createDatabase({ dataDir: 'memory://', template: readPgliteTemplate() })
    await migrate(db)
    const ledger = createLedger(db)
    const landed = (await ledger.open(payment('0x08', REFERRER))) as number
    const lost = (await ledger.open(payment('0x09', REFERRER))) as number
    expect((await ledger.pending()).map((r) => [r.id, r.served])).toEqual([
      [landed, false],
      [lost, false],
    ])
    // The reconciler's writes (no `served`) leave the flag as the gate left it.
    await ledger.settle(landed, '0xcc')
    await ledger.closeUnpaid(lost, 'expired_unsettled')
    const rows = await ledger.byPayer(PAYER)
    expect(rows.find((r) => r.id === landed)).toMatchObject({
      status: 'settled',
      served: false,
      txHash: '0xcc',
    })
    expect(rows.find((r) => r.id === lost)).toMatchObject({ status: 'failed', served: false })
    // The gate answering sets it.
    const answered = (await ledger.open(payment('0x0a', REFERRER))) as number
    await ledger.settle(answered, '0xdd', true)
    expect((await ledger.byPayer(PAYER)).find((r) => r.id === answered)).toMatchObject({ served: true })
    await db.close()
  })

  test('the gate’s late served-pending write, landing after the reconciler settled the row, keeps it settled and records it served', async () => {
    const db = await createDatabase({ dataDir: 'memory://', template: readPgliteTemplate() })
    await migrate(db)
    const ledger = createLedger(db)
    const id = (await ledger.open(payment('0x0b', REFERRER))) as number
    await ledger.settle(id, '0xee')
    await ledger.markPending(id, '0xee', true)
    expect((await ledger.byPayer(PAYER)).find((r) => r.id === id)).toMatchObject({
      status: 'settled',
      served: true,
      txHash: '0xee',
    })
    expect((await ledger.referralStanding(REFERRER)).pendingCalls).toBe(0)
    await db.close()
  })

  test('a served row the chain never paid becomes unpaid, is not re-opened and does not count for referrals', async () => {
    const db = await createDatabase({ dataDir: 'memory://', template: readPgliteTemplate() })
    await migrate(db)
    const ledger = createLedger(db)
    const served = (await ledger.open(payment('0x06', REFERRER))) as number
    const unserved = (await ledger.open(payment('0x07', REFERRER))) as number
    await ledger.markPending(served, '0xaa', true)
    // The other was withheld: its settlement failed ambiguously, so the caller got a 503, not the data.
    await ledger.withhold(unserved, 'settlement_unknown')
    expect((await ledger.pending()).map((r) => [r.id, r.served])).toEqual([
      [served, true],
      [unserved, false],
    ])
    await ledger.closeUnpaid(served, 'authorization_canceled', '0xbb')
    await ledger.closeUnpaid(unserved, 'expired_unsettled')
    const rows = await ledger.byPayer(PAYER)
    expect(rows.find((r) => r.id === served)).toMatchObject({
      status: 'unpaid',
      served: true,
      errorCode: 'authorization_canceled',
      txHash: '0xbb',
      payTo: PAY_TO.toLowerCase(),
    })
    expect(rows.find((r) => r.id === unserved)).toMatchObject({ status: 'failed', served: false })
    // The served one can never be tried again; the unserved, failed one can.
    expect(await ledger.open(payment('0x06'))).toBeUndefined()
    expect(await ledger.open(payment('0x07'))).toBe(unserved)
    expect(await ledger.referralStanding(REFERRER)).toMatchObject({ paidCalls: 0 })
    await db.close()
  })
})
