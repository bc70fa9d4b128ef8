import * as prompts from '@clack/prompts'
import type { PaymentRequirements } from '@x402/core/types'
import { toClientEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme, computeChannelId } from '@x402/evm/batch-settlement/client'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { CliChannelStorage } from './cliChannelStorage.js'
import { CliError } from './cliWallet.js'

export interface SpendPolicy {
  /** Pay without asking (scripts). */
  yes: boolean
  /** The most this session may spend, in USD; undefined: no session cap (each call is still at most $1). */
  maxUsd: number | undefined
}

export interface PayingOptions extends SpendPolicy {
  /** The wallet's batch-settlement channels (`deposit` opens one; calls then pay by voucher). */
  channels: CliChannelStorage
  /** Reads the chain for the batch-settlement client (channel recovery). */
  chain: Parameters<typeof toClientEvmSigner>[1]
  /**
   * Pay by batch-settlement and deposit this much (USDC atomic) into the channel with this payment:
   * `deposit`. Otherwise a call pays by voucher while the channel holds enough, else with `exact`.
   */
  deposit?: bigint
}

const BATCH = 'batch-settlement'
/**
 * The official client's default per-payment cap (`DEFAULT_MAX_AMOUNT_PER_PAYMENT`, $1), which the CLI
 * keeps: even with `--yes` and no `--max-usd`, no single call pays more than $1.
 */
const PER_PAYMENT_CAP_ATOMIC = 1_000_000n

/**
 * `fetch` that pays x402 challenges with the official clients (`exact`, and `batch-settlement` through a
 * channel the wallet opened with `deposit`), asking before each payment (the challenged price) unless
 * `--yes`, and refusing any payment that would take the session past `--max-usd`. A deposit is not spent:
 * `refund` takes back what the vouchers did not use; only each call's price counts against the cap.
 */
export function payingFetch(account: PrivateKeyAccount, options: PayingOptions) {
  const { channels, deposit } = options
  const batch = new BatchSettlementEvmScheme(toClientEvmSigner(account, options.chain), {
    storage: channels,
    // The official client caps a deposit at this multiple of its $1 per-payment cap and would lower the
    // amount the user typed in silence: the multiple is raised so the deposit is exactly what was asked.
    depositPolicy: {
      depositMultiplier: Math.max(5, Math.ceil(Number(deposit ?? 0n) / Number(PER_PAYMENT_CAP_ATOMIC))),
    },
    depositStrategy: (ctx) => {
      if (deposit === undefined) return false
      if (deposit < BigInt(ctx.minimumDepositAmount))
        throw new CliError(
          `the service's minimum deposit is $${Number(ctx.minimumDepositAmount) / 1e6} (asked $${Number(deposit) / 1e6}).`,
        )
      return deposit
    },
  })
  /** Voucher-paid if the channel this challenge names holds the price (after what it already charged). */
  const channelCovers = (requirements: PaymentRequirements) => {
    const id = computeChannelId(batch.buildChannelConfig(requirements), requirements.network)
    const state = channels.peek(id)
    if (state === undefined) return false
    const free = BigInt(state.balance ?? '0') - BigInt(state.chargedCumulativeAmount ?? '0')
    return free >= BigInt(requirements.amount)
  }
  const client = new x402Client()
    .register('eip155:8453', new ExactEvmScheme(account))
    .register('eip155:8453', batch)
    .registerPolicy((_version, offered) => {
      const batchEntries = offered.filter((r) => r.scheme === BATCH)
      if (deposit !== undefined) return batchEntries
      const covered = batchEntries.filter(channelCovers)
      return covered.length > 0 ? covered : offered.filter((r) => r.scheme !== BATCH)
    })
  let spentUsd = 0
  client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
    const usd = Number(selectedRequirements.amount) / 1e6
    if (options.maxUsd !== undefined && spentUsd + usd > options.maxUsd + 1e-12) {
      return {
        abort: true,
        reason: `paying $${usd} would pass --max-usd ${options.maxUsd} (spent $${spentUsd})`,
      }
    }
    if (!options.yes) {
      const how = selectedRequirements.scheme === BATCH ? ' from the batch-settlement channel' : ' USDC'
      const ok = await prompts.confirm({ message: `Pay $${usd}${how} from ${account.address}?` })
      if (prompts.isCancel(ok) || ok !== true) return { abort: true, reason: 'payment declined' }
    }
    spentUsd += usd
    return undefined
  })
  const pay = wrapFetchWithPayment(fetch, client)
  const http = new x402HTTPClient(client)
  return {
    async fetch(url: string, init?: RequestInit): Promise<Response> {
      try {
        return await pay(url, init)
      } catch (err) {
        if (err instanceof CliError) throw err
        throw new CliError(`not paid: ${(err as Error).message}`)
      }
    },
    /** The receipt of a paid response (PAYMENT-RESPONSE), if any. */
    receipt(res: Response) {
      try {
        return http.getPaymentSettleResponse((name) => res.headers.get(name))
      } catch {
        return undefined
      }
    },
    /** Cooperative refund of the channel behind `url` (all of it, or `amount` atomic). */
    refund: (url: string, amount?: bigint) =>
      batch.refund(url, amount === undefined ? {} : { amount: amount.toString() }),
    spentUsd: () => spentUsd,
  }
}
