import type { ReferralStanding } from '../store/ledger.js'

/** One point per $0.001 of settled volume from referred wallets. */
const ATOMIC_PER_POINT = 1000n

export const REFERRAL_TERMS =
  'Append ?ref=<your-wallet> to any /v1 URL you share: each paid call made through it is attributed to you ' +
  '(a wallet cannot refer itself). You earn 1 point per $0.001 of settled volume. Points are non-payable: ' +
  'nothing is owed or paid out. The spec once stated a 20% share of paid volume; its later statement ' +
  '(points only) stands.'

/** The public view of a referrer's standing, from the ledger's settled rows. */
export function referralStanding(wallet: string, standing: ReferralStanding) {
  return {
    wallet,
    referredWallets: standing.referredWallets,
    paidCalls: standing.paidCalls,
    pendingCalls: standing.pendingCalls,
    paidVolumeUsd: Number(standing.paidVolume) / 1e6,
    points: Number(standing.paidVolume / ATOMIC_PER_POINT),
    terms: REFERRAL_TERMS,
  }
}
