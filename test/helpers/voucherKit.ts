import { encodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { toClientEvmSigner } from '@x402/evm'
import {
  BatchSettlementEvmScheme,
  computeChannelId,
  InMemoryClientChannelStorage,
  signVoucher,
} from '@x402/evm/batch-settlement/client'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { type Address, createTestClient, erc20Abi, type Hex, http, type PublicClient, zeroHash } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { X402_BATCH_SETTLEMENT } from '../../src/chain/addresses.js'
import { NETWORK, USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { batchSettlementAbi } from '../../src/devnet/deploy/batchSettlement.js'
import { deployTestContract, walletOf } from './attackKit.js'
import { RECEIPT } from './chainChecks.js'
import type { Instance, ServiceWorld } from './serviceWorld.js'

// Batch-settlement channels paid by the official client, and built by hand as an attacker builds them (any
// payer named, any key signing).

/**
 * An agent paying with the official client (@x402/fetch over @x402/evm's batch-settlement client scheme) on
 * one channel, depositing `deposit` when the server's minimum allows it. The PAYMENT-SIGNATURE of each paid
 * request is kept (`signatures`, in order, noted when sent) with its status (`paid`).
 */
export function batchAgent(chain: PublicClient, privateKey: Hex, deposit: bigint) {
  const account = privateKeyToAccount(privateKey)
  const storage = new InMemoryClientChannelStorage()
  const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(account, chain), {
    storage,
    depositStrategy: (ctx) => (BigInt(ctx.minimumDepositAmount) > deposit ? undefined : deposit),
  })
  const client = new x402Client().register(NETWORK, scheme)
  const paid: number[] = []
  const signatures: string[] = []
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    const signature = request.headers.get('payment-signature')
    if (signature !== null) signatures.push(signature)
    const res = await fetch(request)
    if (signature !== null) paid.push(res.status)
    return res
  }
  const pay = wrapFetchWithPayment(recording, client)
  return {
    account,
    storage,
    scheme,
    /** The x402Client, for hooks (a payment identifier per payment). */
    client,
    paid,
    signatures,
    pay,
    /** Calls `url` paying with the official client; the body is read (the call is over). */
    async call(url: string) {
      const res = await pay(url)
      const body = (await res.json()) as { error?: { code?: string } | string; refusal?: { code?: string } }
      return {
        status: res.status,
        body,
        receipt: res.headers.get('payment-response'),
        retryAfter: res.headers.get('retry-after'),
      }
    },
  }
}

export type BatchAgent = ReturnType<typeof batchAgent>

/** The batch-settlement entry `instance` offers at `price` (atomic USDC), as its challenges carry it. */
export async function batchTermsOf(instance: Instance, price: bigint): Promise<PaymentRequirements> {
  const entry = await instance.services.deps.batch.requirements(price)
  if (entry === undefined) throw new Error('no batch-settlement entry')
  return entry
}

/** A channel config the service accepts under `terms`, naming `payer`, whose vouchers `authorizer` signs. */
export function channelOf(
  terms: PaymentRequirements,
  payer: Address,
  authorizer: Address,
  salt: Hex = zeroHash,
) {
  const extra = terms.extra as { receiverAuthorizer: Address; withdrawDelay: number }
  return {
    payer,
    payerAuthorizer: authorizer,
    receiver: terms.payTo as Address,
    receiverAuthorizer: extra.receiverAuthorizer,
    token: terms.asset as Address,
    withdrawDelay: extra.withdrawDelay,
    salt,
  }
}

export type ChannelConfig = ReturnType<typeof channelOf>

/**
 * Deposits `amount` of the key's USDC into `channelConfig`, through a SponsoringCollector of its own (the
 * collector pays, whoever the channel names as payer). Asserts the deposit landed.
 */
export async function depositAs(sw: ServiceWorld, key: Hex, channelConfig: ChannelConfig, amount: bigint) {
  const wallet = walletOf(sw, key)
  const collector = await deployTestContract(sw, wallet, 'SponsoringCollector')
  const funded = await wallet.writeContract({
    address: USDC,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [collector.address, amount],
  })
  await pollReceipt(sw.chain, funded, RECEIPT)
  const deposited = await wallet.writeContract({
    address: X402_BATCH_SETTLEMENT.settlement,
    abi: batchSettlementAbi,
    functionName: 'deposit',
    args: [channelConfig, amount, collector.address, '0x'],
  })
  const receipt = await pollReceipt(sw.chain, deposited, RECEIPT)
  if (receipt.status !== 'success') throw new Error('the channel deposit reverted')
}

/** A PAYMENT-SIGNATURE paying `terms.amount` by a voucher on `channelConfig`, signed by `signerKey`. */
export async function voucherHeader(
  chain: PublicClient,
  terms: PaymentRequirements,
  channelConfig: ChannelConfig,
  signerKey: Hex,
): Promise<string> {
  const voucher = await signVoucher(
    toClientEvmSigner(privateKeyToAccount(signerKey), chain),
    computeChannelId(channelConfig, NETWORK),
    terms.amount,
    NETWORK,
  )
  const payload: PaymentPayload = {
    x402Version: 2,
    accepted: terms,
    payload: { type: 'voucher', channelConfig, voucher },
  }
  return encodePaymentSignatureHeader(payload)
}

/** The payer's timed withdrawal of `amount` from its channel begins (sent from `key`, the payer's). */
export async function initiateWithdraw(
  sw: ServiceWorld,
  key: Hex,
  channelConfig: ChannelConfig,
  amount: bigint,
) {
  const hash = await walletOf(sw, key).writeContract({
    address: X402_BATCH_SETTLEMENT.settlement,
    abi: batchSettlementAbi,
    functionName: 'initiateWithdraw',
    args: [channelConfig, amount],
  })
  if ((await pollReceipt(sw.chain, hash, RECEIPT)).status !== 'success')
    throw new Error('initiateWithdraw reverted')
}

/** The withdrawal pays out (its delay passed): what the payer received, in USDC atomic units. */
export async function finalizeWithdraw(
  sw: ServiceWorld,
  key: Hex,
  channelConfig: ChannelConfig,
): Promise<bigint> {
  const before = await sw.usdcBalance(channelConfig.payer)
  const hash = await walletOf(sw, key).writeContract({
    address: X402_BATCH_SETTLEMENT.settlement,
    abi: batchSettlementAbi,
    functionName: 'finalizeWithdraw',
    args: [channelConfig],
  })
  if ((await pollReceipt(sw.chain, hash, RECEIPT)).status !== 'success')
    throw new Error('finalizeWithdraw reverted')
  return (await sw.usdcBalance(channelConfig.payer)) - before
}

/**
 * The chain's clock moved `seconds` ahead, one block mined. Authorizations signed on the wall clock (EIP-3009
 * deposits, `exact` payments) do not settle after it: a file travels last, the world's reset brings time back.
 */
export async function travel(sw: ServiceWorld, seconds: number) {
  const testClient = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
  await testClient.increaseTime({ seconds })
  await testClient.mine({ blocks: 1 })
}
