import { describe, expect, test } from 'vitest'
import { BLEND_WEIGHTS, blendSentiment, type SignalParts } from './blendSentiment.js'

const neutral: SignalParts = {
  rsi: 0.5,
  macd: 0.5,
  bollinger: 0.5,
  vwap: 0.5,
  sma: 0.5,
  headAndShoulders: 0.5,
  fib: 0.5,
}

describe('blendSentiment', () => {
  test('behavior: the weights sum to 1 and the blend is their weighted mean', () => {
    expect(Object.values(BLEND_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12)
    const parts: SignalParts = {
      rsi: 0.7,
      macd: 0.9,
      bollinger: 0.8,
      vwap: 0.6,
      sma: 1,
      headAndShoulders: 0.5,
      fib: 0.4,
    }
    const expected = 0.15 * 0.7 + 0.2 * 0.9 + 0.15 * 0.8 + 0.1 * 0.6 + 0.15 * 1 + 0.15 * 0.5 + 0.1 * 0.4
    const b = blendSentiment(parts)
    expect(b.sentiment).toBeCloseTo(expected, 4)
    expect(b).toMatchObject({ bias: 'long' })
    expect(b.conviction).toBeCloseTo(2 * ((b.sentiment as number) - 0.5), 4)
  })

  test('behavior: a missing part drops out and the others are renormalized', () => {
    const b = blendSentiment({ ...neutral, vwap: null, macd: 1 })
    expect(b.sentiment).toBeCloseTo(0.5 + (0.5 * 0.2) / 0.9, 4)
  })

  test('behavior: bias thresholds are inclusive at 0.55 and 0.45; no parts, no sentiment', () => {
    // Every part equal to s blends to s.
    const all = (s: number): SignalParts => ({
      rsi: s,
      macd: s,
      bollinger: s,
      vwap: s,
      sma: s,
      headAndShoulders: s,
      fib: s,
    })
    expect(blendSentiment(all(0.55))).toEqual({ sentiment: 0.55, bias: 'long', conviction: 0.1 })
    expect(blendSentiment(all(0.5499))).toMatchObject({ bias: 'neutral' })
    expect(blendSentiment(all(0.45))).toEqual({ sentiment: 0.45, bias: 'short', conviction: 0.1 })
    expect(blendSentiment(all(0.4501))).toMatchObject({ bias: 'neutral' })
    expect(blendSentiment(all(0))).toEqual({ sentiment: 0, bias: 'short', conviction: 1 })
    const none: SignalParts = {
      rsi: null,
      macd: null,
      bollinger: null,
      vwap: null,
      sma: null,
      headAndShoulders: null,
      fib: null,
    }
    expect(blendSentiment(none)).toEqual({ sentiment: null, bias: null, conviction: null })
  })
})
