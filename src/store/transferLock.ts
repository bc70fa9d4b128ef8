import type { Queryable } from './database.js'

/**
 * The transaction lock on one presented UTIL transfer, shared by the credit rail's book
 * (src/payments/credit/creditBook.ts) and the prop desk's (src/store/propBook.ts): the two single-use
 * registries are checked and written under it.
 */
export async function lockTransfer(tx: Queryable, txHash: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`util-transfer:${txHash.toLowerCase()}`])
}
