import { computeChannelId } from '@x402/evm/batch-settlement/client'
import { zeroAddress } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { readBatchChannels } from '../../src/chain/batchChannels.js'
import { NETWORK } from '../../src/chain/network.js'
import { deployTestContract, walletOf } from '../helpers/attackKit.js'
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

// Issue 37 items 1 and 2, on the batch-settlement rail with real deposits into the devnet's x402BatchSettlement:
// a payer's timed withdrawal must not pay out vouchers it was served (the service kept serving against its
// copy of the channel, and the payout left them unclaimable), and a contract payer with no separate signer
// must not be served on signatures only its own code judges, at claim time. The withdrawal test moves the
// chain's clock past the withdraw delay, so it runs last (the world's reset before the next file brings it back).
const sw = useWorld()
const PATH = '/v1/prices?symbols=BTC'
const PRICE = 1000n
let svc: Instance

beforeAll(async () => {
  // Claims only when a test asks, or when the service sees a withdrawal.
  svc = await sw.instance({ BATCH_CLAIM_INTERVAL_SECONDS: '600' })
}, 120_000)

const terms = () => batchTermsOf(svc, PRICE)

const send = async (header: string) => {
  const res = await fetch(`${svc.url}${PATH}`, { headers: { 'PAYMENT-SIGNATURE': header } })
  return { status: res.status, code: errorOf(await res.json())?.code }
}

const onchain = async (channelId: `0x${string}`) => {
  const state = (await readBatchChannels(svc.services.deps.chain, [channelId])).get(channelId.toLowerCase())
  if (state === undefined) throw new Error('no channel state')
  return state
}

describe('batch-settlement: withdrawals and contract payers', () => {
  test('attack: a channel with a zero payerAuthorizer is refused before anything is served, its payer a contract or a plain wallet', async () => {
    const attacker = await sw.freshWallet(1_000_000n, 10n ** 17n)
    const toggle = await deployTestContract(sw, walletOf(sw, attacker.privateKey), 'Switch')
    // Accepts any 32-byte signature of zeros while its switch is on; the owner can turn it off after.
    const wallet = await deployTestContract(sw, walletOf(sw, attacker.privateKey), 'SwitchedWallet', [
      toggle.address,
    ])
    const t = await terms()
    const config = channelOf(t, wallet.address, zeroAddress)
    await depositAs(sw, attacker.privateKey, config, 100_000n)
    const channelId = computeChannelId(config, NETWORK)
    const header = await voucherHeader(sw.chain, t, config, attacker.privateKey)
    // The contract's own "signature": 32 zero bytes, which its isValidSignature accepts while switched on.
    const payload = JSON.parse(Buffer.from(header, 'base64').toString()) as {
      payload: { voucher: { signature: string } }
    }
    payload.payload.voucher.signature = `0x${'00'.repeat(32)}`
    const junk = Buffer.from(JSON.stringify(payload)).toString('base64')
    for (let i = 0; i < 3; i++) {
      expect(await send(junk)).toEqual({ status: 402, code: 'payment_channel_authorizer_required' })
    }
    // A plain wallet signing for itself can delegate (EIP-7702) to such a contract after it was served.
    const eoa = await sw.freshWallet(0n, 10n ** 16n)
    const own = channelOf(t, eoa.account.address, zeroAddress)
    await depositAs(sw, attacker.privateKey, own, 10_000n)
    expect(await send(await voucherHeader(sw.chain, t, own, eoa.privateKey))).toEqual({
      status: 402,
      code: 'payment_channel_authorizer_required',
    })
    for (const [id, payer] of [
      [channelId, wallet.address],
      [computeChannelId(own, NETWORK), eoa.account.address],
    ] as const) {
      expect(await svc.services.deps.batch.scheme.getStorage().get(id)).toBeUndefined()
      await svc.services.deps.ledger.drain()
      expect(await svc.services.deps.ledger.byPayer(payer)).toEqual([])
    }
  })

  test('attack: a withdrawal begun on a channel with nothing owed stops it serving at the next claim round, not when its copy goes stale', async () => {
    const wallet = await sw.freshWallet(10_000n, 10n ** 16n)
    const agent = batchAgent(sw.chain, wallet.privateKey, 10_000n)
    const url = `${svc.url}${PATH}`
    for (let i = 0; i < 2; i++) expect((await agent.call(url)).status).toBe(200)
    await svc.services.deps.batch.claimAndSweep()
    const config = agent.scheme.buildChannelConfig(await terms())
    await initiateWithdraw(sw, wallet.privateKey, config, 8_000n)
    // The service's copy is fresh (from the deposit, seconds old): before the round, a voucher is still served.
    expect((await agent.call(url)).status).toBe(200)
    await svc.services.deps.batch.claimAndSweep()
    const refused = await agent.call(url)
    expect([refused.status, errorOf(refused.body)?.code]).toEqual([402, 'payment_channel_withdrawing'])
    expect(await onchain(computeChannelId(config, NETWORK))).toMatchObject({ totalClaimed: 3n * PRICE })
    await svc.services.deps.ledger.drain()
    expect(await svc.services.deps.ledger.byPayer(wallet.account.address)).toHaveLength(3)
  })

  test('attack: a timed withdrawal stops the channel serving once the service sees it, every served voucher is claimed before the payout, and the payout is only what was not served', async () => {
    const payTo = svc.config.payTo
    const wallet = await sw.freshWallet(100_000n, 10n ** 16n)
    const agent = batchAgent(sw.chain, wallet.privateKey, 100_000n)
    const url = `${svc.url}${PATH}`
    for (let i = 0; i < 5; i++) expect((await agent.call(url)).status).toBe(200)
    await svc.services.deps.batch.claimAndSweep()
    const payToBefore = await sw.usdcBalance(payTo)
    // Three more calls, not claimed yet; then the payer asks for everything it has not been charged for.
    for (let i = 0; i < 3; i++) expect((await agent.call(url)).status).toBe(200)
    const config = agent.scheme.buildChannelConfig(await terms())
    const channelId = computeChannelId(config, NETWORK)
    await initiateWithdraw(sw, wallet.privateKey, config, 95_000n)

    // The service's copy of the channel is from the deposit; served vouchers are read against it until it is
    // a third of the withdraw delay old (@x402/evm's default). Here it is that old: the next voucher reads the
    // chain, sees the withdrawal, and is refused (before the fix: served, against the deposit's 100,000).
    const storage = svc.services.deps.batch.scheme.getStorage()
    await storage.updateChannel(channelId, (c) =>
      c === undefined ? c : { ...c, onchainSyncedAt: Date.now() - 301_000 },
    )
    const refused = await agent.call(url)
    expect([refused.status, errorOf(refused.body)?.code]).toEqual([402, 'payment_channel_withdrawing'])
    expect(refused.receipt).toBeNull()

    // The service claims the channel at once, without waiting for its 10-minute round, and sweeps it.
    const deadline = Date.now() + 15_000
    while ((await onchain(channelId)).totalClaimed < 8n * PRICE && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(await onchain(channelId)).toMatchObject({ balance: 100_000n, totalClaimed: 8n * PRICE })
    // Still refused while the withdrawal is pending, and still free.
    const again = await agent.call(url)
    expect([again.status, errorOf(again.body)?.code]).toEqual([402, 'payment_channel_withdrawing'])

    // The delay passes; the payout is what the payer was not served: 100,000 − 8 calls.
    await travel(sw, 901)
    expect(await finalizeWithdraw(sw, wallet.privateKey, config)).toBe(92_000n)
    await svc.services.deps.batch.claimAndSweep()
    expect((await sw.usdcBalance(payTo)) - payToBefore).toBe(3n * PRICE)
    await svc.services.deps.ledger.drain()
    const rows = await svc.services.deps.ledger.byPayer(wallet.account.address)
    expect(rows.map((r) => [r.amount, r.status])).toEqual(Array(8).fill([PRICE, 'settled']))
  })
})
