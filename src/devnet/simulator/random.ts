/**
 * Counter-based randomness: every random number is a pure function of a few integer coordinates
 * (seed, symbol key, level, index). No draw depends on how many draws came before it, so any
 * candle at any time can be produced without replaying history, in any order, in any process.
 */

/** 32-bit avalanche (murmur3 finalizer). */
function fmix32(input: number): number {
  let h = input >>> 0
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

function absorb(h: number, part: number): number {
  // Coordinates such as minute indices stay below 2^32, but seeds or keys may not.
  const hi = Math.floor(part / 0x1_0000_0000) >>> 0
  return fmix32((fmix32(h ^ (part >>> 0)) + hi + 0x6d2b79f5) >>> 0)
}

/** Hashes four integer coordinates (each up to 2^53) into one uint32. */
export function hash32(a: number, b: number, c: number, d: number): number {
  return absorb(absorb(absorb(absorb(0x9e3779b9, a), b), c), d)
}

/** FNV-1a of a string, used to turn a symbol into a stable integer key. */
export function stringKey(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** A small sequential stream (mulberry32) seeded from one coordinate hash. */
export interface RandomStream {
  /** Uniform in (0, 1), never exactly 0 so that logs are finite. */
  uniform(): number
  /** Standard normal (Box–Muller). */
  normal(): number
  /** Exponential with mean 1. */
  exponential(): number
}

export function createRandomStream(seed: number): RandomStream {
  let state = seed >>> 0
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    const u = ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000
    return u === 0 ? 2 ** -33 : u
  }
  return {
    uniform,
    normal: () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()),
    exponential: () => -Math.log(uniform()),
  }
}

/**
 * One standard normal addressed by four coordinates. Hot path (thousands per symbol for the daily
 * walk), so it avoids the stream's closures and the rest-parameter array.
 */
export function normalAt(a: number, b: number, c: number, d: number): number {
  const h = hash32(a, b, c, d)
  const u1 = (fmix32(h ^ 0x68e31da4) + 1) / 0x1_0000_0001
  const u2 = fmix32(h ^ 0xb5297a4d) / 0x1_0000_0000
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2)
}
