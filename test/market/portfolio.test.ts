import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { wrapFetchWithPayment } from '@x402/fetch'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  erc20Abi,
  getAddress,
  type Hex,
  type PublicClient,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { beforeAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../src/chain/addresses.js'
import { DEVNET_VAULTS } from '../../src/chain/lendingCatalog.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { loadArtifact } from '../../src/devnet/artifacts.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { UpstreamError } from '../../src/errors.js'
import { createMarketData } from '../../src/market/marketData.js'
import { getPortfolio, type Portfolio } from '../../src/market/portfolio/getPortfolio.js'
import { getPortfolioRoute } from '../../src/routes/portfolio/getPortfolio.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { headroomHttp } from '../helpers/headroomHttp.js'
import { type Instance, payer, useInstance, useWorld } from '../helpers/serviceWorld.js'
import { EXPLORER_KEY } from '../helpers/upstreamKeys.js'

// Every balance is checked against the chain (balanceOf / getBalance at the answer's block, read here);
// every usd against this file's own arithmetic over the Coinbase simulator's spot, fetched here.
const DEMO = getAddress(demoAccounts[1]?.address as string)
/** The exchange spot moves with the simulator's clock and the adapter caches tickers 2 s. */
const SPOT_TOLERANCE = 0.01

const sw = useWorld()
const svc = useInstance(sw)
let chain: PublicClient

beforeAll(async () => {
  chain = sw.chain
}, 120_000)

const pay = () => wrapFetchWithPayment(fetch, payer(2).client)

async function portfolioOf(instance: Instance, owner: string): Promise<Portfolio> {
  const res = await pay()(`${instance.url}/v1/portfolio/${owner}`)
  expect(res.status).toBe(200)
  expect(res.headers.get('payment-response')).not.toBeNull()
  return getPortfolioRoute.output.parse(await res.json()) as Portfolio
}

async function spot(product: string): Promise<number> {
  const res = await fetch(`${svc.config.upstreams.coinbaseExchange}/products/${product}/ticker`)
  return Number(((await res.json()) as { price: string }).price)
}

async function balanceAt(token: Address, owner: Address, blockNumber: bigint): Promise<bigint> {
  if (token === NATIVE_SENTINEL) return chain.getBalance({ address: owner, blockNumber })
  return chain.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
    blockNumber,
  })
}

function expectRelClose(actual: number, expected: number, tolerance: number) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.max(Math.abs(expected), 1e-12))
}

/** Recomputes totalUsd and unpricedCount from the entries, and checks each entry's usd against its source. */
async function expectPricedFromSources(p: Portfolio) {
  const eth = await spot('ETH-USD')
  const btc = await spot('BTC-USD')
  let total = 0
  let unpriced = 0
  for (const t of p.tokens) {
    const whole = Number(t.balance) / 10 ** t.decimals
    if (t.usd === null) {
      unpriced++
      expect(t.priceSource, t.token).toBeNull()
      continue
    }
    total += t.usd
    if (t.priceSource === 'par:USD') expectRelClose(t.usd, whole, 1e-9)
    else if (t.priceSource === 'coinbase:ETH-USD') expectRelClose(t.usd, whole * eth, SPOT_TOLERANCE)
    else if (t.priceSource === 'coinbase:BTC-USD') expectRelClose(t.usd, whole * btc, SPOT_TOLERANCE)
    else throw new Error(`unexpected price source ${t.priceSource}`)
  }
  expectRelClose(p.totalUsd, total, 1e-9)
  expect(p.unpricedCount).toBe(unpriced)
}

/** A StandInTestERC20 deployed by demo account #5 (nobody else in this file sends from it). */
const minter = privateKeyToAccount(demoAccounts[5]?.privateKey as Hex)
let minting: Promise<unknown> = Promise.resolve()
async function mintToken(name: string, symbol: string, decimals: number, to: Address, amount: bigint) {
  const run = async (): Promise<Address> => {
    const wallet = createWalletClient({
      account: minter,
      chain: base,
      transport: headroomHttp(sw.world.rpcUrl),
    })
    const artifact = loadArtifact('StandInTestERC20')
    const deployed = await pollReceipt(
      chain,
      await wallet.deployContract({
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        args: [name, symbol, decimals],
      }),
      RECEIPT,
    )
    const token = getAddress(deployed.contractAddress as string)
    const mintAbi = [
      {
        type: 'function',
        name: 'mint',
        stateMutability: 'nonpayable',
        inputs: [
          { name: 'to', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
        outputs: [],
      },
    ] as const
    await pollReceipt(
      chain,
      await wallet.writeContract({
        address: token,
        abi: mintAbi,
        functionName: 'mint',
        args: [to, amount],
      }),
      RECEIPT,
    )
    return token
  }
  const next = minting.then(run, run)
  minting = next
  return next
}

describe.concurrent('GET /v1/portfolio/{address} (paid with @x402/fetch)', () => {
  test('behavior: demo account #1: every balance is the chain’s at the answer’s block, usd from the stated source', async () => {
    const p = await portfolioOf(svc, DEMO.toLowerCase())
    expect(p.address).toBe(DEMO)
    expect(p.sources).toEqual({ explorer: { ok: true }, chain: { ok: true }, prices: { ok: true } })
    const blockNumber = BigInt(p.block.number)
    const block = await chain.getBlock({ blockNumber })
    expect(p.block.timestamp).toBe(Number(block.timestamp))
    for (const t of [...p.tokens, ...p.screened]) {
      expect(BigInt(t.balance), t.token).toBe(await balanceAt(t.token, DEMO, blockNumber))
      expect(BigInt(t.balance) > 0n).toBe(true)
    }
    // The seeded state: native ETH, USDC (borrowed), WETH left after the collateral, the MetaMorpho shares
    // (listed in the catalog: unpriced, not screened).
    const byToken = new Map(p.tokens.map((t) => [t.token, t]))
    expect(byToken.get(NATIVE_SENTINEL)).toMatchObject({
      symbol: 'ETH',
      decimals: 18,
      priceSource: 'coinbase:ETH-USD',
    })
    expect(byToken.get(BASE_ADDRESSES.USDC)).toMatchObject({
      symbol: 'USDC',
      decimals: 6,
      priceSource: 'par:USD',
    })
    expect(byToken.get(BASE_ADDRESSES.WETH)).toMatchObject({
      symbol: 'WETH',
      priceSource: 'coinbase:ETH-USD',
    })
    const shares = byToken.get(DEVNET_VAULTS.metaMorphoUsdc)
    expect(shares, 'MetaMorpho shares are listed, unpriced').toMatchObject({ usd: null, priceSource: null })
    const shareDecimals = await chain.readContract({
      address: DEVNET_VAULTS.metaMorphoUsdc,
      abi: erc20Abi,
      functionName: 'decimals',
    })
    expect(shares?.decimals).toBe(shareDecimals)
    expect(p.screened).toEqual([])
    await expectPricedFromSources(p)

    // Every token the explorer lists with a balance is in the answer (the chain confirmed it).
    const listed = (await (
      await fetch(`${svc.config.upstreams.explorer}/api/v2/addresses/${DEMO}/token-balances`, EXPLORER_KEY)
    ).json()) as { token: { address_hash: string } }[]
    for (const row of listed)
      expect(byToken.has(getAddress(row.token.address_hash)), row.token.address_hash).toBe(true)
  })

  test('attack: a minted airdrop-scam token and a fake USDC are screened, unpriced and out of the total', async () => {
    const holder = await sw.freshWallet(2_500_000n)
    const owner = holder.account.address
    const scam = await mintToken(
      'Visit claim-base.xyz for your reward',
      'CLAIM',
      18,
      owner,
      parseUnits('1000000', 18),
    )
    const fake = await mintToken('USD Coin', 'USDC', 6, owner, parseUnits('50000', 6))

    // The explorer simulator indexed both from their Transfer logs, without a price.
    const rows = (await (
      await fetch(`${svc.config.upstreams.explorer}/api/v2/addresses/${owner}/token-balances`, EXPLORER_KEY)
    ).json()) as { token: { address_hash: string; exchange_rate: string | null; symbol: string } }[]
    for (const token of [scam, fake]) {
      const row = rows.find((r) => getAddress(r.token.address_hash) === token)
      expect(row?.token.exchange_rate, token).toBeNull()
    }

    const p = await portfolioOf(svc, owner)
    expect(p.screened).toEqual([
      ...[
        {
          token: scam,
          symbol: 'CLAIM',
          name: 'Visit claim-base.xyz for your reward',
          decimals: 18,
          balance: parseUnits('1000000', 18).toString(),
          reason: 'scam-pattern',
        },
        {
          token: fake,
          symbol: 'USDC',
          name: 'USD Coin',
          decimals: 6,
          balance: '50000000000',
          reason: 'impersonation',
        },
      ].sort((a, b) => a.token.localeCompare(b.token)),
    ])
    // The real USDC is priced; nothing screened counts.
    expect(p.tokens).toEqual([
      {
        token: BASE_ADDRESSES.USDC,
        symbol: 'USDC',
        decimals: 6,
        balance: '2500000',
        usd: 2.5,
        priceSource: 'par:USD',
      },
    ])
    expect(p.totalUsd).toBe(2.5)
    expect(p.unpricedCount).toBe(0)
    expect(await balanceAt(BASE_ADDRESSES.USDC, owner, BigInt(p.block.number))).toBe(2_500_000n)
  })

  test('default: an address with nothing answers 200 with empty lists and a total of 0', async () => {
    const nobody = privateKeyToAccount(generatePrivateKey()).address
    const p = await portfolioOf(svc, nobody)
    expect(p).toMatchObject({ address: nobody, totalUsd: 0, unpricedCount: 0, tokens: [], screened: [] })
    expect(p.sources.chain).toEqual({ ok: true })
  })

  test('error: a malformed address is a 400 naming `address`, and nothing is charged', async () => {
    const who = await sw.freshWallet(1_000_000n)
    const res = await wrapFetchWithPayment(fetch, who.client)(`${svc.url}/v1/portfolio/0x1234`)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { field: string } }).error.field).toBe('address')
    expect(res.headers.get('payment-response')).toBeNull()
    expect(await sw.usdcBalance(who.account.address)).toBe(1_000_000n)
  })

  test('behavior: with the explorer down, the token list and ETH still come from the chain', async () => {
    const closed = createServer()
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done))
    const port = (closed.address() as AddressInfo).port
    await new Promise((done) => closed.close(done))
    const blind = await sw.instance({ EXPLORER_URL: `http://127.0.0.1:${port}` })
    const p = await portfolioOf(blind, DEMO)
    expect(p.sources.explorer.ok).toBe(false)
    expect(p.sources.chain).toEqual({ ok: true })
    const blockNumber = BigInt(p.block.number)
    const byToken = new Map(p.tokens.map((t) => [t.token, t]))
    for (const token of [NATIVE_SENTINEL, BASE_ADDRESSES.USDC, DEVNET_VAULTS.metaMorphoUsdc]) {
      expect(BigInt(byToken.get(token)?.balance ?? -1), token).toBe(await balanceAt(token, DEMO, blockNumber))
    }
    await expectPricedFromSources(p)
  })

  test('behavior: a cold read is the answer cache’s head check plus one Multicall3 eth_call; a chain fault is an UpstreamError', async () => {
    const methods: string[] = []
    const counting = createPublicClient({
      transport: custom({
        request: (args: { method: string; params?: unknown }) => {
          methods.push(args.method)
          return chain.request(args as Parameters<PublicClient['request']>[0])
        },
      }),
    }) as PublicClient
    const market = createMarketData(svc.config.upstreams)
    const p = await getPortfolio(counting, market, svc.config, DEMO)
    expect(methods).toEqual(['eth_blockNumber', 'eth_call'])
    expect(p.tokens.length).toBeGreaterThan(0)

    const down = createPublicClient({
      transport: custom({
        request: async () => {
          throw new Error('connection refused')
        },
      }),
    }) as PublicClient
    await expect(getPortfolio(down, market, svc.config, DEMO)).rejects.toBeInstanceOf(UpstreamError)
  })
})
