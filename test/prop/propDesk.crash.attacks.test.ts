import type { PaymentPayload } from '@x402/core/types'
import pg from 'pg'
import { createTestClient, type Hex, http } from 'viem'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { openedOrder } from '../../src/prop/gtradeOrders.js'
import { PROP_STALE_MS } from '../../src/prop/reconcileProp.js'
import { type ChildService, startChildService } from '../helpers/childService.js'
import { authorizationUsed, paidFetch, utilWallet } from '../helpers/creditKit.js'
import { errorOf } from '../helpers/errorOf.js'
import { eventually } from '../helpers/eventually.js'
import * as kit from '../helpers/propKit.js'
import { useWorld } from '../helpers/serviceWorld.js'
import { testDatabase } from '../helpers/testDatabase.js'

// Issue 28, the crash drill for the prop desk: `kill -9` the service while the desk's transaction for a
// paid `trade.open` is broadcast and waiting for its block, start it again on the same database, and check
// the action against the chain: the desk opened one trade for it (never a second, the reconciler does not
// send), its row is final and says what the chain says, its payTxHash is spent once, and the member was
// not charged the x402 fee for the call it never got an answer to.

const sw = useWorld()
const { DESK, MEMBER_UTIL } = kit
const DIAMOND = BASE_ADDRESSES.GtradeDiamond

interface ActionRow {
  status: string
  planned_steps: number
  desk_txs: Hex[]
  result: { deskTxs?: Hex[]; position?: { orderIndex: number | null }; reconciled?: boolean } | null
  error: string | null
}

interface PaymentRow {
  status: string
  served: boolean
}

const children: ChildService[] = []
afterAll(async () => {
  for (const c of children) await c.kill9()
})

async function query<R extends pg.QueryResultRow>(url: string, sql: string, args: unknown[]): Promise<R[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<R>(sql, args)).rows
  } finally {
    await client.end()
  }
}

const actionRows = (url: string, hash: Hex) =>
  query<ActionRow>(
    url,
    'SELECT status, planned_steps, desk_txs, result, error FROM prop_actions WHERE auth_tx_hash = $1',
    [hash.toLowerCase()],
  )

describe('crash drill: a prop desk action in flight', () => {
  test('attack: kill -9 while the desk’s trade.open waits for its block, restart on the same database: the action ends as the chain says (one trade opened, nothing sent again), its payTxHash is spent once, the member is not charged for the unanswered call', async () => {
    const db = await testDatabase()
    // No cooldown, so sending the hash again meets the hash's own check (a 60 s cooldown would answer
    // first); the reconciler every second, so rows are decided within the test's time.
    const env = { ...sw.env, DATABASE_URL: db.url, PROP_COOLDOWN_SECONDS: '0', RECONCILE_INTERVAL_MS: '1000' }
    const testClient = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
    try {
      const first = await startChildService(env)
      children.push(first)
      const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
      const mark = await kit.ethPrice(sw)
      const params = {
        pairIndex: 1,
        long: true,
        leverage: 5,
        collateralUsdc: 100,
        markPrice: mark,
        tp: mark * 1.1,
        sl: mark * 0.9,
      }
      // The member's transfer to the desk, quoted and mined before the drill (automine).
      const payTxHash = await kit.payFor(sw, member, first.url, 'trade.open', params)
      const sent: PaymentPayload[] = []
      member.client.onAfterPaymentCreation(async ({ paymentPayload }) => {
        sent.push(paymentPayload)
      })
      const usdcBefore = await sw.usdcBalance(member.account.address)
      const deskUsdcBefore = await sw.usdcBalance(DESK)
      const tradesBefore = (await kit.openTrades(sw, DESK)).length
      const deskNonceBefore = await sw.chain.getTransactionCount({ address: DESK, blockTag: 'latest' })

      // No block per transaction. Blocks are held while the desk sends, so the kill finds its last
      // transaction broadcast and unmined however slowly a loaded machine runs the handler (on a
      // free-running 2 s clock the block can land between the check and the kill); a step before the
      // last (an approve when the desk's allowance is short) is mined by hand as a block would.
      await testClient.setAutomine(false)
      await testClient.setIntervalMining({ interval: 0 })
      const call = paidFetch(member)(
        `${first.url}/v1/prop/execute`,
        kit.json({
          actionId: 'trade.open',
          params,
          payTxHash,
        }),
      ).then(
        (r) => r.status,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      )
      const deadline = Date.now() + 30_000
      let atKill: ActionRow | undefined
      for (;;) {
        if (Date.now() > deadline)
          throw new Error(`the desk never broadcast its last step:\n${first.output()}`)
        const row = (await actionRows(db.url, payTxHash))[0]
        const last = row?.desk_txs.at(-1)
        const inPool =
          last === undefined
            ? undefined
            : await sw.chain.getTransaction({ hash: last }).catch(() => undefined)
        if (row !== undefined && row.desk_txs.length === row.planned_steps && inPool?.blockNumber === null) {
          atKill = row
          break
        }
        // An earlier step broadcast and waiting: its block.
        if (inPool?.blockNumber === null) await testClient.mine({ blocks: 1 })
        await new Promise((r) => setTimeout(r, 10))
      }
      await first.kill9()
      // What the kill left: the row `submitted` with every planned transaction recorded, the last unmined.
      expect(atKill.status).toBe('submitted')
      const lastTx = atKill.desk_txs.at(-1) as Hex
      expect((await sw.chain.getTransaction({ hash: lastTx })).blockNumber).toBeNull()
      expect(await sw.chain.getTransactionReceipt({ hash: lastTx }).catch(() => 'none')).toBe('none')
      // Base's block time from here on.
      await testClient.setIntervalMining({ interval: 2 })
      // The caller never got an answer.
      expect(await call).toBeInstanceOf(Error)
      const nonce = ((sent.at(-1) as PaymentPayload).payload as { authorization: { nonce: Hex } })
        .authorization.nonce

      // The same database, a new process, started as it would be two minutes later in its own time (the
      // reconciler leaves younger rows alone: they may still be running on their instance).
      const second = await startChildService({
        ...env,
        SERVICE_CLOCK_OFFSET_MS: String(PROP_STALE_MS + 1_000),
      })
      children.push(second)
      await second.reconciled
      const row = await vi.waitFor(
        async () => {
          const r = (await actionRows(db.url, payTxHash))[0]
          expect(['executed', 'failed']).toContain(r?.status)
          return r as ActionRow
        },
        { timeout: 20_000, interval: 100 },
      )
      await second.kill9()
      await testClient.setIntervalMining({ interval: 0 })
      await testClient.setAutomine(true)

      // The row agrees with the chain: the transactions it records are the ones the kill left, each mined
      // and successful, the last the desk's open at the venue; so the action is executed.
      expect(row.desk_txs).toEqual(atKill.desk_txs)
      const receipts = await Promise.all(row.desk_txs.map((hash) => sw.chain.getTransactionReceipt({ hash })))
      expect(receipts.map((r) => r.status)).toEqual(Array(atKill.planned_steps).fill('success'))
      expect(receipts.map((r) => r.from.toLowerCase())).toEqual(
        Array(atKill.planned_steps).fill(DESK.toLowerCase()),
      )
      expect(receipts.at(-1)?.to?.toLowerCase()).toBe(DIAMOND.toLowerCase())
      expect(row.status).toBe('executed')
      const order = openedOrder(receipts.at(-1) as (typeof receipts)[number], DESK)
      expect(order).toBeDefined()
      expect(row.result).toMatchObject({
        deskTxs: atKill.desk_txs,
        position: { orderIndex: order?.index },
        reconciled: true,
      })
      // Nothing was sent again: the desk's nonce moved by exactly the recorded transactions.
      expect(await sw.chain.getTransactionCount({ address: DESK, blockTag: 'pending' })).toBe(
        deskNonceBefore + atKill.planned_steps,
      )
      // The desk's own capital went in once: the 100 USDC collateral.
      expect(await sw.usdcBalance(DESK)).toBe(deskUsdcBefore - 100_000_000n)
      // The venue's keeper fills the order: the desk holds exactly one more trade, this one.
      await sw.world.keeperTick()
      const trade = await eventually(async () => {
        const trades = await kit.openTrades(sw, DESK)
        expect(trades.length).toBe(tradesBefore + 1)
        return trades.at(-1)
      })
      expect(trade).toMatchObject({ pairIndex: 1, long: true, leverage: 5_000 })

      // The member was not charged the fee of the call it never got: the authorization never reached the
      // chain, its USDC is whole, and the ledger holds no settled or served row for it.
      expect(await authorizationUsed(sw.chain, member.account.address, nonce)).toBe(false)
      expect(await sw.usdcBalance(member.account.address)).toBe(usdcBefore)
      const payments = await query<PaymentRow>(
        db.url,
        'SELECT status, served FROM payments WHERE payer = $1 AND nonce = $2',
        [member.account.address.toLowerCase(), nonce.toLowerCase()],
      )
      expect(payments.filter((p) => p.status === 'settled' || p.served)).toEqual([])

      // The payTxHash is spent once: sent again to a service on the wall clock (the payer signs on it), it
      // is refused `used`, free, and the desk sends nothing.
      const third = await startChildService(env)
      children.push(third)
      const deskNonce = await sw.chain.getTransactionCount({ address: DESK, blockTag: 'pending' })
      const again = await kit.post(member, third.url, '/v1/prop/execute', {
        actionId: 'trade.open',
        params,
        payTxHash,
      })
      expect(again.status, JSON.stringify(again.body)).toBe(422)
      expect(errorOf(again.body)).toMatchObject({ code: 'bad_pay_tx_hash', details: { reason: 'used' } })
      expect(await sw.usdcBalance(member.account.address)).toBe(usdcBefore)
      expect(await sw.chain.getTransactionCount({ address: DESK, blockTag: 'pending' })).toBe(deskNonce)
      await sw.world.keeperTick()
      expect((await kit.openTrades(sw, DESK)).length).toBe(tradesBefore + 1)
      expect((await actionRows(db.url, payTxHash)).map((r) => r.status)).toEqual(['executed'])
      console.info('crash drill (prop):', {
        plannedSteps: atKill.planned_steps,
        atKill: atKill.status,
        afterRestart: row.status,
        error: row.error,
      })
    } finally {
      await testClient.setIntervalMining({ interval: 0 })
      await testClient.setAutomine(true)
      for (const c of children) await c.kill9()
      await db.drop()
    }
  }, 120_000)
})
