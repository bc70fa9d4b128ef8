import type { PaymentPayload } from '@x402/core/types'
import { createTestClient, http, parseGwei } from 'viem'
import { encodePayment, type ServiceWorld } from './serviceWorld.js'

/** What an attack test reads of an answer: the status, the error code, the headers. */
export interface Answer {
  status: number
  code: string | undefined
  headers: Headers
}

export async function send(
  url: string,
  headers: Record<string, string>,
  init: RequestInit = {},
): Promise<Answer> {
  const res = await fetch(url, { ...init, headers })
  const text = await res.text()
  let code: string | undefined
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code
  } catch {
    code = undefined
  }
  return { status: res.status, code, headers: res.headers }
}

export const pay = (url: string, payload: PaymentPayload, extra: Record<string, string> = {}) =>
  send(url, { 'PAYMENT-SIGNATURE': encodePayment(payload), ...extra })

/** A client address of its own per test, behind TRUST_PROXY=1 (the rightmost X-Forwarded-For entry). */
export const clientIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`

export const count = (answers: Answer[], pick: (a: Answer) => boolean) => answers.filter(pick).length

/** Outbids the relayer: with automine off, the block orders transactions by tip. */
export const HIGH_TIP = {
  gas: 150_000n,
  maxPriorityFeePerGas: parseGwei('50'),
  maxFeePerGas: parseGwei('100'),
}

/** Runs `body` with anvil's automine off (blocks only when the test mines them). */
export async function withoutAutomine<T>(
  sw: ServiceWorld,
  body: (mine: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const testClient = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
  await testClient.setAutomine(false)
  try {
    return await body(() => testClient.mine({ blocks: 1 }))
  } finally {
    await testClient.setAutomine(true)
  }
}

/** Waits until the pending block holds at least `count` transactions. */
export async function waitForPendingTx(sw: ServiceWorld, count: number, timeoutMs = 4_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const block = await sw.chain.getBlock({ blockTag: 'pending' })
    if (block.transactions.length >= count) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`expected ${count} pending transactions`)
}

/** How many transactions the pending block holds now. */
export async function pendingTxCount(sw: ServiceWorld): Promise<number> {
  return (await sw.chain.getBlock({ blockTag: 'pending' })).transactions.length
}
