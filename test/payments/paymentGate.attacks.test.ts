import { decodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentPayload } from '@x402/core/types'
import {
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  parseAbi,
  parseGwei,
  parseSignature,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { BALANCE_TTL_MS } from '../../src/payments/exact/fundsGuard.js'
import { SETTLEMENT_VISIBILITY_LAG_MS } from '../../src/store/sharedState.js'
import {
  type Answer,
  cancelAuthorization,
  clientIp,
  count,
  HIGH_TIP,
  pay,
  send,
  waitForPendingTx,
  withoutAutomine,
} from '../helpers/attackKit.js'
import { authorize } from '../helpers/authorize.js'
import { challengeOf, encodePayment, signChallenge, useWorld } from '../helpers/serviceWorld.js'
import { withinOneWindow } from '../helpers/withinOneWindow.js'

/**
 * The payment gate under attack, on the devnet: each test performs one attack of the security review
 * (issue 8) against a running instance, with real USDC, and asserts the money and the ledger rows.
 */
const sw = useWorld()
const payTo = demoAccounts[9]?.address as `0x${string}`
const PRICES = '/v1/prices?symbols=BTC'

const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11'
const MULTICALL3_ABI = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
])
const USDC_CANCEL = parseAbi([
  'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
])

/** `transferWithAuthorization` calldata for a hand-signed authorization, as anyone holding it can submit. */
function transferCalldata(a: Awaited<ReturnType<typeof authorize>>): Hex {
  const sig = parseSignature(a.signature)
  const m = a.message
  return encodeFunctionData({
    abi: USDC_CANCEL,
    functionName: 'transferWithAuthorization',
    args: [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, Number(sig.v), sig.r, sig.s],
  })
}

describe('flaw 1: the reconciler decides from the transfer, not from authorizationState', () => {
  test('error: an authorization cancelled while its settlement is pending is recorded unpaid, and the referrer is not credited', async () => {
    const svc = await sw.instance({ SETTLE_TIMEOUT_MS: '1000', RECONCILE_INTERVAL_MS: '600000' })
    const referrer = privateKeyToAccount(generatePrivateKey()).address
    const who = await sw.freshWallet(1_000_000n, 10n ** 18n)
    const url = `${svc.url}${PRICES}&ref=${referrer}`
    const payload = await signChallenge(who, await challengeOf(url))
    const nonce = (payload.payload.authorization as { nonce: Hex }).nonce
    const [payerBefore, payToBefore] = await Promise.all([
      sw.usdcBalance(who.account.address),
      sw.usdcBalance(payTo),
    ])

    const canceller = createWalletClient({
      account: who.account,
      chain: base,
      transport: http(sw.world.rpcUrl),
    })
    const receipt = await withoutAutomine(sw, async (mine) => {
      const res = await pay(url, payload)
      expect(res.status).toBe(200)
      const served = decodePaymentResponseHeader(res.headers.get('payment-response') as string)
      expect(served).toMatchObject({ success: false, errorReason: 'settlement_pending' })

      // The payer cancels the nonce with a higher tip: the cancel is mined first, the settlement reverts.
      const cancel = await canceller.writeContract({
        ...(await cancelAuthorization(who.account, nonce)),
        gas: 100_000n,
        maxPriorityFeePerGas: parseGwei('50'),
        maxFeePerGas: parseGwei('100'),
      })
      await waitForPendingTx(sw, 2)
      await mine()
      expect((await sw.chain.getTransactionReceipt({ hash: cancel })).status).toBe('success')
      return served
    })
    const settlement = await sw.chain.getTransactionReceipt({ hash: receipt.transaction as Hex })
    expect(settlement.status).toBe('reverted')
    expect(await sw.usdcBalance(who.account.address)).toBe(payerBefore)
    expect(await sw.usdcBalance(payTo)).toBe(payToBefore)

    await svc.services.reconcile()
    const [row] = await svc.services.deps.ledger.byPayer(who.account.address)
    expect(row).toMatchObject({ status: 'unpaid', served: true, errorCode: 'authorization_canceled' })
    const standing = (await (await fetch(`${svc.url}/v1/referrals/${referrer}`)).json()) as {
      paidCalls: number
    }
    expect(standing.paidCalls).toBe(0)
    // The cancelled authorization can never be served again.
    expect((await pay(url, payload)).code).toBe('payment_replayed')
  })

  test('error: a second authorization with the same nonce, paying someone else, does not settle the row', async () => {
    const svc = await sw.instance({ SETTLE_TIMEOUT_MS: '1000', RECONCILE_INTERVAL_MS: '600000' })
    const who = await sw.freshWallet(1_000_000n, 10n ** 18n)
    const challenge = await challengeOf(`${svc.url}${PRICES}`)
    const accepted = challenge.accepts[0] as PaymentPayload['accepted']
    const ours = await authorize(who.privateKey, accepted)
    // Same nonce, 1 atomic unit to the payer's own second wallet: it emits AuthorizationUsed too.
    const decoy = await authorize(who.privateKey, accepted, {
      to: privateKeyToAccount(generatePrivateKey()).address,
      value: 1n,
      nonce: ours.message.nonce,
    })
    const payToBefore = await sw.usdcBalance(payTo)
    const submitter = createWalletClient({
      account: who.account,
      chain: base,
      transport: http(sw.world.rpcUrl),
    })
    await withoutAutomine(sw, async (mine) => {
      expect((await pay(`${svc.url}${PRICES}`, ours.payload)).status).toBe(200)
      await submitter.sendTransaction({ to: USDC, data: transferCalldata(decoy), ...HIGH_TIP })
      await waitForPendingTx(sw, 2)
      await mine()
    })
    expect(await sw.usdcBalance(payTo)).toBe(payToBefore)
    await svc.services.reconcile()
    expect((await svc.services.deps.ledger.byPayer(who.account.address))[0]).toMatchObject({
      status: 'unpaid',
      errorCode: 'authorization_used_elsewhere',
    })
  })

  test('behavior: a copy of our authorization submitted first by someone else still pays us, and settles the row', async () => {
    const svc = await sw.instance({ SETTLE_TIMEOUT_MS: '1000', RECONCILE_INTERVAL_MS: '600000' })
    const who = await sw.freshWallet(1_000_000n)
    const challenge = await challengeOf(`${svc.url}${PRICES}`)
    const ours = await authorize(who.privateKey, challenge.accepts[0] as PaymentPayload['accepted'])
    const frontRunner = createWalletClient({
      account: privateKeyToAccount(demoAccounts[1]?.privateKey as Hex),
      chain: base,
      transport: http(sw.world.rpcUrl),
    })
    const payToBefore = await sw.usdcBalance(payTo)
    const copy = await withoutAutomine(sw, async (mine) => {
      expect((await pay(`${svc.url}${PRICES}`, ours.payload)).status).toBe(200)
      const hash = await frontRunner.sendTransaction({ to: USDC, data: transferCalldata(ours), ...HIGH_TIP })
      await waitForPendingTx(sw, 2)
      await mine()
      return hash
    })
    expect(await sw.usdcBalance(payTo)).toBe(payToBefore + 1000n)
    await svc.services.reconcile()
    expect((await svc.services.deps.ledger.byPayer(who.account.address))[0]).toMatchObject({
      status: 'settled',
      txHash: copy,
      served: true,
    })
  })
})

describe('review: one transaction cannot pay for two authorizations', () => {
  test('error: a batch using two pending authorizations, one of them paying elsewhere, settles only the one it paid', async () => {
    const svc = await sw.instance({ SETTLE_TIMEOUT_MS: '1000', RECONCILE_INTERVAL_MS: '600000' })
    // Two payers: a payer has one settlement in flight at a time, so two pending authorizations in one
    // batch come from two wallets (the second one's owner signs the decoy).
    const who = await sw.freshWallet(1_000_000n, 10n ** 18n)
    const other = await sw.freshWallet(1_000_000n)
    const challenge = await challengeOf(`${svc.url}${PRICES}`)
    const accepted = challenge.accepts[0] as PaymentPayload['accepted']
    const first = await authorize(who.privateKey, accepted)
    const second = await authorize(other.privateKey, accepted)
    // Same nonce as the second, 1 atomic unit to someone else.
    const decoy = await authorize(other.privateKey, accepted, {
      to: privateKeyToAccount(generatePrivateKey()).address,
      value: 1n,
      nonce: second.message.nonce,
    })
    const payToBefore = await sw.usdcBalance(payTo)
    const batcher = createWalletClient({
      account: who.account,
      chain: base,
      transport: http(sw.world.rpcUrl),
    })
    const call = (a: Awaited<ReturnType<typeof authorize>>) => {
      return { target: USDC, allowFailure: false, callData: transferCalldata(a) }
    }
    await withoutAutomine(sw, async (mine) => {
      for (const a of [first, second]) expect((await pay(`${svc.url}${PRICES}`, a.payload)).status).toBe(200)
      await batcher.writeContract({
        address: MULTICALL3,
        abi: MULTICALL3_ABI,
        functionName: 'aggregate3',
        args: [[call(first), call(decoy)]],
        gas: 300_000n,
        maxPriorityFeePerGas: parseGwei('50'),
        maxFeePerGas: parseGwei('100'),
      })
      await waitForPendingTx(sw, 3)
      await mine()
    })
    // One payment's worth arrived, not two.
    expect(await sw.usdcBalance(payTo)).toBe(payToBefore + 1000n)
    await svc.services.reconcile()
    const rows = [
      ...(await svc.services.deps.ledger.byPayer(who.account.address)),
      ...(await svc.services.deps.ledger.byPayer(other.account.address)),
    ]
    const byNonce = (n: string) => rows.find((r) => r.nonce === n.toLowerCase())
    expect(byNonce(first.message.nonce)).toMatchObject({ status: 'settled' })
    expect(byNonce(second.message.nonce)).toMatchObject({
      status: 'unpaid',
      errorCode: 'authorization_used_elsewhere',
    })
  })
})

describe('flaw 2: never broadcast what cannot succeed', () => {
  test('error: ten concurrent payments from a wallet holding one payment: one 200, nine refused before the handler, one broadcast', async () => {
    const svc = await sw.instance()
    const who = await sw.freshWallet(1000n)
    const url = `${svc.url}${PRICES}`
    const challenge = await challengeOf(url)
    const payloads = await Promise.all(Array.from({ length: 10 }, () => signChallenge(who, challenge)))
    const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
    const relayerNonce = await sw.chain.getTransactionCount({ address: relayer })

    const answers = await Promise.all(payloads.map((p) => pay(url, p)))
    expect(count(answers, (a) => a.status === 200)).toBe(1)
    expect(count(answers, (a) => a.status === 402 && a.code === 'payment_insufficient_funds')).toBe(9)
    // Exactly one transaction from the relayer, and it succeeded.
    expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(relayerNonce + 1)
    expect(await sw.usdcBalance(who.account.address)).toBe(0n)
    // Rows are opened only after the handler: the nine refusals never reached it.
    const rows = await svc.services.deps.ledger.byPayer(who.account.address)
    expect(rows).toHaveLength(1)
  })

  test('error: a wallet without USDC is refused before the handler and the relayer sends nothing', async () => {
    const svc = await sw.instance()
    const broke = await sw.freshWallet(0n)
    const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
    const relayerNonce = await sw.chain.getTransactionCount({ address: relayer })
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () =>
        pay(`${svc.url}${PRICES}`, await signChallenge(broke, await challengeOf(`${svc.url}${PRICES}`))),
      ),
    )
    expect(answers.map((a) => a.code)).toEqual(Array(5).fill('payment_insufficient_funds'))
    expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(relayerNonce)
    expect(await svc.services.deps.ledger.byPayer(broke.account.address)).toHaveLength(0)
  })

  test('error: payments signed by throwaway keys are unpaid traffic: after the sender’s ceiling no balance is read for them', () =>
    withinOneWindow(async () => {
      const svc = await sw.instance({ RATE_LIMIT_UNPAID: '3', TRUST_PROXY: 'true' })
      const url = `${svc.url}${PRICES}`
      const challenge = await challengeOf(url)
      const sender = { 'x-forwarded-for': clientIp() }
      const answers: Answer[] = []
      for (let i = 0; i < 10; i++) {
        const throwaway = await authorize(
          generatePrivateKey(),
          challenge.accepts[0] as PaymentPayload['accepted'],
        )
        answers.push(await pay(url, throwaway.payload, sender))
      }
      expect(answers.map((a) => a.code)).toEqual([
        ...Array(3).fill('payment_insufficient_funds'),
        ...Array(7).fill('rate_limited'),
      ])
    }))

  test('behavior: once a pending settlement lands and is reconciled, its amount is not held twice', async () => {
    const svc = await sw.instance({ SETTLE_TIMEOUT_MS: '1000', RECONCILE_INTERVAL_MS: '600000' })
    const who = await sw.freshWallet(2000n)
    const url = `${svc.url}${PRICES}`
    await withoutAutomine(sw, async (mine) => {
      const first = await pay(url, await signChallenge(who, await challengeOf(url)))
      expect(first.status).toBe(200)
      expect(decodePaymentResponseHeader(first.headers.get('payment-response') as string)).toMatchObject({
        errorReason: 'settlement_pending',
      })
      await waitForPendingTx(sw, 1)
      await mine()
    })
    expect(await sw.usdcBalance(who.account.address)).toBe(1000n)
    await svc.services.reconcile()
    const reconciledAt = Date.now()
    expect((await svc.services.deps.ledger.byPayer(who.account.address))[0]?.status).toBe('settled')
    // Past the balance read taken before the transfer and past the settlement's visibility lag (both
    // fixed by the funds book's rules, not a race), the next balance read must not count it twice.
    const readsFresh = reconciledAt + BALANCE_TTL_MS + SETTLEMENT_VISIBILITY_LAG_MS
    await new Promise((r) => setTimeout(r, Math.max(0, readsFresh - Date.now())))
    const again = await pay(url, await signChallenge(who, await challengeOf(url)))
    expect(again.status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(0n)
  })

  test('behavior: reservations end with their calls: sequential payments spend a balance down to the last cent', async () => {
    const svc = await sw.instance()
    const who = await sw.freshWallet(3000n)
    const url = `${svc.url}${PRICES}`
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) {
      statuses.push((await pay(url, await signChallenge(who, await challengeOf(url)))).status)
    }
    expect(statuses).toEqual([200, 200, 200, 402])
    expect(await sw.usdcBalance(who.account.address)).toBe(0n)
  })
})

describe('flaw 3: nobody can spend another wallet’s paid ceiling', () => {
  test('error: a flood of replays of a victim’s used payment hits the sender’s unpaid ceiling; the victim is still served', () =>
    withinOneWindow(async () => {
      const svc = await sw.instance({ RATE_LIMIT_PAID: '5', RATE_LIMIT_UNPAID: '20', TRUST_PROXY: 'true' })
      const victim = await sw.freshWallet(1_000_000n)
      const url = `${svc.url}${PRICES}`
      const used = await signChallenge(victim, await challengeOf(url))
      expect((await pay(url, used, { 'x-forwarded-for': clientIp() })).status).toBe(200)

      const attacker = { 'x-forwarded-for': clientIp() }
      const flood: Answer[] = []
      for (let i = 0; i < 40; i++) flood.push(await pay(url, used, attacker))
      expect(count(flood, (a) => a.code === 'payment_replayed')).toBe(20)
      expect(count(flood, (a) => a.status === 429)).toBe(20)

      const fresh = await signChallenge(victim, await challengeOf(url))
      expect((await pay(url, fresh, { 'x-forwarded-for': clientIp() })).status).toBe(200)
    }))

  test('error: forged signatures naming a contract as `from` count against the sender’s unpaid ceiling, not the contract’s', () =>
    withinOneWindow(async () => {
      const svc = await sw.instance({ RATE_LIMIT_PAID: '5', RATE_LIMIT_UNPAID: '10', TRUST_PROXY: 'true' })
      const challenge = await challengeOf(`${svc.url}${PRICES}`)
      const honest = await authorize(generatePrivateKey(), challenge.accepts[0] as PaymentPayload['accepted'])
      // Multicall3 has code: the gate must ask the facilitator about such signatures.
      const contract = '0xcA11bde05977b3631167028862bE2a173976CA11'
      const forged = structuredClone(honest.payload)
      ;(forged.payload.authorization as { from: string }).from = contract
      const attacker = { 'x-forwarded-for': clientIp() }
      const answers: Answer[] = []
      for (let i = 0; i < 15; i++) {
        ;(forged.payload.authorization as { nonce: string }).nonce = keccak256(toHex(`forged-${i}`))
        answers.push(await pay(`${svc.url}${PRICES}`, forged, attacker))
      }
      expect(count(answers, (a) => a.code === 'payment_invalid_signature')).toBe(10)
      expect(count(answers, (a) => a.status === 429)).toBe(5)
      // The contract's own paid ceiling is untouched: all five of its calls are still available.
      for (let i = 0; i < 5; i++) await svc.services.deps.limiter.paid(contract)
      await expect(svc.services.deps.limiter.paid(contract)).rejects.toMatchObject({ status: 429 })
    }))
})

describe('flaw 4: surge measures admitted work', () => {
  test(
    'behavior: 500 rejected requests leave the surge multiplier at 1',
    () =>
      withinOneWindow(async () => {
        const svc = await sw.instance({
          SURGE_CAPACITY_RPS: '2',
          RATE_LIMIT_UNPAID: '100',
          TRUST_PROXY: 'true',
        })
        const url = `${svc.url}${PRICES}`
        const client = { 'x-forwarded-for': clientIp() }
        const statuses: number[] = []
        // 250 rejections per second of surge capacity: admitted, they would have doubled the price.
        for (let batch = 0; batch < 5; batch++) {
          const answers = await Promise.all(
            Array.from({ length: 100 }, () => send(url, { 'X-PAYMENT': 'garbage', ...client })),
          )
          statuses.push(...answers.map((a) => a.status))
        }
        expect(statuses.filter((s) => s === 402)).toHaveLength(100)
        expect(statuses.filter((s) => s === 429)).toHaveLength(400)
        expect(svc.services.deps.surge.multiplier()).toBe(1)
        expect(
          (await challengeOf(url, { headers: { 'x-forwarded-for': clientIp() } })).accepts[0]?.amount,
        ).toBe('1000')
      }),
    120_000,
  ) // 500 requests: a flood takes long beside a CPU-heavy neighbour
})

describe('flaw 5: free routes keep their unpaid ceiling whatever headers come along', () => {
  test('error: a junk X-PAYMENT header does not lift the ceiling of a free route or a discovery document', () =>
    withinOneWindow(async () => {
      const svc = await sw.instance({ RATE_LIMIT_UNPAID: '10', TRUST_PROXY: 'true' })
      const client = { 'x-forwarded-for': clientIp(), 'X-PAYMENT': 'x' }
      const referral = await Promise.all(
        Array.from({ length: 15 }, () => send(`${svc.url}/v1/referrals/${payTo}`, client)),
      )
      expect(count(referral, (a) => a.status === 200)).toBe(10)
      expect(count(referral, (a) => a.status === 429)).toBe(5)
      const other = { 'x-forwarded-for': clientIp(), 'PAYMENT-SIGNATURE': 'x' }
      const catalog = await Promise.all(Array.from({ length: 12 }, () => send(`${svc.url}/v1`, other)))
      expect(count(catalog, (a) => a.status === 429)).toBe(2)
    }))
})

describe('flaw 6: every authorization field value is refused as a payment error, never a 5xx', () => {
  test('error: values, windows and nonces out of range get payment codes and move nothing', async () => {
    const svc = await sw.instance()
    const key = generatePrivateKey()
    const who = await sw.freshWallet(1_000_000n)
    const url = `${svc.url}${PRICES}`
    const challenge = await challengeOf(url)
    const accepted = challenge.accepts[0] as PaymentPayload['accepted']
    const now = BigInt(Math.floor(Date.now() / 1000))
    const MAX = (1n << 256n) - 1n
    const honest = await signChallenge(who, challenge)
    const withField = (field: string, value: string) => {
      const p = structuredClone(honest)
      ;(p.payload.authorization as Record<string, string>)[field] = value
      return p
    }
    const cases: [string, PaymentPayload][] = [
      // Past uint256: cannot be hashed as EIP-712, cannot be sent: malformed.
      ['payment_malformed', withField('value', (MAX + 1n).toString())],
      ['payment_malformed', withField('validAfter', (MAX + 1n).toString())],
      ['payment_malformed', withField('validBefore', (MAX + 1n).toString())],
      ['payment_malformed', withField('value', '9'.repeat(78))],
      ['payment_malformed', withField('value', '-1')],
      ['payment_malformed', withField('validBefore', '1e9')],
      ['payment_malformed', withField('nonce', '0x1234')],
      ['payment_malformed', withField('from', '0xnot-an-address')],
      ['payment_malformed', { ...honest, accepted: { ...honest.accepted, amount: (MAX + 1n).toString() } }],
      // In range and correctly signed, but outside what we accept.
      ['payment_window_too_long', (await authorize(key, accepted, { validBefore: 1n << 64n })).payload],
      ['payment_window_too_long', (await authorize(key, accepted, { validBefore: MAX })).payload],
      ['payment_window_too_long', (await authorize(key, accepted, { validBefore: now + 3600n })).payload],
      ['payment_not_yet_valid', (await authorize(key, accepted, { validAfter: MAX })).payload],
      ['payment_amount_mismatch', (await authorize(key, accepted, { value: MAX })).payload],
      ['payment_expired', (await authorize(key, accepted, { validBefore: 0n })).payload],
    ]
    const before = await sw.usdcBalance(who.account.address)
    const answers = await Promise.all(cases.map(([, p]) => pay(url, p)))
    expect(answers.map((a) => a.code)).toEqual(cases.map(([code]) => code))
    for (const a of answers) expect(a.status).toBe(402)
    expect(await sw.usdcBalance(who.account.address)).toBe(before)
    expect(await svc.services.deps.ledger.byPayer(who.account.address)).toHaveLength(0)
    // The longest window still accepted (the challenge's 120 s) pays.
    const longest = await authorize(who.privateKey, accepted, { validBefore: now + 120n })
    expect((await pay(url, longest.payload)).status).toBe(200)
  })
})

describe('review: HEAD is never charged', () => {
  test('error: a paid HEAD on a priced path answers the challenge and moves nothing', async () => {
    const svc = await sw.instance()
    const who = await sw.freshWallet(1_000_000n)
    const url = `${svc.url}${PRICES}`
    const payload = await signChallenge(who, await challengeOf(url))
    const res = await fetch(url, { method: 'HEAD', headers: { 'PAYMENT-SIGNATURE': encodePayment(payload) } })
    expect(res.status).toBe(402)
    expect(res.headers.get('payment-required')).toBeTruthy()
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
    // The authorization was not consumed: the GET it was signed for pays once.
    expect((await pay(url, payload)).status).toBe(200)
    expect(await sw.usdcBalance(who.account.address)).toBe(999_000n)
  })
})

describe('TRUST_PROXY takes the address our proxy appended, not the client’s', () => {
  test('error: a client rotating the leftmost X-Forwarded-For entry is still one client', () =>
    withinOneWindow(async () => {
      const svc = await sw.instance({ RATE_LIMIT_UNPAID: '3', TRUST_PROXY: 'true' })
      const proxySaw = clientIp()
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) {
        const res = await send(`${svc.url}/v1`, { 'x-forwarded-for': `${clientIp()}, ${proxySaw}` })
        statuses.push(res.status)
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429])
    }))
})
