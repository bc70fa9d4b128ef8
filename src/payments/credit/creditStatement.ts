import type { CreditBook, DebitRecord, TopUpRecord } from './creditBook.js'
import { CREDIT_TERMS } from './creditRail.js'

/** How many top-ups and debits a statement lists, newest first. */
export const STATEMENT_ROWS = 20

const usd = (atomic: bigint) => Number(atomic) / 1e6

/** `GET /v1/util-credit/{wallet}`: the balance, the rail's terms and the wallet's latest top-ups and debits. */
export async function creditStatement(
  wallet: `0x${string}`,
  book: CreditBook,
  rail: { recipient: `0x${string}`; token: `0x${string}` | null; pool: `0x${string}` | null },
) {
  const [balance, topUps, debits] = await Promise.all([
    book.balance(wallet),
    book.recentTopUps(wallet, STATEMENT_ROWS),
    book.recentDebits(wallet, STATEMENT_ROWS),
  ])
  return {
    wallet,
    balanceUsd: usd(balance),
    balanceAtomic: balance.toString(),
    terms: {
      ...CREDIT_TERMS,
      recipient: rail.recipient,
      token: rail.token,
      pool: rail.pool,
      available: rail.token !== null && rail.pool !== null,
    },
    topUps: topUps.map(topUpLine),
    debits: debits.map(debitLine),
  }
}

function topUpLine(t: TopUpRecord) {
  return {
    txHash: t.txHash,
    utilAmount: t.utilAmount.toString(),
    creditedUsd: usd(t.usdAtomic),
    blockNumber: Number(t.blockNumber),
    blockTime: t.blockTime,
    registeredAt: t.createdAt.toISOString(),
  }
}

function debitLine(d: DebitRecord) {
  return {
    route: d.route,
    amountUsd: usd(d.amount),
    status: d.status,
    nonce: d.nonce,
    at: d.createdAt.toISOString(),
  }
}
