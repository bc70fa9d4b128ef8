import type { Address, Hex } from 'viem'
import { expect } from 'vitest'
import { BASE_ADDRESSES, DEAD_ADDRESS } from '../../src/chain/addresses.js'
import { gtradeStandInAbi } from '../../src/devnet/deploy/gtrade.js'
import { devnetPropDesk } from '../../src/devnet/devnetAccounts.js'
import { type CreditWallet, paidFetch, transferUtil } from './creditKit.js'
import type { ServiceWorld } from './serviceWorld.js'

/** The prop desk's wallet on the devnet (anvil #14): its own key and USDC. */
export const DESK = devnetPropDesk.address
/** 10 million UTIL: $1,000 at the devnet's $0.0001, a member. */
export const MEMBER_UTIL = 10n ** 25n

/** The desk's open trades at the venue (the gTrade stand-in). */
export const openTrades = (sw: ServiceWorld, who: Address) =>
  sw.chain.readContract({
    address: BASE_ADDRESSES.GtradeDiamond,
    abi: gtradeStandInAbi,
    functionName: 'getTrades',
    args: [who],
  })

/** ETH/USD at the venue, human. */
export const ethPrice = async (sw: ServiceWorld) =>
  Number(
    await sw.chain.readContract({
      address: BASE_ADDRESSES.GtradeDiamond,
      abi: gtradeStandInAbi,
      functionName: 'prices',
      args: [1n],
    }),
  ) / 1e10

/** A JSON POST's request init. */
export const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

/** A POST paid by `w` with the official client; its status and JSON body. */
export async function post(w: CreditWallet, url: string, path: string, body: unknown) {
  const res = await paidFetch(w)(`${url}${path}`, json(body))
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

/** Quotes `actionId` on `url`, then sends exactly the quoted UTIL to the desk (or burns it); the hash. */
export async function payFor(
  sw: ServiceWorld,
  w: CreditWallet,
  url: string,
  actionId: string,
  params: unknown,
  burn = false,
): Promise<Hex> {
  const quote = await post(w, url, '/v1/prop/quote', { actionId, params })
  expect(quote.status).toBe(200)
  const to = burn ? DEAD_ADDRESS : ((quote.body.send as { agents: { to: Address } }).agents.to as Address)
  return transferUtil(sw.chain, w.privateKey, to, BigInt(quote.body.utilCost as string))
}
