import { formatUnits } from 'viem'

/** "250 USDC": an atomic amount in a step's description. */
export function tokenLabel(amount: bigint, token: { symbol: string; decimals: number }): string {
  return `${formatUnits(amount, token.decimals)} ${token.symbol}`
}
