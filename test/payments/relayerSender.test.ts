import { createPublicClient, createWalletClient, defineChain, type Hex, http, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type AnvilInstance, DEVNET_CHAIN_ID, freePort, startAnvil } from '../../src/devnet/anvil.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { createFeeBook } from '../../src/payments/facilitator/feeBook.js'
import {
  BroadcastRefusedError,
  createRelayerSender,
  type RelayerSender,
} from '../../src/payments/facilitator/relayerSender.js'
import { faultyRpcProxy, type RpcCall, type RpcProxy } from '../helpers/faultyRpcProxy.js'

// The relayer's sender against a real anvil mining a block every second (as Base does every 2 s), behind
// a proxy that counts the methods it is asked and can play a node without eth_sendRawTransactionSync.

const chain = defineChain({
  id: DEVNET_CHAIN_ID,
  name: 'devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
})

let anvil: AnvilInstance
let proxy: RpcProxy
const calls: string[] = []
let chainReads: PublicClient

beforeAll(async () => {
  anvil = await startAnvil({ port: await freePort(), blockTimeSeconds: 0.2 })
  proxy = await faultyRpcProxy(anvil.url)
  chainReads = createPublicClient({ chain, transport: http(anvil.url) })
}, 60_000)

afterAll(async () => {
  await proxy?.close()
  await anvil?.stop()
})

/** A sender on a fresh key (one per test: nonces stay independent), through the counting proxy. */
function senderFor(keyIndex: number, timeoutMs = 10_000): { sender: RelayerSender; client: PublicClient } {
  const client = createPublicClient({
    chain,
    transport: http(proxy.url, { timeout: timeoutMs, retryCount: 0 }),
  })
  const account = privateKeyToAccount((demoAccounts[keyIndex] as { privateKey: Hex }).privateKey)
  const sender = createRelayerSender({
    account,
    client,
    chainId: DEVNET_CHAIN_ID,
    fees: createFeeBook(client, { maxAgeMs: 1_000 }),
    timeoutMs,
    pollingIntervalMs: 50,
  })
  return { sender, client }
}

/** Counts every method the proxy forwards (batches included); `extra` may answer some itself. */
function counting(extra?: (call: RpcCall) => unknown | undefined) {
  calls.length = 0
  proxy.set((body) => {
    for (const c of Array.isArray(body) ? body : [body]) calls.push(c.method)
    if (!Array.isArray(body) && extra !== undefined) {
      const answer = extra(body)
      if (answer !== undefined) return { answer: { status: 200, body: answer } }
    }
    return null
  })
}
const count = (method: string) => calls.filter((m) => m === method).length
const self = (s: RelayerSender) => ({ to: s.address, data: '0x' as Hex, gas: 21_000n })

describe('relayer sender', () => {
  test('behavior: 40 concurrent sends take consecutive nonces, share blocks, and cost one round trip each', async () => {
    const { sender } = senderFor(1)
    const start = await chainReads.getTransactionCount({ address: sender.address })
    counting()
    const sent = await Promise.all(Array.from({ length: 40 }, () => sender.send(self(sender))))
    expect(sent.every((s) => s.receipt?.status === 'success')).toBe(true)
    const txs = await Promise.all(sent.map((s) => chainReads.getTransaction({ hash: s.hash })))
    expect(txs.map((t) => t.nonce).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => start + i),
    )
    // Nobody waited for another's inclusion: the 40 landed in a few one-second blocks.
    expect(new Set(sent.map((s) => s.receipt?.blockNumber)).size).toBeLessThanOrEqual(3)
    expect(count('eth_sendRawTransactionSync')).toBe(40)
    expect(count('eth_getTransactionCount')).toBe(1)
    // Fees come from the fee book (a block and a tip), not from a read per transaction.
    expect(count('eth_getBlockByNumber')).toBeLessThanOrEqual(4)
    expect(count('eth_estimateGas') + count('eth_gasPrice') + count('eth_getTransactionReceipt')).toBe(0)
  })

  test('behavior: on a node without eth_sendRawTransactionSync it falls back to sending and polling, and stops asking', async () => {
    const { sender } = senderFor(2)
    counting((c) =>
      c.method === 'eth_sendRawTransactionSync'
        ? { jsonrpc: '2.0', id: c.id, error: { code: -32601, message: 'the method does not exist' } }
        : undefined,
    )
    const first = await sender.send(self(sender))
    const second = await sender.send(self(sender))
    for (const s of [first, second]) {
      expect(s.receipt?.status).toBe('success')
      expect((await chainReads.getTransactionReceipt({ hash: s.hash })).status).toBe('success')
    }
    expect(count('eth_sendRawTransactionSync')).toBe(1)
    expect(count('eth_sendRawTransaction')).toBe(2)
  })

  test('behavior: a transaction the node refuses throws BroadcastRefusedError, and the transactions signed after it still land (its nonce filled)', async () => {
    const { sender } = senderFor(3)
    const start = await chainReads.getTransactionCount({ address: sender.address })
    counting()
    const results = await Promise.allSettled([
      sender.send(self(sender)),
      // Below the intrinsic gas of a transfer: the node refuses it outright.
      sender.send({ ...self(sender), gas: 1_000n }),
      sender.send(self(sender)),
      sender.send(self(sender)),
    ])
    expect(results[1]?.status).toBe('rejected')
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(BroadcastRefusedError)
    for (const i of [0, 2, 3]) {
      const r = results[i] as PromiseFulfilledResult<Awaited<ReturnType<RelayerSender['send']>>>
      expect(r.status).toBe('fulfilled')
      expect(r.value.receipt?.status).toBe('success')
    }
    // Four nonces used: three transfers and the filler in the refused one's place.
    await expect
      .poll(() => chainReads.getTransactionCount({ address: sender.address }), { timeout: 5_000 })
      .toBe(start + 4)
  })

  test('behavior: a nonce taken outside the sender is resynced from the node and the transaction re-signed', async () => {
    const { sender } = senderFor(4)
    await sender.send(self(sender))
    const account = privateKeyToAccount((demoAccounts[4] as { privateKey: Hex }).privateKey)
    const outside = createWalletClient({ account, chain, transport: http(anvil.url) })
    const hash = await outside.sendTransaction({ to: account.address, value: 0n })
    await chainReads.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    const after = await sender.send(self(sender))
    expect(after.receipt?.status).toBe('success')
    const nonce = (await chainReads.getTransaction({ hash: after.hash })).nonce
    expect(nonce).toBe((await chainReads.getTransactionCount({ address: sender.address })) - 1)
  })

  test('behavior: a base fee that jumps past the quoted fees gets the transaction re-signed with fresh fees, same nonce', async () => {
    const { sender } = senderFor(6)
    await sender.send(self(sender))
    const start = await chainReads.getTransactionCount({ address: sender.address })
    const baseBefore = (await chainReads.getBlock({ blockTag: 'latest' })).baseFeePerGas
    // 3 gwei from the next block: far past twice the quoted (idle devnet) base fee.
    await chainReads.request({
      method: 'anvil_setNextBlockBaseFeePerGas' as never,
      params: ['0xb2d05e00'] as never,
    })
    counting()
    const sent = await sender.send(self(sender))
    expect(sent.receipt?.status).toBe('success')
    expect((await chainReads.getTransaction({ hash: sent.hash })).nonce).toBe(start)
    // Refused, then the fees read again (the latest block's base fee, with twice the headroom each time)
    // before each next try: at 200 ms blocks the jump may not be in the latest block yet.
    const sends = count('eth_sendRawTransactionSync')
    expect(sends).toBeGreaterThanOrEqual(2)
    expect(sends).toBeLessThanOrEqual(4)
    expect(count('eth_getBlockByNumber')).toBeGreaterThanOrEqual(sends - 1)
    // The base fee back where it was, for the tests after this one.
    await chainReads.request({
      method: 'anvil_setNextBlockBaseFeePerGas' as never,
      params: [`0x${(baseBefore ?? 0n).toString(16)}`] as never,
    })
  })

  test('attack: a proxy answering one send with "504 Gateway Timeout" is not taken as a pending settlement: the same bytes are handed over again and included, and the next send is not stuck behind a gap', async () => {
    const { sender } = senderFor(7)
    let failed = false
    calls.length = 0
    proxy.set((body) => {
      if (!Array.isArray(body) && body.method === 'eth_sendRawTransactionSync' && !failed) {
        failed = true
        return { answer: { status: 504, body: { message: 'Gateway Timeout: upstream request timeout' } } }
      }
      return null
    })
    const first = await sender.send(self(sender))
    expect(first.receipt?.status).toBe('success')
    const second = await sender.send(self(sender))
    expect(second.receipt?.status).toBe('success')
  })

  test('attack: a send whose answer is lost after the node took it, and whose resend the node answers with another error, is pending, never refused (a refusal would let the payer pay again), and its nonce is not filled over it', async () => {
    const { sender } = senderFor(8)
    await sender.send(self(sender))
    const start = await chainReads.getTransactionCount({ address: sender.address })
    proxy.set((body) => {
      if (Array.isArray(body)) return null
      // The node takes the transaction; its answer is lost on the way back (a 502 from the proxy).
      if (body.method === 'eth_sendRawTransactionSync') return { rewrite: () => 'bad gateway', status: 502 }
      if (body.method === 'eth_sendRawTransaction') {
        return {
          answer: {
            status: 200,
            body: { jsonrpc: '2.0', id: body.id, error: { code: -32005, message: 'rate limited' } },
          },
        }
      }
      return null
    })
    const sent = await sender.send(self(sender))
    proxy.set(null)
    expect(sent.receipt).toBeUndefined()
    expect(
      (await chainReads.waitForTransactionReceipt({ hash: sent.hash, pollingInterval: 50 })).status,
    ).toBe('success')
    expect((await chainReads.getTransaction({ hash: sent.hash })).nonce).toBe(start)
    // The next send takes the following nonce: nothing was given back or filled over the one in flight.
    const next = await sender.send(self(sender))
    expect(next.receipt?.status).toBe('success')
    expect((await chainReads.getTransaction({ hash: next.hash })).nonce).toBe(start + 1)
  })

  test('attack: after "nonce too low" the resync does not hand out a nonce still on its way to the node (no collision with a settlement in flight)', async () => {
    const { sender } = senderFor(9)
    await sender.send(self(sender))
    // The key is used outside the sender: its counter is now one behind the node.
    const account = privateKeyToAccount((demoAccounts[9] as { privateKey: Hex }).privateKey)
    const outside = createWalletClient({ account, chain, transport: http(anvil.url) })
    const hash = await outside.sendTransaction({ to: account.address, value: 0n })
    await chainReads.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    const start = await chainReads.getTransactionCount({ address: sender.address })
    // The first send reaches the node at once (and is refused: nonce too low); the two signed after it
    // are held on the way for 600 ms, so the node's pending count does not know them yet.
    let seen = 0
    counting()
    proxy.set((body) => {
      if (Array.isArray(body) || body.method !== 'eth_sendRawTransactionSync') return null
      calls.push(body.method)
      seen++
      return seen === 2 || seen === 3 ? { delayMs: 600 } : null
    })
    const sent = await Promise.all([
      sender.send(self(sender)),
      sender.send(self(sender)),
      sender.send(self(sender)),
    ])
    proxy.set(null)
    expect(sent.every((s) => s.receipt?.status === 'success')).toBe(true)
    const nonces = await Promise.all(
      sent.map(async (s) => (await chainReads.getTransaction({ hash: s.hash })).nonce),
    )
    expect([...nonces].sort((a, b) => a - b)).toEqual([start, start + 1, start + 2])
    // One refusal and three sends that landed: no second collision on the held nonces.
    expect(count('eth_sendRawTransactionSync')).toBe(4)
  })

  test('attack: a transaction whose first copy used its nonce (a proxy sent it twice; the answer is "nonce too low") is not signed again with another nonce', async () => {
    const { sender } = senderFor(0)
    await sender.send(self(sender))
    const start = await chainReads.getTransactionCount({ address: sender.address })
    proxy.set((body) =>
      !Array.isArray(body) && body.method === 'eth_sendRawTransactionSync' ? { twice: true as const } : null,
    )
    const sent = await sender.send(self(sender))
    proxy.set(null)
    expect((await chainReads.getTransaction({ hash: sent.hash })).nonce).toBe(start)
    expect(
      (await chainReads.waitForTransactionReceipt({ hash: sent.hash, pollingInterval: 50 })).status,
    ).toBe('success')
    // One transaction, not a second one re-signed on the next nonce.
    expect(await chainReads.getTransactionCount({ address: sender.address })).toBe(start + 1)
  })

  test('attack: a sender restarted while three of its transactions wait unmined in the node pool replaces none of them: it counts from the latest block and moves past the nonces the node calls taken', async () => {
    // Its own node, mining nothing until the test mines: the three stay in the pool.
    const held = await startAnvil({ port: await freePort() })
    try {
      const heldReads = createPublicClient({ chain, transport: http(held.url) })
      await heldReads.request({ method: 'evm_setAutomine' as never, params: [false] as never })
      const account = privateKeyToAccount((demoAccounts[1] as { privateKey: Hex }).privateKey)
      const senderOn = () => {
        const client = createPublicClient({
          chain,
          transport: http(held.url, { timeout: 400, retryCount: 0 }),
        })
        return createRelayerSender({
          account,
          client,
          chainId: DEVNET_CHAIN_ID,
          fees: createFeeBook(client, { maxAgeMs: 1_000 }),
          timeoutMs: 400,
          pollingIntervalMs: 50,
        })
      }
      const before = senderOn()
      const waiting = await Promise.all([1, 2, 3].map(() => before.send(self(before))))
      expect(waiting.every((w) => w.receipt === undefined)).toBe(true)
      expect(await heldReads.getTransactionCount({ address: account.address, blockTag: 'latest' })).toBe(0)
      // The restart: a new sender for the same key, nothing known of the three.
      const after = senderOn()
      // Other bytes than the three (a settlement of another call): the same bytes would be "already known".
      const next = await after.send({ ...self(after), data: '0x01', gas: 30_000n })
      await heldReads.request({ method: 'evm_mine' as never })
      const mined = await Promise.all(
        [...waiting, next].map((w) => heldReads.getTransactionReceipt({ hash: w.hash })),
      )
      expect(mined.every((r) => r.status === 'success')).toBe(true)
      const nonces = await Promise.all(
        [...waiting, next].map(async (w) => (await heldReads.getTransaction({ hash: w.hash })).nonce),
      )
      expect(nonces).toEqual([0, 1, 2, 3])
    } finally {
      await held.stop()
    }
  })

  test('behavior: a transaction not included within the wait comes back pending (hash, no receipt) and lands later', async () => {
    const { sender } = senderFor(5, 400)
    await chainReads.request({ method: 'evm_setIntervalMining' as never, params: [0] as never })
    try {
      const sent = await sender.send(self(sender))
      expect(sent.receipt).toBeUndefined()
      expect(sent.hash).toMatch(/^0x[0-9a-f]{64}$/)
      await chainReads.request({ method: 'evm_mine' as never })
      expect((await chainReads.getTransactionReceipt({ hash: sent.hash })).status).toBe('success')
    } finally {
      await chainReads.request({ method: 'evm_setIntervalMining' as never, params: [1] as never })
    }
  })
})
