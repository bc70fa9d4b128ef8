import { erc20Abi, type Hex, type PublicClient, parseAbiItem } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DEAD_ADDRESS } from '../../src/chain/addresses.js'
import { createChainClient } from '../../src/chain/createChainClient.js'
import { MAX_LOG_WINDOWS } from '../../src/chain/logWindows.js'
import { createUtilSendIndex, IndexBehindError } from '../../src/prop/utilSendIndex.js'
import { createDatabase, type Database } from '../../src/store/database.js'
import { migrate } from '../../src/store/migrations.js'
import { createUtilSendBook } from '../../src/store/utilSendBook.js'
import { transferUtil, UTIL, utilWallet } from '../helpers/creditKit.js'
import { faultyRpcProxy, type RpcCall, type RpcProxy } from '../helpers/faultyRpcProxy.js'
import { DESK } from '../helpers/propKit.js'
import { useWorld } from '../helpers/serviceWorld.js'
import { testDatabase } from '../helpers/testDatabase.js'

// The desk's index of members' UTIL burns and sends (issue 38), on the devnet's token, through an RPC proxy
// that refuses any eth_getLogs wider than a provider's cap (as Base's providers do) and records every range
// asked, with the machine's PostgreSQL for the store.

const sw = useWorld()
const CAP = 20
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

let proxy: RpcProxy
let chain: PublicClient
const spans: { from: bigint; to: bigint }[] = []
let database: { url: string; drop(): Promise<void> }
const opened: Database[] = []

const open = async () => {
  const db = await createDatabase({ databaseUrl: database.url, dataDir: 'memory://' })
  await migrate(db)
  opened.push(db)
  return db
}
const indexOn = (db: Database, maxBlocks = CAP) =>
  createUtilSendIndex({
    chain,
    book: createUtilSendBook(db),
    util: UTIL,
    recipients: [DESK, DEAD_ADDRESS],
    fromBlock: 0n,
    maxBlocks,
  })
const mineBlocks = (n: number) =>
  sw.chain.request({ method: 'anvil_mine' as never, params: [`0x${n.toString(16)}`] as never })

/** The truth: the member's transfers to `to`, in one unbounded query straight to anvil. */
const truth = async (member: `0x${string}`, to: `0x${string}`) =>
  (
    await sw.chain.getLogs({ address: UTIL, event: TRANSFER, args: { from: member, to }, fromBlock: 0n })
  ).reduce((sum, log) => sum + (log.args.value ?? 0n), 0n)

beforeAll(async () => {
  proxy = await faultyRpcProxy(sw.world.rpcUrl)
  proxy.set((body) => {
    for (const call of (Array.isArray(body) ? body : [body]) as RpcCall[]) {
      if (call.method !== 'eth_getLogs') continue
      const filter = (call.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string }
      const from = BigInt(filter.fromBlock ?? '0x0')
      const to = filter.toBlock?.startsWith('0x') ? BigInt(filter.toBlock) : -1n
      spans.push({ from, to })
      if (to < 0n || to - from + 1n > BigInt(CAP)) {
        const error = { code: -32600, message: `query exceeds max block range ${CAP}` }
        return { answer: { status: 200, body: { jsonrpc: '2.0', id: call.id, error } } }
      }
    }
    return null
  })
  chain = createChainClient(proxy.url, 0, { logsMaxBlocks: CAP })
  database = await testDatabase()
}, 60_000)

afterAll(async () => {
  for (const db of opened) await db.close().catch(() => undefined)
  await database?.drop()
  await proxy?.close()
})

describe('the desk’s UTIL send index', () => {
  test('attack: burns and sends spread over the world’s blocks are summed exactly through a provider capping eth_getLogs at 20 blocks; no request asks a wider range; a restart goes on from its cursor and counts nothing twice', async () => {
    const member = await utilWallet(sw, 0n, 10n ** 24n)
    const key = member.privateKey as Hex
    const who = member.account.address
    const sendAt = async (to: `0x${string}`, amount: bigint) => {
      await mineBlocks(50)
      await transferUtil(sw.chain, key, to, amount)
    }
    await sendAt(DEAD_ADDRESS, 10n ** 21n)
    await sendAt(DESK, 2n * 10n ** 21n)
    await sendAt(DEAD_ADDRESS, 3n * 10n ** 21n)
    await sendAt(DESK, 4n * 10n ** 21n)

    const first = indexOn(await open())
    spans.length = 0
    // The reconcile round's advance (a query far behind is refused: the last test), then the query.
    await first.advance()
    const seen = await first.sentBy(who)
    expect(seen.get(DEAD_ADDRESS.toLowerCase())).toBe(await truth(who, DEAD_ADDRESS))
    expect(seen.get(DESK.toLowerCase())).toBe(await truth(who, DESK))
    expect(seen.get(DEAD_ADDRESS.toLowerCase())).toBe(4n * 10n ** 21n)
    expect(seen.get(DESK.toLowerCase())).toBe(6n * 10n ** 21n)
    // Every request named its blocks and stayed within the cap (the proxy refused none).
    expect(spans.length).toBeGreaterThan(10)
    expect(spans.every((s) => s.to >= s.from && s.to - s.from + 1n <= BigInt(CAP))).toBe(true)
    // biome-ignore lint/complexity/useMathMinMax: bigints (Math.max takes numbers)
    const cursor = spans.reduce((max, s) => (s.to > max ? s.to : max), 0n)

    // The next query reads only the blocks since: one request for the member's own transfers.
    spans.length = 0
    await first.sentBy(who)
    expect(spans.length).toBeLessThanOrEqual(2)
    expect(spans.every((s) => s.from >= cursor - 64n)).toBe(true)

    // A restart (a new connection, a new index): it reads on from the stored cursor, never from block 0.
    await sendAt(DEAD_ADDRESS, 5n * 10n ** 21n)
    const restarted = indexOn(await open())
    spans.length = 0
    const after = await restarted.sentBy(who)
    expect(spans.every((s) => s.from > cursor - 64n)).toBe(true)
    expect(after.get(DEAD_ADDRESS.toLowerCase())).toBe(9n * 10n ** 21n)
    expect(after.get(DESK.toLowerCase())).toBe(6n * 10n ** 21n)
    expect(after.get(DEAD_ADDRESS.toLowerCase())).toBe(await truth(who, DEAD_ADDRESS))
  })

  test('attack: two instances advancing one index at once over the same blocks count each transfer once', async () => {
    const member = await utilWallet(sw, 0n, 10n ** 24n)
    await mineBlocks(60)
    await transferUtil(sw.chain, member.privateKey as Hex, DEAD_ADDRESS, 7n * 10n ** 20n)
    await mineBlocks(60)
    const [a, b] = [indexOn(await open()), indexOn(await open())]
    await Promise.all([a.advance(), b.advance(), a.advance(), b.advance()])
    const [fromA, fromB] = await Promise.all([
      a.sentBy(member.account.address),
      b.sentBy(member.account.address),
    ])
    expect(fromA.get(DEAD_ADDRESS.toLowerCase())).toBe(7n * 10n ** 20n)
    expect(fromB.get(DEAD_ADDRESS.toLowerCase())).toBe(7n * 10n ** 20n)
  })

  test('behavior: any wide log query of the service goes out in windows within the cap and returns exactly what one unbounded query returns, in order; past 25 windows it is refused before anything is sent', async () => {
    const head = await sw.chain.getBlockNumber()
    const fromBlock = head - BigInt(CAP * MAX_LOG_WINDOWS) + 1n
    spans.length = 0
    const windowed = await chain.getLogs({ address: UTIL, event: TRANSFER, fromBlock, toBlock: head })
    const direct = await sw.chain.getLogs({ address: UTIL, event: TRANSFER, fromBlock, toBlock: head })
    expect(direct.length).toBeGreaterThan(5)
    expect(windowed.map((l) => `${l.blockNumber}:${l.logIndex}`)).toEqual(
      direct.map((l) => `${l.blockNumber}:${l.logIndex}`),
    )
    expect(spans.length).toBe(MAX_LOG_WINDOWS)
    expect(spans.every((s) => s.to >= s.from && s.to - s.from + 1n <= BigInt(CAP))).toBe(true)
    spans.length = 0
    const tooWide = chain.getLogs({
      address: UTIL,
      event: TRANSFER,
      fromBlock: fromBlock - 1n,
      toBlock: 'latest',
    })
    await expect(tooWide).rejects.toThrow(/more than 25 windows/)
    expect(spans).toHaveLength(0)
  })

  test('error: an index far behind the chain (a first start) refuses the query while it catches up, then answers exactly', async () => {
    // Windows of 5 blocks: the world’s blocks are far more than twenty windows behind.
    const db = await open()
    await db.query('DELETE FROM util_sends')
    await db.query('DELETE FROM log_index_cursors')
    const member = await utilWallet(sw, 0n, 10n ** 22n)
    await transferUtil(sw.chain, member.privateKey as Hex, DESK, 10n ** 20n)
    const index = indexOn(db, 5)
    const refused = await index.sentBy(member.account.address).catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(IndexBehindError)
    await index.advance()
    const sent = await index.sentBy(member.account.address)
    expect(sent.get(DESK.toLowerCase())).toBe(10n ** 20n)
    const held = await sw.chain.readContract({
      address: UTIL,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [member.account.address],
    })
    expect(held).toBe(10n ** 22n - 10n ** 20n)
  }, 120_000)
})
