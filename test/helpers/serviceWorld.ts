import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http'
import type { PaymentPayload, PaymentRequired } from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { x402Client, x402HTTPClient } from '@x402/fetch'
import { createPublicClient, createWalletClient, erc20Abi, type Hex, http, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { afterAll, beforeAll } from 'vitest'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { type Config, loadConfig, UPSTREAM_PORT_COUNT } from '../../src/config.js'
import { freePortRange, onFreePort } from '../../src/devnet/anvil.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { type DevnetWorld, startDevnetWorld } from '../../src/devnet/startDevnetWorld.js'
import { createHttpService } from '../../src/httpService.js'
import { createLogger } from '../../src/logger.js'
import type { SettleDeadline } from '../../src/payments/facilitator/createFacilitator.js'
import { createReadiness } from '../../src/readiness.js'
import { createServices, type Services } from '../../src/services.js'
import { RECEIPT } from './chainChecks.js'
import { headroomHttp } from './headroomHttp.js'
import { listenFirst } from './listenFirst.js'
import { createTestClock, type TestClock } from './testClock.js'
import { testDatabase } from './testDatabase.js'

export interface Instance {
  url: string
  config: Config
  services: Services
  stop(): Promise<void>
}

export interface ServiceWorld {
  world: DevnetWorld
  /** The world's time (its simulator's clock): the wall clock unless the file holds it; each file starts following. */
  worldClock: TestClock
  chain: PublicClient
  /** Settings shared by every instance (ports of the world, payTo, …). */
  env: NodeJS.ProcessEnv
  /**
   * Starts one more service instance on this world; `env` overrides the shared settings, `clock` the
   * instance's time (a frozen clock makes time-windowed behaviour, like surge, independent of how fast
   * the machine runs the test); `settleDeadline` when a remote facilitator's settlement stops being waited for.
   */
  instance(
    env?: NodeJS.ProcessEnv,
    options?: { clock?: () => number; settleDeadline?: SettleDeadline },
  ): Promise<Instance>
  usdcBalance(address: `0x${string}`): Promise<bigint>
  /** A fresh wallet holding exactly `usdc` atomic USDC (and `eth` wei), funded by demo account #0. */
  freshWallet(usdc: bigint, eth?: bigint): Promise<ReturnType<typeof payerClient> & { privateKey: Hex }>
  stop(): Promise<void>
}

/**
 * The date whose market the test worlds play, when the run sets DEVNET_DATE (the suite at another date,
 * docs/testing.md); each world a test starts takes it.
 */
export const WORLD_DATE_ENV: NodeJS.ProcessEnv =
  process.env.DEVNET_DATE === undefined ? {} : { DEVNET_DATE: process.env.DEVNET_DATE }

/** Settings every instance of the world shares; the world's ports are added when it starts. */
const BASE_ENV: NodeJS.ProcessEnv = {
  ...WORLD_DATE_ENV,
  // The shared test world automines (a block per transaction): tests that measure no timing run at the
  // machine's speed. The 200 ms world Base runs today is npm start's (test/process.test.ts checks it).
  DEVNET_BLOCK_TIME: '0',
  // Tests read the simulators directly to recompute answers: no simulator 429s here (the documented limits
  // and their 429s are held in test/upstreams/; the service's own client-side limits stay on).
  DEVNET_UPSTREAM_LIMITS: 'off',
  DATA_DIR: 'memory://',
  RATE_LIMIT_UNPAID: '1000000',
  RATE_LIMIT_PAID: '1000000',
  QUOTE_SECRET: 'test-quote-secret-shared-by-instances',
  LOG_LEVEL: 'silent',
}

interface PooledWorld {
  world: DevnetWorld
  env: NodeJS.ProcessEnv
  clock: TestClock
}
const POOL = Symbol.for('agentdesk.test.world')

/**
 * One devnet world (anvil + upstream simulators + keeper) per test worker process: Vitest runs a
 * worker's files one after another in one process (`isolate: false`), and each file starts from the
 * world as it came up (`reset`: an evm_revert to the start snapshot). Starting a world costs ~1.5 s;
 * the suite has over forty files that use one. The anvil child dies with the worker (its supervisor
 * watches the parent).
 */
function pooledWorld(): Promise<PooledWorld> {
  const pool = globalThis as { [POOL]?: Promise<PooledWorld> }
  pool[POOL] ??= startPooledWorld().catch((err: unknown) => {
    pool[POOL] = undefined
    throw err
  })
  return pool[POOL]
}

async function startPooledWorld(): Promise<PooledWorld> {
  const env: NodeJS.ProcessEnv = { ...BASE_ENV }
  const clock = createTestClock()
  // On a port taken between choosing and binding it (another worker, another run), on another one.
  const world = await onFreePort(async (rpcPort) => {
    env.DEVNET_RPC_PORT = String(rpcPort)
    env.DEVNET_UPSTREAM_PORT = String(await freePortRange(UPSTREAM_PORT_COUNT))
    return startDevnetWorld({
      config: loadConfig(env),
      logger: createLogger('silent'),
      clock: clock.now,
      pushIntervalMs: 0,
    })
  })
  return { world, env, clock }
}

/** The worker's devnet world, reset to its start, and as many service instances as asked. */
export async function startServiceWorld(): Promise<ServiceWorld> {
  const { world, env, clock } = await pooledWorld()
  await world.reset()
  clock.follow()
  const chain = createPublicClient({ transport: http(world.rpcUrl), pollingInterval: 20 }) as PublicClient
  const instances: Instance[] = []
  let funding: Promise<void> = Promise.resolve()
  return {
    world,
    worldClock: clock,
    chain,
    env,
    async instance(overrides = {}, options = {}) {
      const { server, port: bound, attach } = await listenFirst()
      // A ledger of its own in the machine's PostgreSQL, unless the test chose a store itself.
      const ownStore = overrides.DATABASE_URL !== undefined || overrides.DATA_DIR !== undefined
      const database = ownStore ? undefined : await testDatabase()
      const config = loadConfig({
        ...env,
        PORT: String(bound),
        ...(database === undefined ? {} : { DATABASE_URL: database.url }),
        ...overrides,
      })
      const readiness = createReadiness()
      const services = await createServices(
        config,
        createLogger('silent'),
        readiness,
        options.clock,
        options.settleDeadline,
      )
      attach(createHttpService({ deps: services.deps }))
      const instance: Instance = {
        url: `http://127.0.0.1:${bound}`,
        config,
        services,
        async stop() {
          // A connection still open after a grace period (a client's request left waiting on a chain that
          // stopped mining) is cut, so a file's teardown never waits on it.
          const closed = new Promise((r) => server.close(r))
          const cut = setTimeout(
            () => (server as { closeAllConnections(): void }).closeAllConnections(),
            2_000,
          )
          await closed
          clearTimeout(cut)
          await services.close()
          await database?.drop()
        },
      }
      instances.push(instance)
      return instance
    },
    usdcBalance: (address) =>
      chain.readContract({ address: USDC, abi: erc20Abi, functionName: 'balanceOf', args: [address] }),
    async freshWallet(usdc, eth = 0n) {
      const privateKey = generatePrivateKey()
      const wallet = payerClient(privateKey)
      const funder = createWalletClient({
        account: privateKeyToAccount(demoAccounts[0]?.privateKey as Hex),
        chain: base,
        transport: headroomHttp(world.rpcUrl),
      })
      // One funder for every test of a file: serialize its transactions so nonces never collide.
      const send = async () => {
        const to = wallet.account.address
        if (usdc > 0n) {
          const hash = await funder.writeContract({
            address: USDC,
            abi: erc20Abi,
            functionName: 'transfer',
            args: [to, usdc],
          })
          await pollReceipt(chain, hash, RECEIPT)
        }
        if (eth > 0n) await pollReceipt(chain, await funder.sendTransaction({ to, value: eth }), RECEIPT)
      }
      funding = funding.then(send, send)
      await funding
      return { ...wallet, privateKey }
    },
    // The file's instances; the world stays up for the worker's next file.
    async stop() {
      for (const i of instances) await i.stop().catch(() => {})
    },
  }
}

/**
 * The preamble of a file on the devnet: the worker's world, reset to its start before the file's tests
 * (a beforeAll registered here, so it runs before the file's own) and the file's instances stopped after
 * them. What it returns reads through to that world, so the file keeps it in a module-level const.
 * `blockTimeSeconds` mines the file's blocks on an interval (0.2: Base today) instead of automining.
 */
export function useWorld(options: { blockTimeSeconds?: number } = {}): ServiceWorld {
  let started: ServiceWorld | undefined
  beforeAll(async () => {
    started = await startServiceWorld()
    // This file's blocks: Base's 200 ms for the files that measure settlement timing; the next file's
    // reset puts the world back to automine.
    if (options.blockTimeSeconds !== undefined) await started.world.setBlockTime(options.blockTimeSeconds)
  }, 120_000)
  afterAll(async () => {
    await started?.stop()
  })
  const sw = () => {
    if (started === undefined) throw new Error('the world is used before its beforeAll started it')
    return started
  }
  return {
    get world() {
      return sw().world
    },
    get chain() {
      return sw().chain
    },
    get env() {
      return sw().env
    },
    get worldClock() {
      return sw().worldClock
    },
    instance: (env, options) => sw().instance(env, options),
    usdcBalance: (address) => sw().usdcBalance(address),
    freshWallet: (usdc, eth) => sw().freshWallet(usdc, eth),
    stop: () => sw().stop(),
  }
}

/**
 * A service instance on the file's world, started in a beforeAll (after the world's) with `env` and
 * `options` as `ServiceWorld.instance` takes them; stopped with the world's instances.
 */
export function useInstance(
  sw: ServiceWorld,
  env?: NodeJS.ProcessEnv,
  options?: { clock?: () => number },
): Instance {
  let started: Instance | undefined
  beforeAll(async () => {
    started = await sw.instance(env, options)
  }, 120_000)
  const svc = () => {
    if (started === undefined) throw new Error('the instance is used before its beforeAll started it')
    return started
  }
  return {
    get url() {
      return svc().url
    },
    get config() {
      return svc().config
    },
    get services() {
      return svc().services
    },
    stop: () => svc().stop(),
  }
}

/** The official x402 client for a private key: it reads PAYMENT-REQUIRED and signs what it says. */
export function payerClient(privateKey: `0x${string}`) {
  const account = privateKeyToAccount(privateKey)
  const client = new x402Client().register('eip155:8453', new ExactEvmScheme(account))
  return { account, client, http: new x402HTTPClient(client) }
}

export const payer = (index: number) => {
  const demo = demoAccounts[index]
  if (demo === undefined) throw new Error(`no demo account #${index}`)
  return payerClient(demo.privateKey)
}

/** Fetches `url` unpaid and returns its decoded challenge. */
export async function challengeOf(url: string, init?: RequestInit): Promise<PaymentRequired> {
  const res = await fetch(url, init)
  if (res.status !== 402) throw new Error(`expected 402 from ${url}, got ${res.status}`)
  const header = res.headers.get('payment-required')
  if (header === null) throw new Error('402 without PAYMENT-REQUIRED')
  await res.body?.cancel()
  return decodePaymentRequiredHeader(header)
}

/** Signs the challenge with the official client and returns the payload (to tamper with or replay). */
export async function signChallenge(
  who: ReturnType<typeof payerClient>,
  challenge: PaymentRequired,
): Promise<PaymentPayload> {
  return who.client.createPaymentPayload(challenge)
}

export const encodePayment = (payload: PaymentPayload): string => encodePaymentSignatureHeader(payload)
