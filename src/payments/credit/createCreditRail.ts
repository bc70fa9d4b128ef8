import type { PublicClient } from 'viem'
import { USDC } from '../../chain/network.js'
import type { Config } from '../../config.js'
import type { CreditBook } from './creditBook.js'
import { CREDIT_TERMS, type CreditRail } from './creditRail.js'
import { readTopUp, type TopUpTerms } from './readTopUp.js'
import { TopUpError } from './topUpErrors.js'

/** Where the credit rail reads top-ups, from config; null when this deployment has no UTIL or no pool. */
export function topUpTerms(config: Config): TopUpTerms | null {
  const { utilToken } = config
  const pool = config.payments.creditPool
  if (utilToken === null || pool === null) return null
  return {
    util: utilToken,
    usdc: USDC,
    recipient: config.payments.creditRecipient,
    pool,
    maxAgeSec: CREDIT_TERMS.maxTopUpAgeSec,
    oracleWindowSec: CREDIT_TERMS.oracleWindowSec,
    maxShareOfPool: CREDIT_TERMS.maxShareOfPool,
  }
}

/** The credit rail the payment gate uses: top-ups read from the chain, balances and debits in the book. */
export function createCreditRail(
  chain: PublicClient,
  book: CreditBook,
  terms: TopUpTerms | null,
): CreditRail {
  return {
    async topUp(payer, txHash, nowSec) {
      if (terms === null) throw new TopUpError('topup_unavailable')
      const topUp = await readTopUp(chain, terms, txHash, payer, nowSec)
      const credited = await book.topUp(topUp)
      // Credited before, by this or another instance (the hash is the row's primary key).
      if (credited === undefined) throw new TopUpError('topup_used')
      return { credited: topUp.usdAtomic, balance: credited.balance }
    },
    balance: (wallet) => book.balance(wallet),
    hold: (debit) => book.hold(debit),
    spend: (id) => book.spend(id),
    release: (id) => book.release(id),
  }
}
