import { encodePaymentSignatureHeader } from '@x402/core/http'
import { keccak256, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { createPaymentGate } from '../../../src/payments/gate/paymentGate.js'
import { getPricesRoute } from '../../../src/routes/prices/getPrices.js'
import { authorize } from '../../helpers/authorize.js'
import { exactAccepted, gateRequest, type RailKit, railKit } from '../../helpers/railKit.js'

const URL_ = 'http://127.0.0.1/v1/prices?symbols=ETH'
/** GET /v1/prices costs 1,000 atomic USDC; by credit half of it. */
const PRICE = 1_000n
const CREDIT_COST = 500n

/** A wallet holding `credit` (atomic USDC) and a signed `exact` payment of it, as a header. */
async function creditWallet(kit: RailKit, credit: bigint) {
  const key = generatePrivateKey()
  const wallet = privateKeyToAccount(key).address
  await kit.creditBook.topUp({
    txHash: keccak256(toHex(`top-up-${wallet}`)),
    wallet,
    utilAmount: 10n ** 18n,
    usdAtomic: credit,
    blockNumber: 1n,
    blockTime: Math.floor(Date.now() / 1000),
  })
  const header = async () =>
    encodePaymentSignatureHeader(
      (await authorize(key, exactAccepted(kit.config, PRICE), { to: kit.config.payTo })).payload,
    )
  return { wallet, header }
}

const settles = (kit: RailKit) => kit.facilitatorCalls.filter((c) => c.kind === 'settle').length

describe('the UTIL credit rail: admit (the debit held), then conclude with what the route did', () => {
  test('behavior: a wallet with credit is served at half price, the debit spent, nothing settled onchain', async () => {
    const kit = await railKit()
    const gate = createPaymentGate(getPricesRoute, kit.services)
    const { wallet, header } = await creditWallet(kit, 2_000n)
    const request = gateRequest(URL_, await header())
    const outcome = await gate.admit(request)
    expect(outcome).toMatchObject({
      kind: 'serve',
      receipt: {
        transaction: '',
        amount: '0',
        extra: { utilCredit: { debitedAtomic: '500', balanceAtomic: '1500' } },
      },
    })
    expect(request.runs).toEqual([wallet])
    expect(await kit.services.credit.balance(wallet)).toBe(2_000n - CREDIT_COST)
    expect(settles(kit)).toBe(0)
  })

  test('behavior: a failed route (500) or a thrown one gives the debit back; the balance is whole', async () => {
    const kit = await railKit()
    const gate = createPaymentGate(getPricesRoute, kit.services)
    const { wallet, header } = await creditWallet(kit, 2_000n)
    const failing = gateRequest(URL_, await header(), { status: 500 })
    expect((await gate.admit(failing)).kind).toBe('pass')
    const throwing = gateRequest(URL_, await header(), { throws: new Error('handler blew up') })
    expect(await gate.admit(throwing)).toMatchObject({ kind: 'error', discard: true })
    expect([...failing.runs, ...throwing.runs]).toEqual([wallet, wallet])
    expect(await kit.services.credit.balance(wallet)).toBe(2_000n)
    expect(settles(kit)).toBe(0)
  })

  test('behavior: too little credit, or X-UTIL-CREDIT: off, pays in USDC at the full price through the exact rail', async () => {
    const kit = await railKit()
    const gate = createPaymentGate(getPricesRoute, kit.services)
    const short = await creditWallet(kit, CREDIT_COST - 1n)
    expect(await gate.admit(gateRequest(URL_, await short.header()))).toMatchObject({
      kind: 'serve',
      receipt: { success: true },
    })
    const optedOut = await creditWallet(kit, 2_000n)
    expect((await gate.admit(gateRequest(URL_, await optedOut.header(), { creditOff: true }))).kind).toBe(
      'serve',
    )
    expect(settles(kit)).toBe(2)
    expect(await kit.services.credit.balance(short.wallet)).toBe(CREDIT_COST - 1n)
    expect(await kit.services.credit.balance(optedOut.wallet)).toBe(2_000n)
  })

  test('attack: the same authorization sent again after its credit call is refused payment_replayed and debits nothing more', async () => {
    const kit = await railKit()
    const gate = createPaymentGate(getPricesRoute, kit.services)
    const { wallet, header } = await creditWallet(kit, 2_000n)
    const once = await header()
    expect((await gate.admit(gateRequest(URL_, once))).kind).toBe('serve')
    const again = gateRequest(URL_, once)
    const outcome = await gate.admit(again)
    expect(outcome.kind).toBe('refuse')
    expect(again.runs).toEqual([])
    expect(await kit.services.credit.balance(wallet)).toBe(2_000n - CREDIT_COST)
  })
})
