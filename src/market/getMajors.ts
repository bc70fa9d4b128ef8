import type { MarketData } from './marketData.js'

export const MAJORS = ['BTC', 'ETH', 'SOL'] as const

/**
 * Spot USD of the majors for the free catalog, within `timeoutMs`. Undefined when the exchange does not
 * answer in time: the catalog then omits the block rather than inventing numbers.
 */
export async function getMajors(
  market: MarketData,
  timeoutMs = 1500,
): Promise<Record<string, number> | undefined> {
  const read = async () => {
    const products = await market.coinbase.products()
    const listed = MAJORS.filter((s) => products.has(`${s}-USD`))
    const tickers = await Promise.all(listed.map((s) => market.coinbase.ticker(`${s}-USD`)))
    return Object.fromEntries(listed.map((s, i) => [s, tickers[i]?.price as number]))
  }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs)
  })
  try {
    return await Promise.race([read().catch(() => undefined), timeout])
  } finally {
    clearTimeout(timer)
  }
}
