import { expect } from 'vitest'
import { errorOf } from './errorOf.js'

/** What a refusal must look like: the status, and the code, field, message and details where given. */
export interface Refusal {
  status: number
  code?: string
  field?: string
  message?: RegExp
  /** Matched with toMatchObject: the keys given must be there with these values, others may be too. */
  details?: Record<string, unknown>
  /** Named in every failure message (the case of a table). */
  name?: string
  /**
   * Readings a refused call must leave as they were (a balance, the payer's ledger rows). Without
   * `before`, the reading is taken first, so the call must be passed as a function to be made after it.
   */
  untouched?: readonly Reading[]
}

export interface Reading {
  read: () => Promise<unknown>
  before?: unknown
}

/**
 * An answer as the tests read it. `charged` (what the payer's USDC lost), the PAYMENT-RESPONSE header
 * and `receipt` (that header, read by the caller) are the witnesses that nothing was charged.
 */
export interface RefusedAnswer {
  status: number
  body: unknown
  charged?: bigint
  headers?: Headers
  receipt?: string | null
}

/**
 * Expects `call` refused as `want` says and free: charged nothing, no settlement receipt, every
 * `untouched` reading as it was. Returns the answer (its error to check further).
 */
export async function expectRefused<A extends RefusedAnswer>(
  call: A | Promise<A> | (() => Promise<A>),
  want: Refusal,
): Promise<A> {
  const readings = want.untouched ?? []
  const before = await Promise.all(readings.map((r) => ('before' in r ? r.before : r.read())))
  const answer = await (typeof call === 'function' ? call() : call)
  const error = errorOf(answer.body)
  const label = `${want.name === undefined ? '' : `${want.name}: `}${JSON.stringify(error ?? answer.body).slice(0, 400)}`
  const witnesses =
    answer.charged !== undefined || answer.headers !== undefined || answer.receipt !== undefined
  if (!witnesses && readings.length === 0)
    throw new Error('expectRefused: nothing in the answer shows what it cost')

  expect(answer.status, label).toBe(want.status)
  if (want.code !== undefined) expect(error?.code, label).toBe(want.code)
  if (want.field !== undefined) expect(error?.field, label).toBe(want.field)
  if (want.message !== undefined) expect(error?.message, label).toMatch(want.message)
  if (want.details !== undefined) expect(error?.details, label).toMatchObject(want.details)
  if (answer.charged !== undefined) expect(answer.charged, label).toBe(0n)
  if (answer.headers !== undefined) expect(answer.headers.get('payment-response'), label).toBeNull()
  if (answer.receipt !== undefined) expect(answer.receipt, label).toBeNull()
  for (const [i, r] of readings.entries()) expect(await r.read(), label).toEqual(before[i])
  return answer
}

/** Expects each answer refused as the case at its index says (the tables of attack tests). */
export async function expectEachRefused(
  answers: readonly RefusedAnswer[],
  cases: readonly Refusal[],
): Promise<void> {
  expect(answers).toHaveLength(cases.length)
  for (const [i, answer] of answers.entries()) await expectRefused(answer, cases[i] as Refusal)
}
