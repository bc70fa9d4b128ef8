import type { BatchSettlementClientContext } from '@x402/evm/batch-settlement/client'
import { formatUnits, parseUnits } from 'viem'
import { BASE_ADDRESSES, DEVNET_UTIL_TOKEN } from '../chain/addresses.js'
import { BASE_LENDING_CATALOG, DEVNET_LENDING_CATALOG } from '../chain/lendingCatalog.js'
import { TOKENIZED_STOCKS } from '../chain/tokenizedStocks.js'
import { CliError } from './cliWallet.js'

/**
 * Contract names by address, for people reading a build's steps: the address book, the tokenized stocks,
 * the lending catalogs' vaults (Base's and the devnet's) and UTIL. A step to anything else is flagged.
 */
export const NAMES = new Map<string, string>(
  [
    ...Object.entries(BASE_ADDRESSES),
    ...Object.entries(TOKENIZED_STOCKS).map(([ticker, s]) => [ticker, s.token] as const),
    ...[...BASE_LENDING_CATALOG.vaults, ...DEVNET_LENDING_CATALOG.vaults].map(
      (v) => [`vault ${v.address}`, v.address] as const,
    ),
    ['UTIL', DEVNET_UTIL_TOKEN],
  ].map(([name, address]) => [address.toLowerCase(), name]),
)
export const nameOf = (address: string) => NAMES.get(address.toLowerCase()) ?? address

/** A positive USDC amount in USD, as atomic units (6 decimals). */
export function usdcAtomic(amount: string): bigint {
  if (!/^\d+(\.\d{1,6})?$/.test(amount) || Number(amount) <= 0)
    throw new CliError(`"${amount}" is not a positive USDC amount (at most 6 decimals).`)
  return parseUnits(amount, 6)
}

/** Where a receipt's money went: the settlement transaction, or the UTIL credit or channel voucher that paid. */
export function receiptLabel(
  receipt: { transaction: string; extra?: Record<string, unknown> } | undefined,
): string {
  if (receipt === undefined) return 'no receipt'
  if (receipt.transaction !== '') return receipt.transaction
  return receipt.extra?.utilCredit === undefined ? 'batch-settlement voucher' : 'UTIL credit'
}

/** One channel as people read it: what is left of the deposit. */
export function channelLine(id: string, channel: BatchSettlementClientContext): string {
  const balance = BigInt(channel.balance ?? '0')
  const charged = BigInt(channel.chargedCumulativeAmount ?? '0')
  return `channel ${id}: deposit $${formatUnits(balance, 6)}, charged $${formatUnits(charged, 6)}, left $${formatUnits(balance - charged, 6)}`
}

/** `key=value` arguments as a query string. */
export function queryOf(pairs: readonly string[]): string {
  const query = new URLSearchParams()
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new CliError(`"${pair}" is not key=value.`)
    query.append(pair.slice(0, at), pair.slice(at + 1))
  }
  const text = query.toString()
  return text === '' ? '' : `?${text}`
}

/** A table of rows, columns padded: what people read; `--json` prints the data instead. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')).join('\n')
}
