import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { type Address, erc20Abi, type Hex, keccak256, toHex } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { propExecuteRoute } from '../../src/routes/prop/propExecute.js'
import { createDatabase } from '../../src/store/database.js'
import { createPropBook } from '../../src/store/propBook.js'
import { walletOf } from '../helpers/attackKit.js'
import { authorize } from '../helpers/authorize.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { type CreditWallet, paidFetch, transferUtil, utilWallet } from '../helpers/creditKit.js'
import { errorOf } from '../helpers/errorOf.js'
import * as kit from '../helpers/propKit.js'
import { challengeOf, encodePayment, type Instance, useInstance, useWorld } from '../helpers/serviceWorld.js'
import { testDatabase } from '../helpers/testDatabase.js'
import { channelOf, depositAs, voucherHeader } from '../helpers/voucherKit.js'

// A second round of attacks on the prop desk (issue 25 review): races across two instances on one database,
// parameter injection, a position still pending fill, a day-old transfer, and acting as another wallet
// through a batch-settlement channel. Each checks the desk's USDC and trades, the member's USDC and the rows.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const sw = useWorld()
const svc = useInstance(sw, { PROP_COOLDOWN_SECONDS: '0' })

const { DESK, MEMBER_UTIL } = kit
const EXECUTE_PRICE = usdToAtomic(propExecuteRoute.priceUsd as number)
const COLLATERAL = 100_000_000n

// The kit's helpers, bound to this file's world and instance.
const ethPrice = () => kit.ethPrice(sw)
const post = (w: CreditWallet, path: string, body: unknown, url = svc.url) => kit.post(w, url, path, body)
const payFor = (w: CreditWallet, actionId: string, params: unknown, burn = false) =>
  kit.payFor(sw, w, svc.url, actionId, params, burn)
const json = kit.json

async function openParams() {
  const mark = await ethPrice()
  return { pairIndex: 1, long: true, leverage: 5, collateralUsdc: 100, markPrice: mark }
}

/** The member's executed desk actions, read from `instance`'s own database. */
async function executedCount(instance: Pick<Instance, 'config'>, member: Address): Promise<number> {
  const db = await createDatabase({ databaseUrl: instance.config.storage.databaseUrl, dataDir: 'memory://' })
  try {
    return await createPropBook(db).executedCount(member)
  } finally {
    await db.close()
  }
}

/**
 * What a refusal must leave alone: the member's USDC and the desk's (every open pulls its collateral from the
 * desk at once). The desk's trade count is not used: the world's keeper fills earlier tests' orders at any time.
 */
async function money(w: CreditWallet) {
  return { member: await sw.usdcBalance(w.account.address), desk: await sw.usdcBalance(DESK) }
}

/** Executes `body` and expects a refusal that charged and moved nothing. */
async function refused(w: CreditWallet, body: unknown, status: number, code: string, field?: string) {
  const before = await money(w)
  const res = await post(w, '/v1/prop/execute', body)
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  const error = errorOf(res.body)
  expect(error?.code).toBe(code)
  if (field !== undefined) expect(error?.field).toBe(field)
  expect(await money(w)).toEqual(before)
  return error
}

describe('parameter injection and wrong transfers: refused free, the transfer left unclaimed', () => {
  test('attack: params.owner, a LIMIT order, an unknown key, extra close keys; then the same transfer opens once', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const hash = await payFor(member, 'trade.open', params)
    const attacker = '0x000000000000000000000000000000000000bEEF'
    const tries: [Record<string, unknown>, string][] = [
      [{ ...params, owner: attacker }, 'params.owner'],
      [{ ...params, tradeType: 1, triggerPrice: params.markPrice * 0.5 }, 'params.tradeType'],
      [{ ...params, tradeType: 2, triggerPrice: params.markPrice * 2 }, 'params.tradeType'],
      [{ ...params, referrer: attacker }, 'params'],
      [{ ...params, collateralUsdc: -100 }, 'params.collateralUsdc'],
    ]
    for (const [bad, field] of tries) {
      const error = await refused(
        member,
        { actionId: 'trade.open', params: bad, payTxHash: hash },
        400,
        'invalid_input',
      )
      expect(error?.field?.startsWith(field), `${error?.field} for ${JSON.stringify(bad)}`).toBe(true)
    }
    await refused(
      member,
      {
        actionId: 'trade.close',
        params: { positionId: 1, expectedPrice: 1, owner: attacker },
        payTxHash: hash,
      },
      400,
      'invalid_input',
    )
    // The body itself is strict too: a second authorizing hash or an owner beside params is refused.
    await refused(
      member,
      { actionId: 'trade.open', params, payTxHash: hash, owner: attacker },
      400,
      'invalid_input',
    )

    const desk = await sw.usdcBalance(DESK)
    const ok = await post(member, '/v1/prop/execute', { actionId: 'trade.open', params, payTxHash: hash })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.member).toBe(member.account.address)
    expect(await sw.usdcBalance(DESK)).toBe(desk - COLLATERAL)
  })

  test('attack: a burn presented as payTxHash and a USDC transfer to the desk are refused; the burn still authorizes as burnTxHash', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const burn = await payFor(member, 'trade.open', params, true)
    const error = await refused(
      member,
      { actionId: 'trade.open', params, payTxHash: burn },
      422,
      'bad_pay_tx_hash',
    )
    expect(error?.details?.reason).toBe('wrong_destination')
    const usdc = await walletOf(sw, member.privateKey).writeContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [DESK, 1_000n],
    })
    await pollReceipt(sw.chain, usdc, RECEIPT)
    const notUtil = await refused(
      member,
      { actionId: 'trade.open', params, payTxHash: usdc },
      422,
      'bad_pay_tx_hash',
    )
    expect(notUtil?.details?.reason).toBe('wrong_token')
    // The burn was not claimed by the refusal: it still authorizes as what it is.
    const ok = await post(member, '/v1/prop/execute', { actionId: 'trade.open', params, burnTxHash: burn })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
  })
})

describe('a position not filled yet', () => {
  test('attack: trade.close of a position still pending fill is 409 prop_position_pending, free, and its transfer stays unclaimed', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const db = await createDatabase({ databaseUrl: svc.config.storage.databaseUrl, dataDir: 'memory://' })
    const book = createPropBook(db)
    try {
      // An executed open whose market order the venue has not filled (an order index it never gave).
      const claimed = await book.claim({
        member: member.account.address,
        action: 'trade.open',
        // Half the allotment: it counts as open (never filled), and the open below still fits beside it.
        params: { ...(await openParams()), collateralUsdc: 50 },
        authTxHash: keccak256(toHex(`pending-${Date.now()}`)),
        authKind: 'pay',
        utilAmount: 1n,
        plannedSteps: 1,
        cooldownSec: 0,
      })
      if (claimed.kind !== 'claimed') throw new Error(claimed.kind)
      const openBlock = Number(await sw.chain.getBlockNumber())
      await book.finish(claimed.id, {
        deskTxs: [],
        position: { state: 'pending_fill', openBlock, orderIndex: 999_999 },
      })

      const close = { positionId: claimed.id, expectedPrice: await ethPrice() }
      const hash = await payFor(member, 'trade.close', close)
      await refused(
        member,
        { actionId: 'trade.close', params: close, payTxHash: hash },
        409,
        'prop_position_pending',
      )
      expect(await book.closing(claimed.id)).toBe(false)
      // A $1 close transfer carries a $1 open's cost: it was never claimed, so it still authorizes one.
      const params = { ...(await openParams()), collateralUsdc: 50 }
      const ok = await post(member, '/v1/prop/execute', { actionId: 'trade.open', params, payTxHash: hash })
      expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    } finally {
      await db.close()
    }
  })
})

describe('a transfer 24 hours old', () => {
  test('attack: a payTxHash whose block is a day old (an instance clock 25 h ahead) is too_old, free', async () => {
    const ahead = 25 * 3600 * 1000
    const late = await sw.instance({ PROP_COOLDOWN_SECONDS: '0' }, { clock: () => Date.now() + ahead })
    try {
      const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
      const params = await openParams()
      const hash = await payFor(member, 'trade.open', params)
      const init = json({ actionId: 'trade.open', params, payTxHash: hash })
      const challenge = await challengeOf(`${late.url}/v1/prop/execute`, init)
      const nowSec = BigInt(Math.floor((Date.now() + ahead) / 1000))
      const { payload } = await authorize(
        member.privateKey,
        challenge.accepts[0] as PaymentPayload['accepted'],
        {
          to: late.config.payTo,
          validAfter: nowSec - 60n,
          validBefore: nowSec + 100n,
        },
      )
      const before = await money(member)
      const res = await fetch(`${late.url}/v1/prop/execute`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), 'PAYMENT-SIGNATURE': encodePayment(payload) },
      })
      const body = (await res.json()) as unknown
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(errorOf(body)).toMatchObject({ code: 'bad_pay_tx_hash', details: { reason: 'too_old' } })
      expect(await money(member)).toEqual(before)
    } finally {
      await late.stop()
    }
  })
})

describe('two instances sharing one PostgreSQL (and one desk key)', () => {
  let a: Instance
  let b: Instance
  let dropDb: () => Promise<void>
  beforeAll(async () => {
    const db = await testDatabase()
    dropDb = db.drop
    const shared = { DATABASE_URL: db.url, REDIS_URL, PROP_COOLDOWN_SECONDS: '3600' }
    a = await sw.instance(shared)
    b = await sw.instance(shared)
  }, 120_000)
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    await dropDb?.()
  })

  const execute = (w: CreditWallet, i: number, params: unknown, hash: Hex) =>
    post(w, '/v1/prop/execute', { actionId: 'trade.open', params, payTxHash: hash }, (i % 2 ? a : b).url)

  test('attack: one payTxHash executed 6 times at once on both instances runs one action, with the desk’s USDC once', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const hash = await payFor(member, 'trade.open', params)
    const desk = await sw.usdcBalance(DESK)
    const usdc = await sw.usdcBalance(member.account.address)
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => execute(member, i, params, hash)))
    const ok = answers.filter((r) => r.status === 200)
    expect(ok, JSON.stringify(answers.map((r) => [r.status, errorOf(r.body)?.code]))).toHaveLength(1)
    // The losers met the claim (used) or the member's cooldown it started: both free.
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(['bad_pay_tx_hash', 'prop_cooldown']).toContain(errorOf(r.body)?.code)
    }
    // One market order from the desk (the venue fills it later): its collateral, once.
    expect(await sw.usdcBalance(DESK)).toBe(desk - COLLATERAL)
    expect(await sw.usdcBalance(member.account.address)).toBe(usdc - EXECUTE_PRICE)
    expect(await executedCount(a, member.account.address)).toBe(1)
  })

  test('attack: the cooldown is not bypassed by 4 concurrent executes with 4 different transfers on both instances', async () => {
    const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const hashes: Hex[] = []
    for (let i = 0; i < 4; i++) hashes.push(await payFor(member, 'trade.open', params))
    const desk = await sw.usdcBalance(DESK)
    const usdc = await sw.usdcBalance(member.account.address)
    const answers = await Promise.all(hashes.map((hash, i) => execute(member, i, params, hash)))
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1)
    expect(answers.filter((r) => errorOf(r.body)?.code === 'prop_cooldown')).toHaveLength(3)
    expect(await sw.usdcBalance(DESK)).toBe(desk - COLLATERAL)
    expect(await sw.usdcBalance(member.account.address)).toBe(usdc - EXECUTE_PRICE)
    expect(await executedCount(a, member.account.address)).toBe(1)
  })
})

describe('acting as another wallet through batch-settlement', () => {
  test('attack: a channel naming the victim as payer, funded by the attacker’s own collector and authorized by the attacker’s key, runs no desk action for the victim', async () => {
    // The victim quoted and sent the UTIL for a long; before it executes, the attacker spends that transfer
    // as the victim, for a trade of its own choosing (a short at the allotment's limit).
    const victim = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
    const params = await openParams()
    const hash = await payFor(victim, 'trade.open', params)
    const theirs = { ...params, long: false, leverage: 10 }

    const attacker = await sw.freshWallet(1_000_000n, 10n ** 17n)
    const body = { actionId: 'trade.open', params: theirs, payTxHash: hash }
    const challenge = await challengeOf(`${svc.url}/v1/prop/execute`, json(body))
    const requirements = challenge.accepts.find((r) => r.scheme === 'batch-settlement') as PaymentRequirements
    expect(requirements).toBeDefined()
    const channelConfig = channelOf(requirements, victim.account.address, attacker.account.address)
    await depositAs(sw, attacker.privateKey, channelConfig, BigInt(requirements.amount) * 10n)
    const header = await voucherHeader(sw.chain, requirements, channelConfig, attacker.privateKey)
    const before = await money(victim)
    const res = await fetch(`${svc.url}/v1/prop/execute`, {
      ...json(body),
      headers: {
        'content-type': 'application/json',
        'PAYMENT-SIGNATURE': header,
      },
    })
    const answer = (await res.json()) as Record<string, unknown>
    // The desk must not have traded for the victim on the attacker's word.
    expect(await money(victim), JSON.stringify(answer)).toEqual(before)
    expect(await executedCount(svc, victim.account.address)).toBe(0)
    expect(res.status).not.toBe(200)
    // The victim's own transfer still authorizes the victim's own action.
    const own = await post(victim, '/v1/prop/execute', { actionId: 'trade.open', params, payTxHash: hash })
    expect(own.status, JSON.stringify(own.body)).toBe(200)
  })
})

describe('one transfer, two single-use registries', () => {
  test('attack: with UTIL_CREDIT_RECIPIENT set to the desk recipient, a transfer that authorized a desk action is not credited as a top-up too', async () => {
    // Both recipients are operator settings; nothing stops them being one address (a treasury collecting all
    // UTIL). Each registry keeps its own hashes single-use, and neither looks at the other's.
    const shared = await sw.instance({ PROP_COOLDOWN_SECONDS: '0', UTIL_CREDIT_RECIPIENT: DESK })
    try {
      const member = await utilWallet(sw, 1_000_000n, MEMBER_UTIL)
      const params = await openParams()
      const quote = await post(member, '/v1/prop/quote', { actionId: 'trade.open', params }, shared.url)
      expect((quote.body.send as { agents: { to: Address } }).agents.to).toBe(DESK)
      const hash = await transferUtil(
        sw.chain,
        member.privateKey,
        DESK,
        BigInt(quote.body.utilCost as string),
      )
      const desk = await sw.usdcBalance(DESK)
      const executed = await post(
        member,
        '/v1/prop/execute',
        { actionId: 'trade.open', params, payTxHash: hash },
        shared.url,
      )
      expect(executed.status, JSON.stringify(executed.body)).toBe(200)
      expect(await sw.usdcBalance(DESK)).toBe(desk - COLLATERAL)

      // The same transfer presented as a top-up: it already paid for the desk action.
      const res = await paidFetch(member, { 'X-UTIL-TOPUP': hash })(`${shared.url}/v1/prices?symbols=ETH`)
      await res.body?.cancel()
      const statement = (await (
        await fetch(`${shared.url}/v1/util-credit/${member.account.address}`)
      ).json()) as {
        balanceAtomic: string
        topUps: unknown[]
      }
      expect(statement.topUps).toEqual([])
      expect(statement.balanceAtomic).toBe('0')
      expect(res.status).not.toBe(200)
    } finally {
      await shared.stop()
    }
  })
})
