import { encodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { toClientEvmSigner } from '@x402/evm'
import { computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client'
import { type Address, erc20Abi, type Hex, type PublicClient, zeroHash } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { X402_BATCH_SETTLEMENT } from '../../src/chain/addresses.js'
import { NETWORK, USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { batchSettlementAbi } from '../../src/devnet/deploy/batchSettlement.js'
import { deployTestContract, walletOf } from './attackKit.js'
import { RECEIPT } from './chainChecks.js'
import type { ServiceWorld } from './serviceWorld.js'

// Batch-settlement channels built by hand, as an attacker builds them: any payer named, any key signing.

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
