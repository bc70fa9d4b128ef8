import { writeFileSync } from 'node:fs'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { PaymentRequired } from '@x402/core/types'
import { wrapFetchWithPayment } from '@x402/fetch'
import { describe, expect, test } from 'vitest'
import { usdToAtomic } from '../src/payments/usdToAtomic.js'
import type { Route } from '../src/routes/route.js'
import { creditOf, transferUtil, utilWallet } from './helpers/creditKit.js'
import { FUZZED, fuzzCases, inputNames } from './helpers/fuzzCases.js'
import { useMcpClient } from './helpers/mcpKit.js'
import { type payerClient, useInstance, useWorld } from './helpers/serviceWorld.js'

// Malformed requests over every priced route, over HTTP and MCP, each PAID with a valid authorization
// signed by the official x402 client for the challenge it got, so it gets past the payment gate to
// validation (issue 28). Seeded and repeatable. Asserted per answer: never a 5xx; every 400 names a field of
// the route (or says which is not allowed). Asserted on money: the USDC the payers lost and the UTIL credit
// they were debited equal exactly what the answers served (200s) cost, per their receipts; every refusal
// cost nothing. And the service answers afterwards. `FUZZ_CASES` (default 300) sets the size: the full
// 10,000-request run is `npm run fuzz`, which also writes its counts to `FUZZ_RESULTS`.
const CASES = Number(process.env.FUZZ_CASES ?? 300)
const SEED = Number(process.env.FUZZ_SEED ?? 20261127)
const sw = useWorld()
const svc = useInstance(sw)
const mcp = useMcpClient(svc, 'agentdesk-fuzz')
const PRICED = FUZZED.filter((r) => r.priceUsd !== null)

type Who = ReturnType<typeof payerClient>
type ErrorBody = { error?: { code?: string; field?: string; message?: string } }

/** A payer whose every payment is recorded: the amount of the requirements it last signed. */
function recordingPayer(who: Who) {
  let lastAmount = 0n
  who.client.onAfterPaymentCreation(async ({ selectedRequirements }) => {
    lastAmount = BigInt(selectedRequirements.amount)
  })
  return {
    who,
    pay: wrapFetchWithPayment(fetch, who.client),
    /** The amount of the payment made for the last request, then forgets it. */
    take: () => {
      const amount = lastAmount
      lastAmount = 0n
      return amount
    },
  }
}

/** A 400 must name a field of the route, or the body, or say which property is not allowed. */
function namesItsField(route: Route | undefined, body: ErrorBody): boolean {
  const field = body.error?.field
  if (field === undefined || field === '') return false
  const known = route === undefined ? ['body'] : [...inputNames(route), 'body']
  return (
    known.includes(String(field).split('.')[0] as string) || /is not allowed/.test(body.error?.message ?? '')
  )
}

describe('paid fuzz', () => {
  test(
    `behavior: ${CASES} malformed paid requests (HTTP and MCP, seed ${SEED}): no 5xx, every 400 names its field, only answers served cost anything`,
    async () => {
      const cases = fuzzCases(SEED, PRICED)
      const usdcPayer = recordingPayer(await sw.freshWallet(1_000_000_000n))
      // The credit payer holds UTIL credit: its calls ride on credit (half price), or USDC once it is short.
      const creditWallet = await utilWallet(sw, 1_000_000_000n, 10n ** 24n)
      const topUp = await transferUtil(
        sw.chain,
        creditWallet.privateKey,
        svc.config.payments.creditRecipient,
        10n ** 24n,
      )
      const creditPayer = recordingPayer(creditWallet)
      const first = await creditPayer.pay(`${svc.url}/v1/prices?symbols=ETH`, {
        headers: { 'X-UTIL-TOPUP': topUp },
      })
      expect(first.status).toBe(200)
      await first.body?.cancel()
      creditPayer.take()

      const payers = [usdcPayer, creditPayer]
      const usdcBefore = await Promise.all(payers.map((p) => sw.usdcBalance(p.who.account.address)))
      const creditBefore = (await creditOf(svc.url, creditWallet.account.address)).balanceAtomic
      const spent = { usdc: [0n, 0n], credit: 0n }
      const statuses: Record<string, number> = {}
      const problems: string[] = []
      const count = (key: string) => {
        statuses[key] = (statuses[key] ?? 0) + 1
      }

      for (let i = 0; i < CASES; i++) {
        if (i % 4 === 3) {
          // MCP: the unpaid call answers the PaymentRequired; the retry pays it in _meta["x402/payment"].
          const c = cases.mcp(PRICED)
          const where = `case ${i}: MCP ${c.tool} ${JSON.stringify(c.args).slice(0, 200)}`
          const call = (meta?: Record<string, unknown>) =>
            mcp().callTool({ name: c.tool, arguments: c.args, ...(meta ? { _meta: meta } : {}) }) as Promise<
              Awaited<ReturnType<Client['callTool']>> & { structuredContent?: Record<string, unknown> }
            >
          const unpaid = await call()
          const required = unpaid.structuredContent as unknown as PaymentRequired | undefined
          const refusal = (unpaid.structuredContent as ErrorBody | undefined)?.error
          if (required?.accepts === undefined && refusal?.field !== undefined) {
            // Refused before any payment, naming the field (e.g. a challenge too long to carry): free.
            count(`mcp unpaid ${refusal.code}`)
            continue
          }
          if (required?.accepts === undefined) {
            problems.push(
              `${where}: the unpaid call answered no PaymentRequired: ${JSON.stringify(unpaid).slice(0, 400)}`,
            )
            continue
          }
          const payload = await usdcPayer.who.client.createPaymentPayload(required)
          const paid = await call({ 'x402/payment': payload })
          const error = (paid.structuredContent as ErrorBody | undefined)?.error
          count(paid.isError === true ? `mcp ${error?.code ?? 'error'}` : 'mcp ok')
          if (paid.isError !== true) spent.usdc[0] = (spent.usdc[0] ?? 0n) + BigInt(payload.accepted.amount)
          else if (error?.code === 'invalid_input' && !namesItsField(c.route, { error }))
            problems.push(`${where}: invalid_input without a known field (${error.field})`)
          continue
        }
        const c = cases.http()
        const payer = payers[i % 2] as (typeof payers)[number]
        const where = `case ${i}: ${c.method} ${c.url.slice(0, 200)}`
        const res = await payer.pay(`${svc.url}${c.url}`, c.init).catch((err: unknown) => err as Error)
        if (res instanceof Error) {
          // The official client refuses to pay what it cannot (e.g. a challenge it does not understand).
          count(`client refused`)
          problems.push(`${where}: the client failed: ${res.message}`)
          continue
        }
        const paidAmount = payer.take()
        count(String(res.status))
        if (res.status >= 500) problems.push(`${where} → ${res.status}: ${(await res.text()).slice(0, 300)}`)
        else if (res.status === 200) {
          const receipt = payer.who.http.getPaymentSettleResponse((name) => res.headers.get(name))
          const credit = (receipt.extra as { utilCredit?: { debitedAtomic: string } } | undefined)?.utilCredit
          if (credit !== undefined) {
            // The rail's terms, computed here: half the route's posted price, rounded up, no surge.
            const half = (usdToAtomic(c.route?.priceUsd ?? 0) + 1n) / 2n
            if (BigInt(credit.debitedAtomic) !== half)
              problems.push(`${where}: credit debited ${credit.debitedAtomic}, not half the price (${half})`)
            spent.credit += BigInt(credit.debitedAtomic)
          } else spent.usdc[payers.indexOf(payer)] = (spent.usdc[payers.indexOf(payer)] ?? 0n) + paidAmount
          await res.body?.cancel()
        } else if (res.status === 402 && paidAmount > 0n) {
          // A valid payment refused after signing: the payment path broke, whatever the input.
          problems.push(`${where} → 402 after paying: ${(await res.text()).slice(0, 300)}`)
        } else {
          const body = (await res.json().catch(() => ({}))) as ErrorBody
          if (res.status === 400 && !namesItsField(c.route, body))
            problems.push(`${where} → 400 without a known field: ${JSON.stringify(body).slice(0, 300)}`)
        }
      }

      const usdcAfter = await Promise.all(payers.map((p) => sw.usdcBalance(p.who.account.address)))
      const creditAfter = (await creditOf(svc.url, creditWallet.account.address)).balanceAtomic
      const summary = {
        seed: SEED,
        cases: CASES,
        statuses,
        usdcSpent: spent.usdc.map(String),
        creditSpent: spent.credit.toString(),
        problems: problems.length,
      }
      if (process.env.FUZZ_RESULTS !== undefined)
        writeFileSync(process.env.FUZZ_RESULTS, JSON.stringify(summary, null, 2))
      expect(problems, JSON.stringify(summary)).toEqual([])
      // Money: each payer lost exactly what its served answers cost; refusals moved nothing.
      expect(usdcBefore.map((b, i) => b - (usdcAfter[i] ?? 0n))).toEqual(spent.usdc)
      expect(BigInt(creditBefore) - BigInt(creditAfter)).toBe(spent.credit)
      // The corpus mostly exercised validation, past the payment gate.
      expect(statuses['400'] ?? 0).toBeGreaterThan(CASES / 4)
      // And the service still answers: a health check, and an honest paid call.
      expect((await fetch(`${svc.url}/health`)).status).toBe(200)
      const ok = await usdcPayer.pay(`${svc.url}/v1/prices?symbols=BTC`)
      expect(ok.status).toBe(200)
    },
    Math.max(300_000, CASES * 200),
  )
})
