import { wrapFetchWithPayment } from '@x402/fetch'
import { expect } from 'vitest'
import { errorOf } from './errorOf.js'
import type { Fault } from './httpFaultProxy.js'
import { challengeOf, type Instance, type ServiceWorld } from './serviceWorld.js'

// What the upstream fault tests share (test/http/upstreamFaults.attacks.test.ts,
// test/http/everyUpstreamFaults.attacks.test.ts): a call paid with the official x402 client, measured
// (status, code, Retry-After, time, USDC lost onchain, ledger rows), and the answer a fault must give.

/** Every failure the fault proxy can put in front of an upstream, "late" meaning past `timeoutMs`. */
export function faultsPast(timeoutMs: number): Record<string, Fault> {
  return {
    latency: { kind: 'latency', ms: 3 * timeoutMs },
    '503': { kind: 'status', status: 503 },
    '500': { kind: 'status', status: 500 },
    garbage: { kind: 'garbage' },
    reset: { kind: 'reset' },
    hang: { kind: 'hang' },
    stall: { kind: 'stall' },
  }
}

export type Wallet = Awaited<ReturnType<ServiceWorld['freshWallet']>>

export interface Outcome {
  status: number
  code: string | undefined
  retryAfter: string | null
  ms: number
  /** Atomic USDC the payer lost on the call (read onchain). */
  charged: bigint
  /** The payer's ledger rows after the call (all of them, not only this call's). */
  rows: number
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: unknown
}

/** One call paid with the official x402 client: what it answered, how long it took, what it cost. */
export async function paidCall(sw: ServiceWorld, on: Instance, who: Wallet, path: string): Promise<Outcome> {
  const before = await sw.usdcBalance(who.account.address)
  const pay = wrapFetchWithPayment(fetch, who.client)
  const started = performance.now()
  const res = await pay(`${on.url}${path}`)
  const text = await res.text()
  const ms = performance.now() - started
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return {
    status: res.status,
    code: errorOf(body)?.code,
    retryAfter: res.headers.get('retry-after'),
    ms,
    charged: before - (await sw.usdcBalance(who.account.address)),
    rows: (await on.services.deps.ledger.byPayer(who.account.address)).length,
    body,
  }
}

/**
 * The 502/503 a fault must answer: a positive whole Retry-After, within `boundMs`, nothing charged, and
 * the payer's rows still `rows` (no row for this call).
 */
export function expectUnchargedFault(o: Outcome, boundMs: number, label: string, rows = 0) {
  expect(
    {
      status: [502, 503].includes(o.status),
      retryAfter: /^[1-9][0-9]*$/.test(o.retryAfter ?? ''),
      withinBound: o.ms < boundMs,
      charged: o.charged,
      rows: o.rows,
    },
    `${label}: ${o.status} ${o.code} in ${Math.round(o.ms)} ms, Retry-After ${o.retryAfter}`,
  ).toEqual({ status: true, retryAfter: true, withinBound: true, charged: 0n, rows })
}

/** The price the route's challenge names, in atomic USDC. */
export async function priceOf(on: Instance, path: string): Promise<bigint> {
  const accepts = (await challengeOf(`${on.url}${path}`)).accepts[0]
  if (accepts === undefined) throw new Error(`no payment option for ${path}`)
  return BigInt(accepts.amount)
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
