import type { PaymentPayload } from '@x402/core/types'
import { encodeAbiParameters, type Hex, parseGwei } from 'viem'
import { describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import {
  type Answer,
  cancelAuthorization,
  clientIp,
  deployTestContract,
  pay,
  pendingTxCount,
  relayerPending,
  relayerReceipts,
  sendUsdc,
  waitForPendingTx,
  walletOf,
  withoutAutomine,
} from '../helpers/attackKit.js'
import { authorizeAs } from '../helpers/authorize.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { eventually } from '../helpers/eventually.js'
import { challengeOf, signChallenge, useWorld } from '../helpers/serviceWorld.js'

/**
 * What the independent review of the round-3 fixes found (issue 22), performed on the devnet: many
 * payers with code reverting together (a shared switch, a wallet valid only while payTo's balance is
 * unchanged, EIP-7702 delegations), a stale head turning a paid front-run into a refusal, and a payer
 * cancelling its own nonce to dodge the cool-down. Each asserts what moved.
 */
const sw = useWorld()
const payTo = demoAccounts[9]?.address as `0x${string}`
const PRICES = '/v1/prices?symbols=BTC'
const PRICE = 1_000n
const N = 6
/** A check heavy enough that a revert costs the relayer ~120k gas (under the limit). */
const ROUNDS = 250n
const HIGH_TIP = { maxPriorityFeePerGas: parseGwei('50'), maxFeePerGas: parseGwei('100') }

/**
 * With automine off: sends the calls at once, lets `strike` run when the relayer's first settlement is
 * pending, then mines a block whenever something is pending, until every call has answered.
 */
async function runInBlocks(
  calls: (() => Promise<Answer>)[],
  strike?: { relayer: `0x${string}`; send: () => Promise<unknown> },
) {
  return withoutAutomine(sw, async (mine) => {
    let done = false
    const all = Promise.all(calls.map((c) => c())).finally(() => {
      done = true
    })
    if (strike !== undefined) {
      await relayerPending(sw, strike.relayer)
      const before = await pendingTxCount(sw)
      await strike.send()
      await waitForPendingTx(sw, before + 1)
    }
    while (!done) {
      if ((await pendingTxCount(sw)) > 0) await mine()
      await new Promise((r) => setTimeout(r, 30))
    }
    return all
  })
}

describe('review finding 1: payers with code cannot revert many settlements at once', () => {
  test('error: six wallets valid only while payTo’s balance is unchanged (no attacker transaction): one is served, nothing reverts', async () => {
    const svc = await sw.instance({ TRUST_PROXY: '1', RECONCILE_INTERVAL_MS: '600000' })
    const url = `${svc.url}${PRICES}`
    const terms = (await challengeOf(url)).accepts[0] as PaymentPayload['accepted']
    const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
    const attacker = walletOf(sw, (await sw.freshWallet(BigInt(N) * PRICE, 10n ** 18n)).privateKey)
    const wallets: `0x${string}`[] = []
    for (let i = 0; i < N; i++) {
      const { address } = await deployTestContract(sw, attacker, 'RaceWallet')
      await sendUsdc(sw, attacker, address, PRICE)
      wallets.push(address)
    }
    const payToBefore = await sw.usdcBalance(payTo)
    const signature = encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address' }, { type: 'address' }, { type: 'uint256' }],
      [ROUNDS, USDC, payTo, payToBefore],
    )
    const start = await sw.chain.getBlockNumber()
    const client = { 'x-forwarded-for': clientIp() }
    const answers = await runInBlocks(
      wallets.map((w) => () => pay(url, authorizeAs(w, terms, signature), client)),
    )

    const receipts = await relayerReceipts(sw, relayer, start)
    expect(receipts.filter((r) => r.status === 'reverted')).toHaveLength(0)
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    expect(answers.filter((a) => a.status === 402)).toHaveLength(N - 1)
    expect((await sw.usdcBalance(payTo)) - payToBefore).toBe(PRICE)
  })

  test('error: one switch read by six wallets: a toggle reverts one settlement, not six; then the breaker refuses payers with code', async () => {
    const svc = await sw.instance({
      TRUST_PROXY: '1',
      RECONCILE_INTERVAL_MS: '600000',
      CODE_PAYER_REVERT_BUDGET: '2',
    })
    const url = `${svc.url}${PRICES}`
    const terms = (await challengeOf(url)).accepts[0] as PaymentPayload['accepted']
    const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
    const attacker = walletOf(sw, (await sw.freshWallet(3n * BigInt(N) * PRICE, 10n ** 18n)).privateKey)
    const toggle = await deployTestContract(sw, attacker, 'Switch')
    const wallets: `0x${string}`[] = []
    for (let i = 0; i < 2 * N + 1; i++) {
      const { address } = await deployTestContract(sw, attacker, 'SwitchedWallet', [toggle.address])
      await sendUsdc(sw, attacker, address, PRICE)
      wallets.push(address)
    }
    const signature = encodeAbiParameters([{ type: 'uint256' }], [ROUNDS])
    const set = (off: boolean) =>
      attacker.writeContract({
        address: toggle.address,
        abi: toggle.abi,
        functionName: 'set',
        args: [off],
        gas: 60_000n,
        ...HIGH_TIP,
      })
    const payToBefore = await sw.usdcBalance(payTo)
    const start = await sw.chain.getBlockNumber()

    // Two strikes, six wallets each: each toggle reverts the one settlement in flight; the others
    // are refused before any broadcast.
    for (const round of [0, 1]) {
      const batch = wallets.slice(round * N, (round + 1) * N)
      const answers = await runInBlocks(
        batch.map((w) => () => pay(url, authorizeAs(w, terms, signature), { 'x-forwarded-for': clientIp() })),
        { relayer, send: () => set(true) },
      )
      expect(answers.every((a) => a.status === 402)).toBe(true)
      await pollReceipt(sw.chain, await set(false), RECEIPT)
    }
    const reverted = (await relayerReceipts(sw, relayer, start)).filter((r) => r.status === 'reverted')
    expect(reverted).toHaveLength(2)
    for (const r of reverted) expect(r.gasUsed).toBeLessThanOrEqual(150_000n)
    expect(await sw.usdcBalance(payTo)).toBe(payToBefore)

    // The budget (2) is spent: a fresh wallet with code is refused before the handler, nothing sent.
    const nonce = await sw.chain.getTransactionCount({ address: relayer })
    const next = await pay(url, authorizeAs(wallets[2 * N] as `0x${string}`, terms, signature))
    expect([next.status, next.code]).toEqual([402, 'payment_payer_cooling_down'])
    expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(nonce)
    // A payer without code is not affected.
    const eoa = await sw.freshWallet(PRICE)
    expect((await pay(url, await signChallenge(eoa, await challengeOf(url)))).status).toBe(200)
  })

  test('error: six EOAs delegated (EIP-7702) to one switched delegate, signatures recovering locally: a toggle reverts one settlement, not six', async () => {
    const svc = await sw.instance({ TRUST_PROXY: '1', RECONCILE_INTERVAL_MS: '600000' })
    const url = `${svc.url}${PRICES}`
    const challenge = await challengeOf(url)
    const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
    const attacker = walletOf(sw, (await sw.freshWallet(0n, 10n ** 18n)).privateKey)
    const toggle = await deployTestContract(sw, attacker, 'Switch')
    const delegate = await deployTestContract(sw, attacker, 'SwitchedDelegate', [toggle.address, ROUNDS])
    const eoas = []
    for (let i = 0; i < N; i++) eoas.push(await sw.freshWallet(PRICE))
    const authorizationList = await Promise.all(
      eoas.map((e) =>
        walletOf(sw, e.privateKey).signAuthorization({
          contractAddress: delegate.address,
          chainId: 8453,
          nonce: 0,
        }),
      ),
    )
    // One attacker transaction delegates all six.
    const setup = await attacker.writeContract({
      address: toggle.address,
      abi: toggle.abi,
      functionName: 'set',
      args: [false],
      authorizationList,
    })
    expect((await pollReceipt(sw.chain, setup, RECEIPT)).status).toBe('success')
    const payloads = await Promise.all(eoas.map((e) => signChallenge(e, challenge)))
    const start = await sw.chain.getBlockNumber()
    const answers = await runInBlocks(
      payloads.map((p) => () => pay(url, p, { 'x-forwarded-for': clientIp() })),
      {
        relayer,
        send: () =>
          attacker.writeContract({
            address: toggle.address,
            abi: toggle.abi,
            functionName: 'set',
            args: [true],
            gas: 60_000n,
            ...HIGH_TIP,
          }),
      },
    )
    expect(answers.every((a) => a.status === 402)).toBe(true)
    expect((await relayerReceipts(sw, relayer, start)).filter((r) => r.status === 'reverted')).toHaveLength(1)
    for (const e of eoas) expect(await sw.usdcBalance(e.account.address)).toBe(PRICE)
  })
})

describe('review finding 2: a paid front-run is paid, whatever head the instance read last', () => {
  test('behavior: a copy of our pending settlement lands first while other traffic read the head: served, settled, not cooled down', async () => {
    const svc = await sw.instance({ TRUST_PROXY: '1', RECONCILE_INTERVAL_MS: '600000' })
    const url = `${svc.url}${PRICES}`
    const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
    const victim = await sw.freshWallet(10n * PRICE)
    const copier = walletOf(sw, (await sw.freshWallet(0n, 10n ** 18n)).privateKey)
    const payload = await signChallenge(victim, await challengeOf(url))
    const payToBefore = await sw.usdcBalance(payTo)
    const answer = await withoutAutomine(sw, async (mine) => {
      const inFlight = pay(url, payload, { 'x-forwarded-for': clientIp() })
      await relayerPending(sw, relayer)
      const pending = await sw.chain.getBlock({ blockTag: 'pending', includeTransactions: true })
      const ours = pending.transactions.find((t) => t.from.toLowerCase() === relayer.toLowerCase())
      if (ours === undefined) throw new Error('no relayer transaction pending')
      await copier.sendTransaction({ to: USDC, data: ours.input as Hex, gas: 150_000n, ...HIGH_TIP })
      await waitForPendingTx(sw, 2)
      // Other traffic on the instance reads the head just before the block (viem caches it).
      await svc.services.deps.chain.getBlockNumber()
      await mine()
      return inFlight
    })
    expect(answer.status).toBe(200)
    expect((await sw.usdcBalance(payTo)) - payToBefore).toBe(PRICE)
    // The outcome is written just after the response (off the response path).
    await eventually(async () =>
      expect((await svc.services.deps.ledger.byPayer(victim.account.address))[0]).toMatchObject({
        status: 'settled',
        served: true,
      }),
    )
    expect(await svc.services.deps.payerSettlements.coolingDown(victim.account.address, false)).toBe(false)
  })
})

describe('review finding 3: cancelling one’s own nonce ahead of the settlement cools the payer down', () => {
  test('error: an EOA front-runs our settlement with cancelAuthorization: one revert, then its next payment is refused before anything is sent', async () => {
    const svc = await sw.instance({ TRUST_PROXY: '1', RECONCILE_INTERVAL_MS: '600000' })
    const url = `${svc.url}${PRICES}`
    const relayer = svc.services.deps.facilitator.relayer as `0x${string}`
    const who = await sw.freshWallet(10n * PRICE, 10n ** 18n)
    const wallet = walletOf(sw, who.privateKey)
    const payload = await signChallenge(who, await challengeOf(url))
    const nonce = (payload.payload.authorization as { nonce: Hex }).nonce
    const start = await sw.chain.getBlockNumber()
    const answer = await withoutAutomine(sw, async (mine) => {
      const inFlight = pay(url, payload, { 'x-forwarded-for': clientIp() })
      await relayerPending(sw, relayer)
      await wallet.writeContract({
        ...(await cancelAuthorization(who.account, nonce)),
        gas: 100_000n,
        ...HIGH_TIP,
      })
      await waitForPendingTx(sw, 2)
      await mine()
      return inFlight
    })
    expect([answer.status, answer.code]).toEqual([402, 'payment_settlement_failed'])
    const receipts = await relayerReceipts(sw, relayer, start)
    expect(receipts.map((r) => r.status)).toEqual(['reverted'])
    expect(await sw.usdcBalance(who.account.address)).toBe(10n * PRICE)
    const again = await pay(url, await signChallenge(who, await challengeOf(url)))
    expect([again.status, again.code]).toEqual([402, 'payment_payer_cooling_down'])
    expect(await sw.chain.getTransactionCount({ address: relayer })).toBe(
      (await sw.chain.getTransactionCount({ address: relayer, blockNumber: start })) + 1,
    )
  })
})
