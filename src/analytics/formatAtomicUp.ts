import { formatUnits } from 'viem'

/**
 * An atomic amount as a short human decimal for a sentence, rounded UP to `significant` digits, so that an
 * amount quoted as "enough" still is: 1_234_567_891 (6 decimals) → "1234.57".
 */
export function formatAtomicUp(amount: bigint, decimals: number, significant = 6): string {
  if (amount < 0n) throw new RangeError('amount must not be negative')
  const digits = amount.toString().length
  if (digits <= significant) return formatUnits(amount, decimals)
  const step = 10n ** BigInt(digits - significant)
  return formatUnits(((amount + step - 1n) / step) * step, decimals)
}
