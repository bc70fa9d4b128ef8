import { type Address, getAddress, type Hex, type PublicClient, pad, toEventSelector } from 'viem'
import { BASE_ADDRESSES } from '../chain/addresses.js'
import {
  aaveSupplyEvent,
  aaveWithdrawEvent,
  aTokenBalanceTransferEvent,
  vaultDepositEvent,
  vaultWithdrawEvent,
} from '../chain/walletAbis.js'
import type { VaultHolding } from './readLendingPositions.js'

/** Earnings of one holding, or null with the reason they cannot be told from the events. */
export interface VaultEarnings {
  earnings: bigint | null
  /** Σ assets deposited − Σ assets withdrawn by the owner, from the events; null when unreadable. */
  netDeposited: bigint | null
  note: string | null
}

const WITHDRAW_4626 = toEventSelector(vaultWithdrawEvent)
const DEPOSIT_4626 = toEventSelector(vaultDepositEvent)
const AAVE_SUPPLY = toEventSelector(aaveSupplyEvent)
const AAVE_WITHDRAW = toEventSelector(aaveWithdrawEvent)
const BALANCE_TRANSFER = toEventSelector(aTokenBalanceTransferEvent)

/** The owner's deposit/withdraw flows per vault (ERC-4626) or per reserve asset (Aave), from its events. */
export interface VaultFlows {
  flows: Map<Address, { assetsIn: bigint; assetsOut: bigint; sharesIn: bigint; sharesOut: bigint }>
  /** aTokens moved to or from the owner by transfer (not by supply or withdraw). */
  transferred: Set<Address>
}

/**
 * The owner's events in the catalog's vaults and Aave pool up to `toBlock`, in four `eth_getLogs` requests
 * run concurrently, each filtered by the owner's topic (never all holders' logs), from block 0:
 * ERC-4626 `Deposit` (owner = topic 2) with the Pool's `Supply` (onBehalfOf = topic 2) and `Withdraw`
 * (user = topic 2); ERC-4626 `Withdraw` (owner = topic 3); aToken `BalanceTransfer` from and to the owner.
 * Read over the whole catalog, without waiting to learn which vaults the owner holds, so it runs beside
 * the balance reads. An RPC that refuses the range (public Base endpoints cap it) throws; the caller
 * reports the source as failed and every earnings as null.
 */
export async function readVaultFlows(
  chain: PublicClient,
  owner: Address,
  vaults: readonly Address[],
  aTokens: readonly Address[],
  toBlock: bigint | undefined,
): Promise<VaultFlows> {
  const who = pad(owner.toLowerCase() as Hex)
  const to: Hex | 'latest' = toBlock === undefined ? 'latest' : `0x${toBlock.toString(16)}`
  const logs = (address: readonly Address[], topics: (Hex | Hex[] | null)[]) =>
    address.length === 0
      ? Promise.resolve([])
      : chain.request({
          method: 'eth_getLogs',
          params: [{ address: [...address], topics, fromBlock: '0x0', toBlock: to }],
        })
  const pool = aTokens.length > 0 ? [BASE_ADDRESSES.AavePool] : []
  const [byTopic2, withdrawals, sent, received] = await Promise.all([
    logs([...vaults, ...pool], [[DEPOSIT_4626, AAVE_SUPPLY, AAVE_WITHDRAW], null, who]),
    logs(vaults, [WITHDRAW_4626, null, null, who]),
    logs(aTokens, [BALANCE_TRANSFER, who]),
    logs(aTokens, [BALANCE_TRANSFER, null, who]),
  ])
  const flows: VaultFlows['flows'] = new Map()
  const flow = (key: Address) => {
    let f = flows.get(key)
    if (f === undefined) {
      f = { assetsIn: 0n, assetsOut: 0n, sharesIn: 0n, sharesOut: 0n }
      flows.set(key, f)
    }
    return f
  }
  const word = (data: Hex, i: number) => BigInt(`0x${data.slice(2 + 64 * i, 2 + 64 * (i + 1)) || '0'}`)
  const topicAddress = (t: Hex | undefined) => getAddress(`0x${(t ?? '').slice(26)}`)
  for (const log of byTopic2) {
    const [selector, t1] = log.topics
    if (selector === DEPOSIT_4626) {
      const f = flow(getAddress(log.address))
      f.assetsIn += word(log.data, 0)
      f.sharesIn += word(log.data, 1)
    } else if (selector === AAVE_SUPPLY) {
      // Supply(reserve, user, onBehalfOf, amount, referralCode): data = user, amount.
      flow(topicAddress(t1)).assetsIn += word(log.data, 1)
    } else if (selector === AAVE_WITHDRAW) {
      flow(topicAddress(t1)).assetsOut += word(log.data, 0)
    }
  }
  for (const log of withdrawals) {
    const f = flow(getAddress(log.address))
    f.assetsOut += word(log.data, 0)
    f.sharesOut += word(log.data, 1)
  }
  return { flows, transferred: new Set([...sent, ...received].map((l) => getAddress(l.address))) }
}

/**
 * Earnings since deposit of each holding = assets now − (Σ assets deposited − Σ assets withdrawn):
 *
 * - ERC-4626 and MetaMorpho: when the shares the Deposit/Withdraw events account for differ from the
 *   shares held (shares were transferred in or out, or minted without a Deposit), the cost basis is
 *   unknown and earnings are null, with that note.
 * - Aave v3 aTokens: an aToken `BalanceTransfer` to or from the owner, or no Supply at all, makes the
 *   basis unknown: null.
 */
export function vaultEarnings(
  holdings: readonly VaultHolding[],
  read: VaultFlows,
): Map<Address, VaultEarnings> {
  const out = new Map<Address, VaultEarnings>()
  for (const h of holdings) {
    // Aave flows are keyed by the reserve (the underlying asset), vault flows by the vault.
    const f = read.flows.get(h.protocol === 'aave-v3' ? getAddress(h.asset.address) : getAddress(h.address))
    const net = f === undefined ? 0n : f.assetsIn - f.assetsOut
    let note: string | null = null
    if (h.protocol === 'aave-v3') {
      if (f === undefined || read.transferred.has(getAddress(h.address)))
        note =
          'aTokens were transferred to or from this wallet (or no Supply was found): the cost basis is unknown'
    } else if (f === undefined || f.sharesIn - f.sharesOut !== h.shares) {
      note =
        'shares held differ from the shares its Deposit/Withdraw events account for (a transfer): the cost basis is unknown'
    }
    out.set(h.address, { earnings: note === null ? h.assets - net : null, netDeposited: net, note })
  }
  return out
}
