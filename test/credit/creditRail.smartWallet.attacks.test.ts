import type { PaymentPayload } from '@x402/core/types'
import { encodeAbiParameters, erc20Abi, type Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { usdToAtomic } from '../../src/payments/usdToAtomic.js'
import { getPricesRoute } from '../../src/routes/prices/getPrices.js'
import { clientIp, deployTestContract, pay, walletOf } from '../helpers/attackKit.js'
import { authorizeAs } from '../helpers/authorize.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { creditOf, UTIL, utilWallet } from '../helpers/creditKit.js'
import { challengeOf, useInstance, useWorld } from '../helpers/serviceWorld.js'

// The credit rail against a smart-wallet payer with hostile code (test/contracts/HostileWallet.sol: an
// ERC-1271 check that accepts any signature after burning gas, and that its owner can switch off). Its
// credit is spent only while its own check accepts; a check that burns gas or flips is refused free.
const sw = useWorld()
const svc = useInstance(sw, { TRUST_PROXY: '1', RATE_LIMIT_UNPAID: '1000' })
const PATH = '/v1/prices?symbols=ETH'
const HALF = usdToAtomic(getPricesRoute.priceUsd as number) / 2n
const UTIL_1M = 10n ** 24n

/** A signature the hostile wallet accepts after `rounds` keccak rounds. */
const burning = (rounds: bigint): Hex => encodeAbiParameters([{ type: 'uint256' }], [rounds])

describe('credit rail: a hostile smart-wallet payer', () => {
  test('attack: its credit pays only while its ERC-1271 check accepts; a gas-burning or switched-off check is refused free and the credit stays', async () => {
    // The attacker deploys the wallet, funds it with UTIL and sends that UTIL to the credit recipient from it.
    const owner = await utilWallet(sw, 0n, UTIL_1M)
    const attacker = walletOf(sw, owner.privateKey)
    const { address: wallet, abi } = await deployTestContract(sw, attacker, 'HostileWallet')
    const fund = await attacker.writeContract({
      address: UTIL,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [wallet, UTIL_1M],
    })
    await pollReceipt(sw.chain, fund, RECEIPT)
    const topUp = await attacker.writeContract({
      address: wallet,
      abi,
      functionName: 'sweep',
      args: [UTIL, svc.config.payments.creditRecipient, UTIL_1M],
    })
    await pollReceipt(sw.chain, topUp, RECEIPT)
    const url = `${svc.url}${PATH}`
    const terms = (await challengeOf(url)).accepts[0] as PaymentPayload['accepted']
    const client = { 'x-forwarded-for': clientIp() }

    // Topped up and paid by credit on its ERC-1271 word: half price, no USDC anywhere (it holds none).
    const first = await pay(url, authorizeAs(wallet, terms, burning(10n)), {
      ...client,
      'X-UTIL-TOPUP': topUp,
    })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const credited = await creditOf(svc.url, wallet)
    expect(credited.topUps).toHaveLength(1)
    const balance = BigInt(credited.balanceAtomic)
    expect(balance).toBe(BigInt(Math.round((credited.topUps[0]?.creditedUsd as number) * 1e6)) - HALF)

    // A check that burns more gas than any call is worth: refused before any credit is touched.
    const burner = await pay(url, authorizeAs(wallet, terms, burning(50_000_000n)), client)
    expect(burner.status).toBe(402)
    expect(BigInt((await creditOf(svc.url, wallet)).balanceAtomic)).toBe(balance)

    // Switched off: its signature no longer proves it, and its credit cannot be spent.
    const off = await attacker.writeContract({
      address: wallet,
      abi,
      functionName: 'setRefusing',
      args: [true],
    })
    await pollReceipt(sw.chain, off, RECEIPT)
    const refused = await pay(url, authorizeAs(wallet, terms, burning(10n)), client)
    expect(refused.status).toBe(402)
    expect(refused.code).toBe('payment_invalid_signature')
    const after = await creditOf(svc.url, wallet)
    expect(BigInt(after.balanceAtomic)).toBe(balance)
    expect(after.debits.map((d) => d.status)).toEqual(['spent'])
    expect(await sw.usdcBalance(wallet)).toBe(0n)
  })
})
