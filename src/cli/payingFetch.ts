import * as prompts from '@clack/prompts'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from '@x402/fetch'
import type { PrivateKeyAccount } from 'viem/accounts'
import { CliError } from './cliWallet.js'

export interface SpendPolicy {
  /** Pay without asking (scripts). */
  yes: boolean
  /** The most this session may spend, in USD; undefined: no cap. */
  maxUsd: number | undefined
}

/**
 * `fetch` that pays x402 challenges with the official client, asking before each payment (the challenged
 * price) unless `--yes`, and refusing any payment that would take the session past `--max-usd`.
 */
export function payingFetch(account: PrivateKeyAccount, policy: SpendPolicy) {
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(account))
  let spentUsd = 0
  client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
    const usd = Number(selectedRequirements.amount) / 1e6
    if (policy.maxUsd !== undefined && spentUsd + usd > policy.maxUsd + 1e-12) {
      return {
        abort: true,
        reason: `paying $${usd} would pass --max-usd ${policy.maxUsd} (spent $${spentUsd})`,
      }
    }
    if (!policy.yes) {
      const ok = await prompts.confirm({ message: `Pay $${usd} USDC from ${account.address}?` })
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
    spentUsd: () => spentUsd,
  }
}
