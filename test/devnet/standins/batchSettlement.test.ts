/**
 * x402's `batch-settlement` scheme, run by the OFFICIAL @x402/evm 2.27.0 code (client, server and facilitator
 * schemes, through @x402/core's x402Facilitator) against the devnet's x402BatchSettlement stand-in and its
 * EIP-3009 deposit collector, etched at the canonical addresses the package hard-codes. Nothing of the package
 * is patched or mocked: its own ABI, EIP-712 types, channel-id derivation and encoders talk to the stand-in.
 *
 * Covered (behaviour of the real contract, coinbase/x402 contracts/evm/src/x402BatchSettlement.sol):
 * - channel id = EIP-712 hash of ChannelConfig under ("x402 Batch Settlement", "1", 8453, 0x4020…0003);
 * - gasless deposit: the payer's ReceiveWithAuthorization (payee = the collector, nonce = keccak(channelId,
 *   salt)) is pulled by the collector and forwarded; ChannelCreated/Deposited; the facilitator's verify,
 *   including its eth_call simulation of `deposit`;
 * - cumulative vouchers (payerAuthorizer = payer, ECDSA), claimWithSignature of several vouchers of two
 *   channels in one transaction under one receiverAuthorizer ClaimBatch signature, Claimed deltas;
 * - settle(receiver, token) sweeping all claims in one transfer (Settled amount read back by the facilitator);
 * - a replayed claim batch is a no-op (the real contract skips rows at or below the recorded total; it does
 *   NOT revert), claims above the channel balance (ClaimExceedsBalance) or the voucher ceiling
 *   (ClaimExceedsCeiling), bad payer and authorizer signatures (InvalidSignature), NotAuthorizedToClaim,
 *   InvalidRefundNonce;
 * - cooperative refundWithSignature (refund nonce, capped amount) alone and bundled with a claim through
 *   multicall, as the facilitator sends it;
 * - the timed withdrawal: WithdrawDelayNotElapsed before the channel's 15-minute delay, payout after it.
 * Not covered: Permit2 deposits (no Permit2 on the devnet; no Permit2 collector is etched), EIP-2612 / ERC-20
 * approval gas sponsoring, ERC-1271 / ERC-6492 smart-wallet payers, a payerAuthorizer distinct from the payer,
 * fee-on-transfer tokens (DepositCollectionFailed), and gas figures (the stand-in's code is its own).
 */
import { x402Facilitator } from '@x402/core/facilitator'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { toClientEvmSigner, toFacilitatorEvmSigner } from '@x402/evm'
import {
  BatchSettlementEvmScheme as BatchClient,
  computeChannelId,
  InMemoryClientChannelStorage,
  updateChannelFromSettle,
} from '@x402/evm/batch-settlement/client'
import { BatchSettlementEvmScheme as BatchFacilitator } from '@x402/evm/batch-settlement/facilitator'
import { BatchSettlementEvmScheme as BatchServer } from '@x402/evm/batch-settlement/server'
import {
  type Abi,
  type Account,
  type Address,
  type BaseError,
  type Chain,
  ContractFunctionRevertedError,
  erc20Abi,
  type Hex,
  parseEventLogs,
  type Transport,
  type WalletClient,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { formatAbiItem } from 'viem/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NETWORK, USDC, USDC_EIP712 } from '../../../src/chain/network.js'
import { pollReceipt } from '../../../src/chain/pollReceipt.js'
import {
  BATCH_SETTLEMENT_ADDRESSES,
  batchSettlementAbi,
  deployBatchSettlement,
} from '../../../src/devnet/deploy/batchSettlement.js'
import { deployTokens, fundToken } from '../../../src/devnet/deploy/tokens.js'
import { RECEIPT } from '../../helpers/chainChecks.js'
import { compileStandIns, type Harness, startHarness } from './harness.js'

const SETTLEMENT = BATCH_SETTLEMENT_ADDRESSES.settlement
const PRICE = 10_000n // $0.01 per call
const DEPOSIT = 100_000n // the server's announced minDeposit: 10 × the price
const FUNDING = 1_000_000n

type Wallet = WalletClient<Transport, Chain, Account>
type ChannelConfig = ReturnType<BatchClient['buildChannelConfig']>
interface Voucher {
  channelId: Hex
  maxClaimableAmount: string
  signature: Hex
}
interface Payer {
  wallet: Wallet
  client: BatchClient
  storage: InMemoryClientChannelStorage
  config: ChannelConfig
  channelId: Hex
  vouchers: Voucher[]
  /** USDC held before the test funded it. */
  startBalance: bigint
}

let h: Harness
let requirements: PaymentRequirements
let facilitator: x402Facilitator
const receiver = privateKeyToAccount(generatePrivateKey()).address
const authorizer = privateKeyToAccount(generatePrivateKey())
let payerA: Payer
let payerB: Payer

const usdcOf = (owner: Address) =>
  h.ctx.publicClient.readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
const channelOf = (id: Hex) =>
  h.ctx.publicClient.readContract({
    address: SETTLEMENT,
    abi: batchSettlementAbi,
    functionName: 'channels',
    args: [id],
  })
const receiverState = () =>
  h.ctx.publicClient.readContract({
    address: SETTLEMENT,
    abi: batchSettlementAbi,
    functionName: 'receivers',
    args: [receiver, USDC],
  })

/** A PaymentPayload as the HTTP client would send it for `requirements`. */
const envelope = (payload: Record<string, unknown>): PaymentPayload => ({
  x402Version: 2,
  accepted: requirements,
  payload,
})

/** The facilitator's signer: viem clients of a relayer that pays gas (as src/payments builds one for `exact`). */
function facilitatorSigner(wallet: Wallet) {
  const pc = h.ctx.publicClient
  return toFacilitatorEvmSigner({
    address: wallet.account.address,
    readContract: (a) => pc.readContract(a as Parameters<typeof pc.readContract>[0]),
    verifyTypedData: (a) => pc.verifyTypedData(a as Parameters<typeof pc.verifyTypedData>[0]),
    writeContract: (a) => wallet.writeContract(a as Parameters<Wallet['writeContract']>[0]),
    sendTransaction: (a) => wallet.sendTransaction(a),
    waitForTransactionReceipt: (a) => pollReceipt(pc, a.hash, RECEIPT),
    getCode: (a) => pc.getCode(a),
  })
}

async function newPayer(wallet: Wallet): Promise<Payer> {
  const startBalance = await usdcOf(wallet.account.address)
  await fundToken(h.ctx, USDC, wallet.account.address, FUNDING)
  const storage = new InMemoryClientChannelStorage()
  const account = wallet.account
  if (account.type !== 'local') throw new Error('payers sign with local keys')
  const client = new BatchClient(toClientEvmSigner(account, h.ctx.publicClient), { storage })
  const config = client.buildChannelConfig(requirements)
  const channelId = (await h.ctx.publicClient.readContract({
    address: SETTLEMENT,
    abi: batchSettlementAbi,
    functionName: 'getChannelId',
    args: [config],
  })) as Hex
  return { wallet, client, storage, config, channelId, vouchers: [], startBalance }
}

/**
 * One paid call: the client signs its payload (a deposit on the first call), the facilitator verifies it and,
 * for a deposit, settles it onchain; the client then books the charge as the server's settle response would
 * make it (x402's server answers `chargedAmount` = the price).
 */
async function pay(p: Payer): Promise<{ type: string }> {
  const { payload } = await p.client.createPaymentPayload(2, requirements)
  const body = payload as { type: string; voucher: Voucher; deposit?: { amount: string } }
  const verified = await facilitator.verify(envelope(payload), requirements)
  expect(verified, JSON.stringify(verified)).toMatchObject({ isValid: true, payer: p.wallet.account.address })
  if (body.type === 'deposit') {
    const settled = await facilitator.settle(envelope(payload), requirements)
    expect(settled, JSON.stringify(settled)).toMatchObject({ success: true, amount: body.deposit?.amount })
  }
  expect(body.voucher.channelId.toLowerCase()).toBe(p.channelId.toLowerCase())
  p.vouchers.push(body.voucher)
  await updateChannelFromSettle(p.storage, {
    server: { chargedAmount: PRICE.toString() },
    local: {
      channelId: p.channelId,
      requestAmount: PRICE.toString(),
      ...(body.deposit ? { depositAmount: body.deposit.amount } : {}),
    },
  })
  return body
}

/** A claim row as x402's server channel manager hands it to the facilitator. */
const row = (p: Payer, v: Voucher, totalClaimed = BigInt(v.maxClaimableAmount)) => ({
  voucher: { channel: p.config, maxClaimableAmount: v.maxClaimableAmount },
  signature: v.signature,
  totalClaimed: totalClaimed.toString(),
})
type ClaimRow = ReturnType<typeof row>
const contractRow = (r: ClaimRow) => ({
  voucher: { channel: r.voucher.channel, maxClaimableAmount: BigInt(r.voucher.maxClaimableAmount) },
  signature: r.signature,
  totalClaimed: BigInt(r.totalClaimed),
})

async function receiptOf(hash: string) {
  const receipt = await pollReceipt(h.ctx.publicClient, hash as Hex, RECEIPT)
  expect(receipt.status).toBe('success')
  return receipt
}

/** The custom error a call to the settlement contract reverts with. */
async function revertOf(functionName: string, args: readonly unknown[], account: Address): Promise<string> {
  try {
    await h.ctx.publicClient.simulateContract({
      address: SETTLEMENT,
      abi: batchSettlementAbi,
      functionName,
      args,
      account,
    } as never)
  } catch (err) {
    const reverted = (err as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
    if (reverted instanceof ContractFunctionRevertedError)
      return reverted.data?.errorName ?? reverted.reason ?? 'unknown'
    throw err
  }
  throw new Error(`${functionName} did not revert`)
}

/** Sign a ClaimBatch the way the facilitator's authorizer does, with any key. */
async function claimBatchSignature(
  key: ReturnType<typeof privateKeyToAccount>,
  rows: ClaimRow[],
): Promise<Hex> {
  const digest = (await h.ctx.publicClient.readContract({
    address: SETTLEMENT,
    abi: batchSettlementAbi,
    functionName: 'getClaimBatchDigest',
    args: [rows.map(contractRow)],
  })) as Hex
  return key.sign({ hash: digest })
}

beforeAll(async () => {
  h = await startHarness()
  await deployTokens(h.ctx, { ethUsd: 3000, btcUsd: 60_000 })
  await deployBatchSettlement(h.ctx)

  // The server scheme fills in what the channel needs (receiverAuthorizer, withdrawDelay, minDeposit).
  const server = new BatchServer(receiver, { withdrawDelay: 900 })
  requirements = await server.enhancePaymentRequirements(
    {
      scheme: 'batch-settlement',
      network: NETWORK,
      asset: USDC,
      amount: PRICE.toString(),
      payTo: receiver,
      maxTimeoutSeconds: 300,
      extra: { ...USDC_EIP712 },
    },
    {
      x402Version: 2,
      scheme: 'batch-settlement',
      network: NETWORK,
      extra: { receiverAuthorizer: authorizer.address },
    },
    [],
  )
  // The relayer is the harness deployer (demo account 0); payers are demo accounts 1 and 2.
  facilitator = new x402Facilitator().register(
    NETWORK,
    new BatchFacilitator(facilitatorSigner(h.ctx.walletClient), authorizer),
  )
  payerA = await newPayer(h.users[0]!)
  payerB = await newPayer(h.users[1]!)
}, 120_000)
afterAll(async () => {
  await h?.stop()
})

describe('x402 batch-settlement against the x402BatchSettlement stand-in', () => {
  it('has every function, event (with its indexed layout) and custom error of the real ABI', () => {
    const compiled = compileStandIns()
    const standIn = ['X402BatchSettlementStandIn', 'ERC3009DepositCollectorStandIn'].flatMap(
      (n) => compiled.get(n)!.abi,
    )
    const key = (item: Abi[number]) =>
      item.type === 'function' || item.type === 'event' || item.type === 'error'
        ? `${item.type} ${formatAbiItem(item)}${item.type === 'event' ? ` ${item.inputs.map((i) => i.indexed === true)}` : ''}`
        : item.type
    const have = new Set(standIn.map(key))
    const missing = batchSettlementAbi.map(key).filter((k) => !have.has(k))
    expect(missing).toEqual([])
  })

  it('announces the deposit terms the package expects', () => {
    expect(requirements.extra).toMatchObject({
      receiverAuthorizer: authorizer.address,
      withdrawDelay: 900,
      minDeposit: DEPOSIT.toString(),
    })
  })

  it('derives the channel id exactly as the package does, under the canonical EIP-712 domain', async () => {
    expect(computeChannelId(payerA.config, NETWORK)).toBe(payerA.channelId)
    const domain = await h.ctx.publicClient.readContract({
      address: SETTLEMENT,
      abi: batchSettlementAbi,
      functionName: 'eip712Domain',
    })
    expect(domain.slice(1, 5)).toEqual(['x402 Batch Settlement', '1', 8453n, SETTLEMENT])
  })

  it('deposits gaslessly through the EIP-3009 collector, then takes cumulative vouchers', async () => {
    const before = await usdcOf(payerA.wallet.account.address)
    const ethBefore = await h.ctx.publicClient.getBalance({ address: payerA.wallet.account.address })
    expect((await pay(payerA)).type).toBe('deposit')
    expect(await usdcOf(payerA.wallet.account.address)).toBe(before - DEPOSIT)
    expect(await usdcOf(SETTLEMENT)).toBe(DEPOSIT)
    expect(await usdcOf(BATCH_SETTLEMENT_ADDRESSES.erc3009DepositCollector)).toBe(0n)
    expect(await channelOf(payerA.channelId)).toEqual([DEPOSIT, 0n])
    // The payer paid no gas: the relayer sent the deposit.
    expect(await h.ctx.publicClient.getBalance({ address: payerA.wallet.account.address })).toBe(ethBefore)

    for (let i = 0; i < 3; i++) expect((await pay(payerA)).type).toBe('voucher')
    expect(payerA.vouchers.map((v) => v.maxClaimableAmount)).toEqual(['10000', '20000', '30000', '40000'])

    expect((await pay(payerB)).type).toBe('deposit')
    for (let i = 0; i < 2; i++) expect((await pay(payerB)).type).toBe('voucher')
    expect(await usdcOf(SETTLEMENT)).toBe(2n * DEPOSIT)
    // Vouchers only sign; nothing is claimed yet.
    expect(await channelOf(payerB.channelId)).toEqual([DEPOSIT, 0n])
  })

  it('claims several vouchers of two channels in one claimWithSignature, then settles them in one transfer', async () => {
    const claims = [
      row(payerA, payerA.vouchers[1]!),
      row(payerA, payerA.vouchers[3]!),
      row(payerB, payerB.vouchers[2]!),
    ]
    const claimed = await facilitator.settle(envelope({ type: 'claim', claims }), requirements)
    expect(claimed, JSON.stringify(claimed)).toMatchObject({ success: true })
    const logs = parseEventLogs({
      abi: batchSettlementAbi,
      eventName: 'Claimed',
      logs: (await receiptOf(claimed.transaction)).logs,
    })
    expect(logs.map((l) => [l.args.channelId, l.args.claimAmount, l.args.newTotalClaimed])).toEqual([
      [payerA.channelId, 20_000n, 20_000n],
      [payerA.channelId, 20_000n, 40_000n],
      [payerB.channelId, 30_000n, 30_000n],
    ])
    expect(await channelOf(payerA.channelId)).toEqual([DEPOSIT, 40_000n])
    expect(await channelOf(payerB.channelId)).toEqual([DEPOSIT, 30_000n])
    expect(await receiverState()).toEqual([70_000n, 0n])
    // Claiming moves no tokens; settling does.
    expect(await usdcOf(receiver)).toBe(0n)

    const settled = await facilitator.settle(
      envelope({ type: 'settle', receiver, token: USDC }),
      requirements,
    )
    expect(settled, JSON.stringify(settled)).toMatchObject({ success: true, amount: '70000' })
    expect(await usdcOf(receiver)).toBe(70_000n)
    expect(await usdcOf(SETTLEMENT)).toBe(2n * DEPOSIT - 70_000n)
    expect(await receiverState()).toEqual([70_000n, 70_000n])

    // Nothing left to settle: the facilitator refuses before sending anything.
    const again = await facilitator.settle(envelope({ type: 'settle', receiver, token: USDC }), requirements)
    expect(again).toMatchObject({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_nothing_to_settle',
    })
  })

  it('treats a replayed or lower claim as a no-op, like the real contract (no revert, nothing claimed twice)', async () => {
    const claims = [
      row(payerA, payerA.vouchers[3]!),
      row(payerA, payerA.vouchers[0]!),
      row(payerB, payerB.vouchers[2]!),
    ]
    const replay = await facilitator.settle(envelope({ type: 'claim', claims }), requirements)
    expect(replay, JSON.stringify(replay)).toMatchObject({ success: true })
    const logs = parseEventLogs({
      abi: batchSettlementAbi,
      eventName: 'Claimed',
      logs: (await receiptOf(replay.transaction)).logs,
    })
    expect(logs).toEqual([])
    expect(await channelOf(payerA.channelId)).toEqual([DEPOSIT, 40_000n])
    expect(await receiverState()).toEqual([70_000n, 70_000n])
    // And the facilitator rejects a voucher at or below what is already claimed.
    const stale = await facilitator.verify(
      envelope({ type: 'voucher', channelConfig: payerA.config, voucher: payerA.vouchers[3]! }),
      requirements,
    )
    expect(stale).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_batch_settlement_evm_cumulative_below_claimed',
    })
  })

  it('reverts claims beyond the deposit or the voucher, and bad payer or authorizer signatures', async () => {
    const relayer = h.ctx.deployer
    const claimWith = async (rows: ClaimRow[], key = authorizer) =>
      revertOf('claimWithSignature', [rows.map(contractRow), await claimBatchSignature(key, rows)], relayer)

    // A voucher for more than the channel holds: the facilitator refuses it, the contract too.
    const tooMuch = await payerA.wallet.signTypedData({
      domain: { name: 'x402 Batch Settlement', version: '1', chainId: 8453, verifyingContract: SETTLEMENT },
      types: {
        Voucher: [
          { name: 'channelId', type: 'bytes32' },
          { name: 'maxClaimableAmount', type: 'uint128' },
        ],
      },
      primaryType: 'Voucher',
      message: { channelId: payerA.channelId, maxClaimableAmount: 150_000n },
    })
    const big: Voucher = { channelId: payerA.channelId, maxClaimableAmount: '150000', signature: tooMuch }
    expect(
      await facilitator.verify(
        envelope({ type: 'voucher', channelConfig: payerA.config, voucher: big }),
        requirements,
      ),
    ).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_batch_settlement_evm_cumulative_exceeds_balance',
    })
    expect(await claimWith([row(payerA, big)])).toBe('ClaimExceedsBalance')
    const viaFacilitator = await facilitator.settle(
      envelope({ type: 'claim', claims: [row(payerA, big)] }),
      requirements,
    )
    expect(viaFacilitator).toMatchObject({
      success: false,
      errorReason: 'invalid_batch_settlement_evm_claim_simulation_failed',
    })

    // Claiming more than the voucher's own ceiling.
    expect(await claimWith([row(payerB, payerB.vouchers[2]!, 35_000n)])).toBe('ClaimExceedsCeiling')

    // A voucher signed by someone other than the payer (its payerAuthorizer).
    const forged = { ...payerB.vouchers[2]!, maxClaimableAmount: '50000' }
    forged.signature = await payerA.wallet.signTypedData({
      domain: { name: 'x402 Batch Settlement', version: '1', chainId: 8453, verifyingContract: SETTLEMENT },
      types: {
        Voucher: [
          { name: 'channelId', type: 'bytes32' },
          { name: 'maxClaimableAmount', type: 'uint128' },
        ],
      },
      primaryType: 'Voucher',
      message: { channelId: payerB.channelId, maxClaimableAmount: 50_000n },
    })
    expect(await claimWith([row(payerB, forged)])).toBe('InvalidSignature')
    expect(
      await facilitator.verify(
        envelope({ type: 'voucher', channelConfig: payerB.config, voucher: forged }),
        requirements,
      ),
    ).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_batch_settlement_evm_voucher_signature',
    })

    // A genuine payer voucher, but the batch signed by a key that is not the receiverAuthorizer.
    const next = await pay(payerB)
    expect(next.type).toBe('voucher')
    const genuine = [row(payerB, payerB.vouchers[3]!)]
    expect(await claimWith(genuine, privateKeyToAccount(generatePrivateKey()))).toBe('InvalidSignature')
    // Direct `claim` is for the receiver side only.
    expect(await revertOf('claim', [genuine.map(contractRow)], relayer)).toBe('NotAuthorizedToClaim')
    // A refund signed for a nonce other than the current one.
    expect(await revertOf('refundWithSignature', [payerA.config, 1n, 5n, '0x'], relayer)).toBe(
      'InvalidRefundNonce',
    )
    // None of it changed the books.
    expect(await channelOf(payerA.channelId)).toEqual([DEPOSIT, 40_000n])
    expect(await channelOf(payerB.channelId)).toEqual([DEPOSIT, 30_000n])
  })

  it("lets the payer withdraw unclaimed funds only after the channel's delay", async () => {
    const payer = payerB.wallet.account.address
    const send = async (functionName: 'initiateWithdraw' | 'finalizeWithdraw', args: readonly unknown[]) =>
      receiptOf(
        await payerB.wallet.writeContract({
          address: SETTLEMENT,
          abi: batchSettlementAbi,
          functionName,
          args,
        } as never),
      )

    expect(await revertOf('initiateWithdraw', [payerB.config, 80_000n], payer)).toBe(
      'WithdrawAmountExceedsAvailable',
    )
    const initiated = await send('initiateWithdraw', [payerB.config, 10_000n])
    const initiatedAt = (await h.ctx.publicClient.getBlock({ blockNumber: initiated.blockNumber })).timestamp
    expect(await revertOf('initiateWithdraw', [payerB.config, 10_000n], payer)).toBe(
      'WithdrawalAlreadyPending',
    )
    expect(await revertOf('finalizeWithdraw', [payerB.config], payer)).toBe('WithdrawDelayNotElapsed')
    expect(await revertOf('finalizeWithdraw', [payerB.config], receiver)).toBe(
      'NotAuthorizedToFinalizeWithdraw',
    )

    // Block timestamps set exactly (not moved by a wall-clock increment, which a slow machine stretches):
    // one second before the delay ends, then past it.
    await h.ctx.testClient.setNextBlockTimestamp({ timestamp: initiatedAt + 899n })
    await h.ctx.testClient.mine({ blocks: 1 })
    expect(await revertOf('finalizeWithdraw', [payerB.config], payer)).toBe('WithdrawDelayNotElapsed')
    await h.ctx.testClient.setNextBlockTimestamp({ timestamp: initiatedAt + 901n })
    await h.ctx.testClient.mine({ blocks: 1 })

    const before = await usdcOf(payer)
    await send('finalizeWithdraw', [payerB.config])
    expect(await usdcOf(payer)).toBe(before + 10_000n)
    expect(await channelOf(payerB.channelId)).toEqual([DEPOSIT - 10_000n, 30_000n])
    expect(await revertOf('finalizeWithdraw', [payerB.config], payer)).toBe('WithdrawalNotPending')
  })

  it('refunds the rest cooperatively: refundWithSignature alone, and bundled with a last claim in multicall', async () => {
    const a = payerA.wallet.account.address
    const aBefore = await usdcOf(a)
    const refundA = await facilitator.settle(
      envelope({
        type: 'refund',
        channelConfig: payerA.config,
        voucher: payerA.vouchers[3]!,
        amount: '60000',
        refundNonce: '0',
        claims: [],
      }),
      requirements,
    )
    expect(refundA, JSON.stringify(refundA)).toMatchObject({ success: true, amount: '60000' })
    expect(await usdcOf(a)).toBe(aBefore + 60_000n)
    expect(await channelOf(payerA.channelId)).toEqual([40_000n, 40_000n])
    expect(
      await h.ctx.publicClient.readContract({
        address: SETTLEMENT,
        abi: batchSettlementAbi,
        functionName: 'refundNonce',
        args: [payerA.channelId],
      }),
    ).toBe(1n)

    // B's fourth voucher (40 000) is unclaimed: the facilitator claims it and refunds the rest in one tx.
    const b = payerB.wallet.account.address
    const bBefore = await usdcOf(b)
    const last = payerB.vouchers[3]!
    const refundB = await facilitator.settle(
      envelope({
        type: 'refund',
        channelConfig: payerB.config,
        voucher: last,
        amount: '50000',
        refundNonce: '0',
        claims: [row(payerB, last)],
      }),
      requirements,
    )
    expect(refundB, JSON.stringify(refundB)).toMatchObject({ success: true, amount: '50000' })
    const receipt = await receiptOf(refundB.transaction)
    const events = parseEventLogs({ abi: batchSettlementAbi, logs: receipt.logs }).map((l) => l.eventName)
    expect(events).toEqual(['Claimed', 'Refunded'])
    expect(await usdcOf(b)).toBe(bBefore + 50_000n)
    expect(await channelOf(payerB.channelId)).toEqual([40_000n, 40_000n])

    // The last claim is swept too; the contract ends up holding nothing.
    const settled = await facilitator.settle(
      envelope({ type: 'settle', receiver, token: USDC }),
      requirements,
    )
    expect(settled).toMatchObject({ success: true, amount: '10000' })
    expect(await usdcOf(receiver)).toBe(80_000n)
    expect(await usdcOf(SETTLEMENT)).toBe(0n)
    // Each payer paid exactly their claimed vouchers: A 40 000, B 40 000 (10 000 of B's came back by withdrawal).
    expect(await usdcOf(a)).toBe(payerA.startBalance + FUNDING - 40_000n)
    expect(await usdcOf(b)).toBe(payerB.startBalance + FUNDING - 40_000n)
  })
})
