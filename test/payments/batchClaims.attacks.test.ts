import { toClientEvmSigner } from '@x402/evm'
import { computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client'
import { zeroAddress } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { readBatchChannels } from '../../src/chain/batchChannels.js'
import { NETWORK } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { FROZEN } from '../../src/payments/batch/claimRound.js'
import { deployTestContract, walletOf } from '../helpers/attackKit.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { errorOf } from '../helpers/errorOf.js'
import { type Instance, useWorld } from '../helpers/serviceWorld.js'
import {
  batchAgent,
  batchTermsOf,
  channelOf,
  depositAs,
  finalizeWithdraw,
  initiateWithdraw,
  travel,
  voucherHeader,
} from '../helpers/voucherKit.js'

// Issue 37 item 1, its "done when": a claim round with 50 honest channels and poisoned ones claims every
// honest channel in that same round. @x402/evm's manager claimed in batches of 50 and gave up the round at the
// first batch that reverted, every round, for good. Two poisons, as the review made them: a payer that
// withdrew what it was served (the payout left its vouchers beyond the balance), and a payer whose signature
// stopped verifying after it was served (an EOA signing for itself, then delegated by EIP-7702 to a contract
// that refuses every signature; such channels are refused now, so its record is one an earlier version left). The chain's clock moves past the withdraw delay, so this file has one test.
const sw = useWorld({ blockTimeSeconds: 0.2 })
const PATH = '/v1/prices?symbols=BTC'
const PRICE = 1000n
const DEPOSIT = 10n * PRICE
const HONEST = 50
let svc: Instance

beforeAll(async () => {
  svc = await sw.instance({ BATCH_CLAIM_INTERVAL_SECONDS: '600', BATCH_MAX_CLAIMS: '50' })
}, 120_000)

const terms = () => batchTermsOf(svc, PRICE)

describe('batch-settlement claim rounds', () => {
  test('attack: 50 honest channels and two poisoned ones (withdrawn, signature revoked): one round claims all 50, drops the two and books their calls unpaid', async () => {
    const url = `${svc.url}${PATH}`
    const t = await terms()
    const payTo = svc.config.payTo
    const storage = svc.services.deps.batch.scheme.getStorage()

    // 50 honest agents, one paid call each (the deposit carries the first voucher).
    const honest = []
    for (let i = 0; i < HONEST; i++)
      honest.push(batchAgent(sw.chain, (await sw.freshWallet(DEPOSIT)).privateKey, DEPOSIT))
    for (let i = 0; i < HONEST; i += 10) {
      const answers = await Promise.all(honest.slice(i, i + 10).map((a) => a.call(url)))
      expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(200))
    }
    const honestIds = honest.map((a) => computeChannelId(a.scheme.buildChannelConfig(t), NETWORK))

    // Poison 1: three calls served, then the payer withdraws everything and the delay passes unclaimed.
    const leaver = await sw.freshWallet(DEPOSIT, 10n ** 16n)
    const leaverAgent = batchAgent(sw.chain, leaver.privateKey, DEPOSIT)
    for (let i = 0; i < 3; i++) expect((await leaverAgent.call(url)).status).toBe(200)
    const leaverConfig = leaverAgent.scheme.buildChannelConfig(t)
    await initiateWithdraw(sw, leaver.privateKey, leaverConfig, DEPOSIT)

    // Poison 2: a plain wallet signing its own vouchers (payerAuthorizer zero). The service refuses such
    // channels now (payment_channel_authorizer_required); this one was served by an earlier version, which
    // left its record and its call in the books, written here as it wrote them.
    const attacker = await sw.freshWallet(1_000_000n, 10n ** 17n)
    const revoker = await sw.freshWallet(0n)
    const revokerConfig = channelOf(t, revoker.account.address, zeroAddress)
    await depositAs(sw, attacker.privateKey, revokerConfig, DEPOSIT)
    const revokerId = computeChannelId(revokerConfig, NETWORK)
    const voucher = await signVoucher(
      toClientEvmSigner(revoker.account, sw.chain),
      revokerId,
      PRICE.toString(),
      NETWORK,
    )
    const refused = await fetch(url, {
      headers: { 'PAYMENT-SIGNATURE': await voucherHeader(sw.chain, t, revokerConfig, revoker.privateKey) },
    })
    expect([refused.status, errorOf(await refused.json())?.code]).toEqual([
      402,
      'payment_channel_authorizer_required',
    ])
    await storage.updateChannel(revokerId, () => ({
      channelId: revokerId,
      channelConfig: revokerConfig,
      chargedCumulativeAmount: PRICE.toString(),
      signedMaxClaimable: PRICE.toString(),
      signature: voucher.signature,
      balance: DEPOSIT.toString(),
      totalClaimed: '0',
      withdrawRequestedAt: 0,
      refundNonce: 0,
      onchainSyncedAt: Date.now(),
      lastRequestTimestamp: Date.now(),
    }))
    await svc.services.deps.ledger.recordVoucher({
      payer: revoker.account.address,
      channelId: revokerId,
      cumulative: PRICE,
      route: 'GET /v1/prices',
      amount: PRICE,
      referrer: undefined,
      payTo,
      scheme: 'batch-settlement',
    })
    // Then it delegates (EIP-7702) to a contract whose ERC-1271 check refuses everything: the contract's
    // SignatureChecker now asks the code, and every claim naming this voucher reverts (InvalidSignature).
    const attackerWallet = walletOf(sw, attacker.privateKey)
    const toggle = await deployTestContract(sw, attackerWallet, 'Switch')
    const delegate = await deployTestContract(sw, attackerWallet, 'SwitchedDelegate', [toggle.address, 1n])
    const authorization = await walletOf(sw, revoker.privateKey).signAuthorization({
      contractAddress: delegate.address,
      chainId: 8453,
      nonce: 0,
    })
    const revoked = await attackerWallet.writeContract({
      address: toggle.address,
      abi: toggle.abi,
      functionName: 'set',
      args: [true],
      authorizationList: [authorization],
    })
    expect((await pollReceipt(sw.chain, revoked, RECEIPT)).status).toBe('success')

    await travel(sw, 901)
    expect(await finalizeWithdraw(sw, leaver.privateKey, leaverConfig)).toBe(DEPOSIT)

    // One round.
    const payToBefore = await sw.usdcBalance(payTo)
    const round = await svc.services.deps.batch.claimAndSweep()
    const leaverId = computeChannelId(leaverConfig, NETWORK)
    expect(
      round.dropped.map((d) => [d.channelId.toLowerCase(), d.reason, d.charged, d.claimed]).sort(),
    ).toEqual(
      [
        [leaverId.toLowerCase(), 'withdrawn', 3n * PRICE, 0n],
        [revokerId.toLowerCase(), 'claim_reverted', PRICE, 0n],
      ].sort(),
    )
    const states = await readBatchChannels(svc.services.deps.chain, honestIds)
    expect([...states.values()].map((s) => s.totalClaimed)).toEqual(Array(HONEST).fill(PRICE))
    expect((await sw.usdcBalance(payTo)) - payToBefore).toBe(BigInt(HONEST) * PRICE)

    // The poisoned channels' calls are booked served and never paid; their records are frozen, not removed:
    // the same deposit cannot serve again from a fresh start (a removed record would let the payer's next
    // voucher begin at one call's price again).
    await svc.services.deps.ledger.drain()
    for (const [payer, calls] of [
      [leaver.account.address, 3],
      [revoker.account.address, 1],
    ] as const) {
      const rows = await svc.services.deps.ledger.byPayer(payer)
      expect(rows.map((r) => [r.status, r.errorCode, r.served])).toEqual(
        Array(calls).fill(['unpaid', 'voucher_unclaimable', true]),
      )
    }
    for (const id of [leaverId, revokerId]) expect((await storage.get(id))?.onchainSyncedAt).toBe(FROZEN)
    const again = await leaverAgent.call(url)
    expect([again.status, errorOf(again.body)?.code]).toEqual([402, 'payment_voucher_exceeds_deposit'])
    expect(await svc.services.deps.ledger.byPayer(leaver.account.address)).toHaveLength(3)

    // The next round has nothing left to do, and nothing stops it.
    expect(await svc.services.deps.batch.claimAndSweep()).toEqual({
      claimTransactions: [],
      dropped: [],
      sweep: undefined,
    })

    // Freezing stops serving, not claiming: a deposit into the withdrawn channel (straight onchain, by anyone)
    // makes it hold what it was charged, and the next round claims the three calls after all, books them
    // settled again and unfreezes the channel.
    await depositAs(sw, attacker.privateKey, leaverConfig, DEPOSIT)
    const beforeThaw = await sw.usdcBalance(payTo)
    const thawed = await svc.services.deps.batch.claimAndSweep()
    expect(thawed.claimTransactions).toHaveLength(1)
    expect(
      (await readBatchChannels(svc.services.deps.chain, [leaverId])).get(leaverId.toLowerCase()),
    ).toMatchObject({ balance: DEPOSIT, totalClaimed: 3n * PRICE })
    expect((await sw.usdcBalance(payTo)) - beforeThaw).toBe(3n * PRICE)
    const reopened = await svc.services.deps.ledger.byPayer(leaver.account.address)
    expect(reopened.map((r) => [r.status, r.errorCode])).toEqual(Array(3).fill(['settled', null]))
    expect((await storage.get(leaverId))?.onchainSyncedAt).not.toBe(FROZEN)
  }, 180_000)
})
