import { wrapFetchWithPayment } from '@x402/fetch'
import { Attribution } from 'ox/erc8021'
import {
  type Address,
  createWalletClient,
  type Hex,
  hexToBigInt,
  type PublicClient,
  sliceHex,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { expect } from 'vitest'
import { createAddressBook } from '../../src/builders/addressBook.js'
import type { BuilderEnvelope } from '../../src/builders/txStep.js'
import { DEVNET_BUILDER_CODE, loadConfig } from '../../src/config.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { expectMined } from './expectMined.js'
import { headroomHttp } from './headroomHttp.js'
import { type Instance, payer, type ServiceWorld } from './serviceWorld.js'

/** The devnet's address book, as the service builds it: every target a builder may return. */
const devnetConfig = loadConfig({})
export const devnetBook = createAddressBook({
  lending: devnetConfig.lending,
  utilToken: devnetConfig.utilToken,
})

export interface PaidAnswer<A> {
  status: number
  body: BuilderEnvelope<A> & {
    error?: { code: string; message: string; field?: string; details?: Record<string, unknown> }
  }
  /** Atomic USDC the paying wallet lost on this call. */
  charged: bigint
}

/**
 * POSTs a builder with the official x402 client from demo account `payerIndex` (never an owner in the
 * builder tests, so the fee never mixes into the owner's balances) and reports what it was charged.
 */
export function builderClient(sw: ServiceWorld, svc: Instance, payerIndex = 8) {
  const who = payer(payerIndex)
  const pay = wrapFetchWithPayment(fetch, who.client)
  return {
    payer: who.account.address,
    async post<A>(path: string, body: unknown): Promise<PaidAnswer<A>> {
      const before = await sw.usdcBalance(who.account.address)
      const res = await pay(`${svc.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const json = (await res.json()) as PaidAnswer<A>['body']
      const charged = before - (await sw.usdcBalance(who.account.address))
      return { status: res.status, body: json, charged }
    },
  }
}

/** A demo account's wallet (they hold ETH, USDC, WETH, cbBTC and UTIL after the world's build). */
export function ownerWallet(sw: ServiceWorld, index: number) {
  const key = demoAccounts[index]?.privateKey as Hex
  return createWalletClient({
    account: privateKeyToAccount(key),
    chain: base,
    transport: headroomHttp(sw.world.rpcUrl),
  })
}

/**
 * Broadcasts every step in order from `owner`, each with the gas limit the simulation suggested (so the
 * suggestion itself is tested), and expects each to be mined successfully.
 */
export async function broadcast(
  chain: PublicClient,
  owner: ReturnType<typeof ownerWallet>,
  envelope: BuilderEnvelope<unknown>,
): Promise<TransactionReceipt[]> {
  const receipts: TransactionReceipt[] = []
  for (const [i, step] of envelope.steps.entries()) {
    const hash = await owner.sendTransaction({
      to: step.to,
      data: step.data,
      value: BigInt(step.value),
      gas: BigInt(envelope.simulation.steps[i]?.gasLimit ?? '0'),
    })
    receipts.push(await expectMined(chain, hash))
  }
  return receipts
}

/**
 * What every builder answer must satisfy: steps to address-book targets only, each ending with the
 * ERC-8021 suffix that decodes back to the configured codes, the EIP-5792 form carrying the same calls
 * (bare calldata, the suffix as capability), a simulation entry per step, and a live expiry.
 */
export function expectEnvelope(
  envelope: BuilderEnvelope<unknown>,
  owner: Address,
  codes = [DEVNET_BUILDER_CODE],
  /** Targets the plan confirmed onchain beside the static book (an Aerodrome pool's LP token). */
  confirmed: readonly Address[] = [],
) {
  const listed = (to: Address) =>
    devnetBook.has(to) || confirmed.some((c) => c.toLowerCase() === to.toLowerCase())
  const suffix = Attribution.toDataSuffix({ codes })
  expect(envelope.network).toBe('eip155:8453')
  expect(envelope.expiresAt).toBeGreaterThan(envelope.quotedAt)
  expect(envelope.simulation.steps).toHaveLength(envelope.steps.length)
  expect(envelope.walletSendCalls.from.toLowerCase()).toBe(owner.toLowerCase())
  expect(envelope.walletSendCalls.chainId).toBe('0x2105')
  expect(envelope.walletSendCalls.capabilities?.dataSuffix.value).toBe(suffix)
  for (const [i, step] of envelope.steps.entries()) {
    expect(listed(step.to), `step ${i} target ${step.to} is in the address book`).toBe(true)
    expect(step.data.endsWith(suffix.slice(2)), `step ${i} ends with the builder-code suffix`).toBe(true)
    expect(Attribution.fromData(step.data as Hex)).toMatchObject({ codes })
    const call = envelope.walletSendCalls.calls[i]
    expect(call?.to).toBe(step.to)
    expect(`${call?.data}${suffix.slice(2)}`).toBe(step.data)
    expect(hexToBigInt(call?.value as Hex)).toBe(BigInt(step.value))
  }
}

/** The selector of a step (to tell approve steps from the action). */
export const selectorOf = (data: string) => sliceHex(data as Hex, 0, 4)

/** Step `i`'s calldata without the builder-code suffix (the EIP-5792 form carries it bare). */
export function bareStep(envelope: BuilderEnvelope<unknown>, i: number): Hex {
  const call = envelope.walletSendCalls.calls.at(i)
  if (call === undefined) throw new Error(`no step ${i}`)
  return call.data
}

/** A paid POST of a raw JSON text (what JSON.stringify cannot produce: 1e400, -0) from payer #8. */
export async function rawPost(
  sw: ServiceWorld,
  svc: Instance,
  path: string,
  text: string,
): Promise<PaidAnswer<unknown>> {
  const who = payer(8)
  const pay = wrapFetchWithPayment(fetch, who.client)
  const before = await sw.usdcBalance(who.account.address)
  const res = await pay(`${svc.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  })
  const body = (await res.json()) as PaidAnswer<unknown>['body']
  return { status: res.status, body, charged: before - (await sw.usdcBalance(who.account.address)) }
}
