/**
 * Indicator arithmetic written out from the textbook definitions, without trading-signals: the independent
 * truth the signal tests compare the service's numbers with. Conventions (stated in the route docs):
 * Wilder RSI seeded with the mean of the first `period` changes; EMAs seeded with their first input, the
 * MACD signal EMA starting at the first MACD value (close `slow`); Bollinger σ over the population.
 */

export function wilderRsi(closes: readonly number[], period = 14): number {
  let gain = 0
  let loss = 0
  for (let i = 1; i <= period; i++) {
    const d = (closes[i] as number) - (closes[i - 1] as number)
    gain += Math.max(d, 0)
    loss += Math.max(-d, 0)
  }
  gain /= period
  loss /= period
  for (let i = period + 1; i < closes.length; i++) {
    const d = (closes[i] as number) - (closes[i - 1] as number)
    gain = (gain * (period - 1) + Math.max(d, 0)) / period
    loss = (loss * (period - 1) + Math.max(-d, 0)) / period
  }
  return loss === 0 ? 100 : 100 - 100 / (1 + gain / loss)
}

function ema(values: readonly number[], period: number): number[] {
  const k = 2 / (period + 1)
  const out: number[] = []
  let prev = values[0] as number
  for (const v of values) {
    prev = v * k + prev * (1 - k)
    out.push(prev)
  }
  return out
}

export function macdHistogram(closes: readonly number[], fast = 12, slow = 26, signal = 9): number {
  const f = ema(closes, fast)
  const s = ema(closes, slow)
  const line = closes.map((_, i) => (f[i] as number) - (s[i] as number)).slice(slow - 1)
  const sig = ema(line, signal)
  return (line.at(-1) as number) - (sig.at(-1) as number)
}

export function percentB(closes: readonly number[], period = 20, k = 2): number {
  const w = closes.slice(-period)
  const mean = w.reduce((a, b) => a + b, 0) / period
  const sd = Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / period)
  if (sd === 0) return 0.5
  const lower = mean - k * sd
  return ((closes.at(-1) as number) - lower) / (2 * k * sd)
}
