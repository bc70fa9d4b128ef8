import { decodePaymentResponseHeader } from '@x402/core/http'
import type { PaymentPayload } from '@x402/core/types'
import { encodeAbiParameters, erc20Abi, type Hex, keccak256, parseGwei, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { USDC_SETTLEMENT_ABI } from '../../src/payments/exact/settlementOutcome.js'
import {
  type Answer,
  clientIp,
  count,
  deployTestContract,
  pay,
  pendingFrom,
  pendingTxCount,
  relayerPending,
  relayerState,
  sendUsdc,
  waitForPendingTx,
  walletOf,
  withoutAutomine,
} from '../helpers/attackKit.js'
import { authorizeAs } from '../helpers/authorize.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { eventually } from '../helpers/eventually.js'
import { faultyRpcProxy, type RpcCall, type RpcProxy } from '../helpers/faultyRpcProxy.js'
import {
  challengeOf,
  payerClient,
  type ServiceWorld,
  signChallenge,
  useWorld,
} from '../helpers/serviceWorld.js'

/**
 * The payment gate under the round-3 attacks (issue 22), on the devnet, each performed against a running
 * instance with real USDC and hostile wallets, asserting what moved: USDC, the relayer's transactions and
 * gas, ledger rows, referral standing.
 */
const sw = useWorld({ blockTimeSeconds: 0.2 })
let proxy: RpcProxy
/** The selector of USDC's transferWithAuthorization(…, bytes signature), which a verification simulates. */
const TRANSFER_WITH_AUTH = 'cf092995'
const payTo = demoAccounts[9]?.address as `0x${string}`
const PRICES = '/v1/prices?symbols=BTC'
const PRICE = 1_000n
/** The default SETTLEMENT_GAS_LIMIT. */
const GAS_LIMIT = 150_000n

beforeAll(async () => {
  proxy = await faultyRpcProxy(sw.world.rpcUrl)
}, 120_000)
afterAll(async () => {
  await proxy?.close()
})

/** The attacker: a fresh EOA with ETH and `usdc`, owning a HostileWallet that holds that USDC. */
async function hostileWallet(usdc: bigint) {
  const owner = await sw.freshWallet(usdc, 10n ** 18n)
  const attacker = walletOf(sw, owner.privateKey)
  const { address: wallet, abi } = await deployTestContract(sw, attacker, 'HostileWallet')
  if (usdc > 0n) await sendUsdc(sw, attacker, wallet, usdc)
  return { wallet, attacker, abi }
}

/** A signature the hostile wallet accepts after `rounds` keccak rounds. */
const burning = (rounds: bigint): Hex => encodeAbiParameters([{ type: 'uint256' }], [rounds])

const relayerOf = (svc: Awaited<ReturnType<ServiceWorld['instance']>>) =>
  svc.services.deps.facilitator.relayer as `0x${string}`

const accepted = async (url: string) => (await challengeOf(url)).accepts[0] as PaymentPayload['accepted']
const nonceOf = (p: PaymentPayload) => (p.payload.authorization as { nonce: Hex }).nonce

describe('attack 1: a gas-burning smart-wallet payer', () => {
  test('error: an ERC-1271 check that loops millions of gas is refused before any broadcast, free, and counted as unpaid', async () => {
    const svc = await sw.instance({ TRUST_PROXY: '1', RATE_LIMIT_UNPAID: '3' })
    const { wallet } = await hostileWallet(10n * PRICE)
    const url = `${svc.url}${PRICES}`
    const terms = await accepted(url)
    const relayer = relayerOf(svc)
    const before = await relayerState(sw, relayer)
    const [walletBefore, payToBefore] = await Promise.all([sw.usdcBalance(wallet), sw.usdcBalance(payTo)])

    const client = { 'x-forwarded-for': clientIp() }
    const answers: Answer[] = []
    for (let i = 0; i < 4; i++)
      answers.push(await pay(url, authorizeAs(wallet, terms, burning(100_000n)), client))

    // Three refusals with their own code, then the sender's unpaid ceiling (3).
    expect(answers.slice(0, 3).map((a) => [a.status, a.code])).toEqual(
      Array(3).fill([402, 'payment_gas_limit_exceeded']),
    )
    expect(answers[3]?.status).toBe(429)
    // Nothing broadcast, no gas spent, no USDC moved, no row.
    expect(await relayerState(sw, relayer)).toEqual(before)
    expect(await sw.usdcBalance(wallet)).toBe(walletBefore)
    expect(await sw.usdcBalance(payTo)).toBe(payToBefore)
    expect(await svc.services.deps.ledger.byPayer(wallet)).toHaveLength(0)
  })

  test('behavior: the limit bounds what is broadcast: a wallet that burns a little is served and its settlement stays under the limit; a little more is refused', async () => {
    const svc = await sw.instance()
    const { wallet } = await hostileWallet(10n * PRICE)
    const url = `${svc.url}${PRICES}`
    const terms = await accepted(url)
    const relayer = relayerOf(svc)

    const light = await pay(url, authorizeAs(wallet, terms, burning(100n)))
    expect(light.status).toBe(200)
    const receipt = decodePaymentResponseHeader(light.headers.get('payment-response') as string)
    const mined = await sw.chain.getTransactionReceipt({ hash: receipt.transaction as Hex })
    expect(mined.status).toBe('success')
    expect(mined.gasUsed).toBeLessThanOrEqual(GAS_LIMIT)

    const before = await relayerState(sw, relayer)
    const heavy = await pay(url, authorizeAs(wallet, terms, burning(2_000n)))
    expect([heavy.status, heavy.code]).toEqual([402, 'payment_gas_limit_exceeded'])
    expect(await relayerState(sw, relayer)).toEqual(before)
  })

  test('behavior: an EOA and a plain ERC-1271 smart wallet settle well under the limit', async () => {
    const svc = await sw.instance()
    const url = `${svc.url}${PRICES}`
    const eoa = await sw.freshWallet(10n * PRICE)
    const paidByEoa = await signChallenge(eoa, await challengeOf(url))
    const eoaAnswer = await pay(url, paidByEoa)
    expect(eoaAnswer.status).toBe(200)
    const eoaTx = decodePaymentResponseHeader(eoaAnswer.headers.get('payment-response') as string)

    // A smart wallet owned by a fresh key, holding USDC, paying with its owner's ECDSA signature.
    const owner = await sw.freshWallet(10n * PRICE, 10n ** 18n)
    const deployer = walletOf(sw, owner.privateKey)
    const { address: smart } = await deployTestContract(sw, deployer, 'PlainSmartWallet', [
      owner.account.address,
    ])
    await sendUsdc(sw, deployer, smart, 10n * PRICE)
    const terms = await accepted(url)
    const unsigned = authorizeAs(smart, terms, '0x00')
    const auth = unsigned.payload.authorization as Record<string, string>
    const signature = await owner.account.signTypedData({
      domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: USDC },
      types: {
        TransferWithAuthorization: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'validAfter', type: 'uint256' },
          { name: 'validBefore', type: 'uint256' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'TransferWithAuthorization',
      message: {
        from: smart,
        to: payTo,
        value: BigInt(auth.value as string),
        validAfter: BigInt(auth.validAfter as string),
        validBefore: BigInt(auth.validBefore as string),
        nonce: auth.nonce as Hex,
      },
    })
    const smartAnswer = await pay(url, { ...unsigned, payload: { ...unsigned.payload, signature } })
    expect(smartAnswer.status).toBe(200)
    const smartTx = decodePaymentResponseHeader(smartAnswer.headers.get('payment-response') as string)

    const [eoaGas, smartGas] = await Promise.all(
      [eoaTx, smartTx].map(
        async (r) => (await sw.chain.getTransactionReceipt({ hash: r.transaction as Hex })).gasUsed,
      ),
    )
    // The figures docs/payments.md quotes; the limit leaves room for heavier honest wallets (multisig, passkeys).
    console.info(`settlement gas: EOA ${eoaGas}, plain ERC-1271 wallet ${smartGas}, limit ${GAS_LIMIT}`)
    expect(eoaGas).toBeLessThan(GAS_LIMIT / 2n + 10_000n)
    expect(smartGas).toBeLessThan(GAS_LIMIT)
  })

  test('error: an EIP-7702 EOA delegating to a gas-burning ERC-1271 check (its signature recovers locally) is refused before any broadcast', async () => {
    const svc = await sw.instance()
    const url = `${svc.url}${PRICES}`
    const victimOfItself = await sw.freshWallet(10n * PRICE, 10n ** 18n)
    const eoa = walletOf(sw, victimOfItself.privateKey)
    const { wallet: delegate, abi } = await hostileWallet(0n)
    const authorization = await eoa.signAuthorization({ contractAddress: delegate, executor: 'self' })
    const set = await eoa.writeContract({
      address: eoa.account.address,
      abi,
      functionName: 'setExtraRounds',
      // About 2.6 M gas: under any node's call cap, so only our limit stops the broadcast.
      args: [20_000n],
      authorizationList: [authorization],
    })
    expect((await pollReceipt(sw.chain, set, RECEIPT)).status).toBe('success')
    expect(await sw.chain.getCode({ address: eoa.account.address })).toMatch(/^0xef0100/)

    const relayer = relayerOf(svc)
    const before = await relayerState(sw, relayer)
    const usdcBefore = await sw.usdcBalance(eoa.account.address)
    const answer = await pay(url, await signChallenge(victimOfItself, await challengeOf(url)))
    expect(answer.status).toBe(402)
    expect(await relayerState(sw, relayer)).toEqual(before)
    expect(await sw.usdcBalance(eoa.account.address)).toBe(usdcBefore)
  })
})

describe('attack 2: one payment served and booked twice', () => {
  test('error: a second authorization with the same signature bytes never rides on the first one’s transaction', async () => {
    const svc = await sw.instance({ SETTLE_TIMEOUT_MS: '1000', RECONCILE_INTERVAL_MS: '600000' })
    const { wallet } = await hostileWallet(10n * PRICE)
    const referrer = privateKeyToAccount(generatePrivateKey()).address
    const url = `${svc.url}${PRICES}&ref=${referrer}`
    const terms = await accepted(url)
    const signature = burning(0n)
    const a = authorizeAs(wallet, terms, signature)
    const b = authorizeAs(wallet, terms, signature)
    const payToBefore = await sw.usdcBalance(payTo)

    const [first, second] = await withoutAutomine(sw, async (mine) => {
      // A is broadcast and not mined within the settle timeout: served as pending.
      const first = await pay(url, a)
      expect(first.status).toBe(200)
      expect(decodePaymentResponseHeader(first.headers.get('payment-response') as string)).toMatchObject({
        success: false,
        errorReason: 'settlement_pending',
      })
      // B, same signature bytes, new nonce, while A is still unmined; A lands meanwhile.
      const secondAnswer = pay(url, b)
      await new Promise((r) => setTimeout(r, 300))
      await mine()
      const second = await secondAnswer
      await mine()
      return [first, second]
    })
    expect(first.status).toBe(200)
    await svc.services.reconcile()

    // What the chain holds: one transfer per used nonce, and the books agree with it.
    const used = await Promise.all(
      [a, b].map((p) =>
        sw.chain.readContract({
          address: USDC,
          abi: USDC_SETTLEMENT_ABI,
          functionName: 'authorizationState',
          args: [wallet, nonceOf(p)],
        }),
      ),
    )
    const transfers = used.filter(Boolean).length
    expect(await sw.usdcBalance(payTo)).toBe(payToBefore + BigInt(transfers) * PRICE)
    // Outcomes written after a response land a moment later: the books are read until they agree.
    await eventually(async () => {
      const rows = await svc.services.deps.ledger.byPayer(wallet)
      const settled = rows.filter((r) => r.status === 'settled')
      expect(settled).toHaveLength(transfers)
      expect(new Set(settled.map((r) => r.txHash)).size).toBe(settled.length)
      const standing = (await (await fetch(`${svc.url}/v1/referrals/${referrer}`)).json()) as {
        paidCalls: number
      }
      expect(standing.paidCalls).toBe(transfers)
    })
    // B was either refused (free) or paid by its own transfer, never by A's.
    if (second.status === 200) expect(used[1]).toBe(true)
    else expect(second.status).toBe(402)
  })

  test('error: the built-in facilitator never answers one authorization with another’s pending transaction', async () => {
    const svc = await sw.instance({ SETTLE_TIMEOUT_MS: '1000', RECONCILE_INTERVAL_MS: '600000' })
    const { wallet } = await hostileWallet(10n * PRICE)
    const terms = await accepted(`${svc.url}${PRICES}`)
    const signature = burning(0n)
    const a = authorizeAs(wallet, terms, signature)
    const b = authorizeAs(wallet, terms, signature)
    const { facilitator } = svc.services.deps
    const [first, second] = await withoutAutomine(sw, async (mine) => {
      const first = await facilitator.settle(a, terms)
      const second = await facilitator.settle(b, terms)
      await mine()
      return [first, second]
    })
    expect(first).toMatchObject({ success: false, errorReason: 'settlement_pending' })
    expect(second).toMatchObject({ success: false, errorReason: 'settlement_pending' })
    // Each its own transaction, each paying for its own nonce.
    expect(second.transaction).not.toBe(first.transaction)
    for (const [answer, p] of [
      [first, a],
      [second, b],
    ] as const) {
      const receipt = await sw.chain.getTransactionReceipt({ hash: answer.transaction as Hex })
      expect(receipt.status).toBe('success')
      expect(
        receipt.logs.some(
          (l) =>
            l.topics[0] === keccak256(toHex('AuthorizationUsed(address,bytes32)')) &&
            l.topics[2] === nonceOf(p),
        ),
      ).toBe(true)
    }
  })
})

describe('attack 3: one transaction reverts many settlements', () => {
  for (const variant of [
    'an ERC-1271 wallet switches its signatures off',
    'an EOA moves its USDC out',
  ] as const) {
    test(`error: ${variant} ahead of 8 concurrent settlements: one settlement reverts, the rest are refused free, and the payer cools down`, async () => {
      // The facilitator's verification of each smart-wallet payment (a simulated transferWithAuthorization)
      // is counted as it is answered: the strike waits for all eight, so none is verified against the
      // switched-off wallet (a slow machine could otherwise refuse a late one as invalid, not cooling down).
      let verified = 0
      proxy.set((body) => {
        const simulations = (Array.isArray(body) ? body : [body]).filter(
          (c) => c.method === 'eth_call' && JSON.stringify(c.params ?? []).includes(TRANSFER_WITH_AUTH),
        ).length
        if (simulations === 0) return null
        return {
          rewrite: (answer) => {
            verified += simulations
            return answer
          },
        }
      })
      const svc = await sw.instance({ TRUST_PROXY: '1', RECONCILE_INTERVAL_MS: '600000', RPC_URL: proxy.url })
      const url = `${svc.url}${PRICES}`
      const terms = await accepted(url)
      const relayer = relayerOf(svc)
      const drain = privateKeyToAccount(generatePrivateKey()).address
      let payer: `0x${string}`
      let payloads: PaymentPayload[]
      let strike: () => Promise<Hex>
      if (variant === 'an ERC-1271 wallet switches its signatures off') {
        const { wallet, attacker, abi } = await hostileWallet(8n * PRICE)
        payer = wallet
        payloads = Array.from({ length: 8 }, () => authorizeAs(wallet, terms, burning(0n)))
        strike = () =>
          attacker.writeContract({
            address: wallet,
            abi,
            functionName: 'setRefusing',
            args: [true],
            gas: 100_000n,
            maxPriorityFeePerGas: parseGwei('50'),
            maxFeePerGas: parseGwei('100'),
          })
      } else {
        const eoa = await sw.freshWallet(8n * PRICE, 10n ** 18n)
        payer = eoa.account.address
        const challenge = await challengeOf(url)
        payloads = await Promise.all(Array.from({ length: 8 }, () => signChallenge(eoa, challenge)))
        strike = () =>
          walletOf(sw, eoa.privateKey).writeContract({
            address: USDC,
            abi: erc20Abi,
            functionName: 'transfer',
            args: [drain, 8n * PRICE],
            gas: 100_000n,
            maxPriorityFeePerGas: parseGwei('50'),
            maxFeePerGas: parseGwei('100'),
          })
      }
      const before = await relayerState(sw, relayer)
      const payToBefore = await sw.usdcBalance(payTo)
      const client = { 'x-forwarded-for': clientIp() }

      const { answers, minedAt } = await withoutAutomine(sw, async (mine) => {
        const inFlight = Promise.all(payloads.map((p) => pay(url, p, client)))
        await relayerPending(sw, relayer)
        if (variant === 'an ERC-1271 wallet switches its signatures off') {
          await eventually(() => expect(verified).toBeGreaterThanOrEqual(8))
        }
        const pending = await pendingTxCount(sw)
        await strike()
        await waitForPendingTx(sw, pending + 1)
        await mine()
        // The block just mined, read while automine is still off: once it is back on, the world's keeper
        // (a price every second) may mine another before the test looks (CI saw 'latest' without ours).
        const minedAt = await sw.chain.getBlockNumber()
        const answers = await inFlight
        // Nothing else of the relayer's was handed to the node after the revert.
        expect(await pendingFrom(sw, relayer)).toBe(0)
        return { answers, minedAt }
      })

      expect(count(answers, (a) => a.status === 402)).toBe(8)
      // The codes of all eight, named in a failure (this assertion was seen failing once, 3 of 7).
      const codes = JSON.stringify(answers.map((a) => a.code))
      expect(
        answers.filter((a) => a.code === 'payment_settlement_failed'),
        codes,
      ).toHaveLength(1)
      expect(
        answers.filter((a) => a.code === 'payment_payer_cooling_down'),
        codes,
      ).toHaveLength(7)
      // One relayer transaction, reverted: the gas of one settlement is all the strike cost the operator.
      const after = await relayerState(sw, relayer)
      expect(after.nonce).toBe(before.nonce + 1)
      const block = await sw.chain.getBlock({ blockNumber: minedAt, includeTransactions: true })
      const ours = block.transactions.find((t) => t.from.toLowerCase() === relayer.toLowerCase())
      const receipt = await sw.chain.getTransactionReceipt({ hash: ours?.hash as Hex })
      expect(receipt.status).toBe('reverted')
      expect(before.eth - after.eth).toBe(receipt.gasUsed * receipt.effectiveGasPrice)
      expect(receipt.gasUsed).toBeLessThanOrEqual(GAS_LIMIT)
      console.info(`${variant}: the one reverted settlement used ${receipt.gasUsed} gas`)
      expect(await sw.usdcBalance(payTo)).toBe(payToBefore)
      const rows = await svc.services.deps.ledger.byPayer(payer)
      expect(rows).toHaveLength(1)
      expect(rows[0]).toMatchObject({ status: 'failed', served: false })

      // The cool-down: the next payment is refused before the handler, nothing broadcast.
      const fresh =
        variant === 'an ERC-1271 wallet switches its signatures off'
          ? authorizeAs(payer, terms, burning(0n))
          : (payloads[0] as PaymentPayload)
      const next = await pay(url, fresh, client)
      expect([next.status, next.code]).toEqual([402, 'payment_payer_cooling_down'])
      expect((await relayerState(sw, relayer)).nonce).toBe(before.nonce + 1)
      proxy.set(null)
    })
  }

  test('behavior: an honest payer’s concurrent calls all settle, one at a time', async () => {
    const svc = await sw.instance()
    const url = `${svc.url}${PRICES}`
    const who = await sw.freshWallet(6n * PRICE)
    const challenge = await challengeOf(url)
    const payloads = await Promise.all(Array.from({ length: 6 }, () => signChallenge(who, challenge)))
    const payToBefore = await sw.usdcBalance(payTo)
    const answers = await Promise.all(payloads.map((p) => pay(url, p)))
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200))
    expect(await sw.usdcBalance(payTo)).toBe(payToBefore + 6n * PRICE)
    // Outcomes are written just after each response (off the response path).
    await eventually(async () => {
      const rows = await svc.services.deps.ledger.byPayer(who.account.address)
      expect(rows.filter((r) => r.status === 'settled')).toHaveLength(6)
    })
  })
})

describe('attack 5: a malformed ?ref= walks past the unpaid ceiling', () => {
  test('error: bad refs from throwaway keys and from contract payers stop at the unpaid ceiling, and no RPC is spent on them', async () => {
    const calls: string[] = []
    proxy.set((body) => {
      for (const c of Array.isArray(body) ? body : [body]) calls.push((c as RpcCall).method)
      return null
    })
    const svc = await sw.instance({ RPC_URL: proxy.url, TRUST_PROXY: '1', RATE_LIMIT_UNPAID: '20' })
    const url = `${svc.url}${PRICES}&ref=0xnot-an-address`
    const challenge = await challengeOf(`${svc.url}${PRICES}`)
    const terms = challenge.accepts[0] as PaymentPayload['accepted']
    const contracts = []
    for (let i = 0; i < 5; i++) contracts.push((await hostileWallet(0n)).wallet)
    const client = { 'x-forwarded-for': clientIp() }
    calls.length = 0
    const answers: Answer[] = []
    for (let i = 0; i < 40; i++) {
      // Half from throwaway keys (their signatures recover), half naming contracts (an eth_getCode each).
      const payload =
        i % 2 === 0
          ? await signChallenge(payerClient(generatePrivateKey()), challenge)
          : authorizeAs(contracts[i % 5] as `0x${string}`, terms, burning(0n))
      answers.push(await pay(url, payload, client))
    }
    proxy.set(null)
    expect(count(answers, (a) => a.status === 400 && a.code === 'invalid_input')).toBe(20)
    expect(count(answers, (a) => a.status === 429)).toBe(20)
    expect(calls.filter((m) => m === 'eth_getCode')).toHaveLength(0)
  })
})

describe('the unpaid ceiling before any RPC (review finding: the code read started at the claim)', () => {
  test('error: valid payments from throwaway keys past the sender’s unpaid ceiling spend no RPC (neither the balance read nor the payer’s code read)', async () => {
    const calls: string[] = []
    proxy.set((body) => {
      for (const c of Array.isArray(body) ? body : [body]) calls.push((c as RpcCall).method)
      return null
    })
    const svc = await sw.instance({ RPC_URL: proxy.url, TRUST_PROXY: '1', RATE_LIMIT_UNPAID: '3' })
    const challenge = await challengeOf(`${svc.url}${PRICES}`)
    const client = { 'x-forwarded-for': clientIp() }
    const answers: Answer[] = []
    for (let i = 0; i < 3; i++) {
      answers.push(
        await pay(
          `${svc.url}${PRICES}`,
          await signChallenge(payerClient(generatePrivateKey()), challenge),
          client,
        ),
      )
    }
    calls.length = 0
    for (let i = 0; i < 10; i++) {
      answers.push(
        await pay(
          `${svc.url}${PRICES}`,
          await signChallenge(payerClient(generatePrivateKey()), challenge),
          client,
        ),
      )
    }
    proxy.set(null)
    expect(answers.slice(0, 3).map((a) => a.code)).toEqual(Array(3).fill('payment_insufficient_funds'))
    expect(answers.slice(3).map((a) => a.status)).toEqual(Array(10).fill(429))
    expect(calls.filter((m) => m === 'eth_getCode' || m === 'eth_call')).toEqual([])
  })
})
