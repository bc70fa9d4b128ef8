import { homedir } from 'node:os'
import { join } from 'node:path'
import * as prompts from '@clack/prompts'
import type { BatchSettlementClientContext } from '@x402/evm/batch-settlement/client'
import { Command, InvalidArgumentError } from 'commander'
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  formatUnits,
  getAddress,
  type Hex,
  http,
  parseUnits,
} from 'viem'
import { base } from 'viem/chains'
import { BASE_ADDRESSES, DEVNET_UTIL_TOKEN } from '../chain/addresses.js'
import { BASE_LENDING_CATALOG, DEVNET_LENDING_CATALOG } from '../chain/lendingCatalog.js'
import { pollReceipt } from '../chain/pollReceipt.js'
import { TOKENIZED_STOCKS } from '../chain/tokenizedStocks.js'
import { CliChannelStorage } from './cliChannelStorage.js'
import { CliError, cliAccount } from './cliWallet.js'
import { payingFetch } from './payingFetch.js'

/** What the CLI prints through: people get tables and lines, scripts (`--json`) one JSON document. */
interface Output {
  json: boolean
  print(text: string): void
}

interface Step {
  to: `0x${string}`
  data: Hex
  value: string
  description: string
}
interface Envelope {
  steps: Step[]
  simulation: { steps: { gasLimit: string }[]; balanceChanges: { token: string; delta: string }[] }
}

/**
 * Contract names by address, for people reading a build's steps: the address book, the tokenized stocks,
 * the lending catalogs' vaults (Base's and the devnet's) and UTIL. A step to anything else is flagged.
 */
const NAMES = new Map<string, string>(
  [
    ...Object.entries(BASE_ADDRESSES),
    ...Object.entries(TOKENIZED_STOCKS).map(([ticker, s]) => [ticker, s.token] as const),
    ...[...BASE_LENDING_CATALOG.vaults, ...DEVNET_LENDING_CATALOG.vaults].map(
      (v) => [`vault ${v.address}`, v.address] as const,
    ),
    ['UTIL', DEVNET_UTIL_TOKEN],
  ].map(([name, address]) => [address.toLowerCase(), name]),
)
const nameOf = (address: string) => NAMES.get(address.toLowerCase()) ?? address

const usd = (value: string) => {
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a non-negative number of USD.')
  return n
}

/** The paid call a deposit rides on, and whose channel `refund` refunds: the cheapest read. */
const DEPOSIT_PATH = '/v1/prices?symbols=ETH'

/** A positive USDC amount in USD, as atomic units (6 decimals). */
function usdcAtomic(amount: string): bigint {
  if (!/^\d+(\.\d{1,6})?$/.test(amount) || Number(amount) <= 0)
    throw new CliError(`"${amount}" is not a positive USDC amount (at most 6 decimals).`)
  return parseUnits(amount, 6)
}

/** Where a receipt's money went: the settlement transaction, or the UTIL credit or channel voucher that paid. */
function receiptLabel(receipt: { transaction: string; extra?: Record<string, unknown> } | undefined): string {
  if (receipt === undefined) return 'no receipt'
  if (receipt.transaction !== '') return receipt.transaction
  return receipt.extra?.utilCredit === undefined ? 'batch-settlement voucher' : 'UTIL credit'
}

/** One channel as people read it: what is left of the deposit. */
function channelLine(id: string, channel: BatchSettlementClientContext): string {
  const balance = BigInt(channel.balance ?? '0')
  const charged = BigInt(channel.chargedCumulativeAmount ?? '0')
  return `channel ${id}: deposit $${formatUnits(balance, 6)}, charged $${formatUnits(charged, 6)}, left $${formatUnits(balance - charged, 6)}`
}

/** `key=value` arguments as a query string. */
function queryOf(pairs: readonly string[]): string {
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
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')).join('\n')
}

/**
 * The `agentdesk` command line (issue 26): the catalog, paid calls that show the challenged price and ask
 * before paying (`--yes` to skip, `--max-usd` to cap the session), builds whose steps are shown and then
 * broadcast one by one after asking, the UTIL credit and referrals. The key comes from
 * AGENTDESK_PRIVATE_KEY or a keystore file (AGENTDESK_KEYSTORE), never a flag. Resolves to the exit code.
 */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const program = new Command()
    .name('agentdesk')
    .description('Pay-per-call market data, analytics and unsigned calldata on Base, paid with x402 (USDC).')
    .option('--url <url>', 'the service', env.AGENTDESK_URL ?? 'http://127.0.0.1:8402')
    .option(
      '--rpc <url>',
      'the chain RPC that builds are broadcast to',
      env.AGENTDESK_RPC_URL ?? 'http://127.0.0.1:8545',
    )
    .option('--json', 'print JSON for scripts instead of tables')
    .option('-y, --yes', 'pay and broadcast without asking')
    .option('--max-usd <usd>', 'the most this session may spend', usd)
    .exitOverride()
  const opts = () =>
    program.opts<{ url: string; rpc: string; json?: boolean; yes?: boolean; maxUsd?: number }>()
  const out = (): Output => ({
    json: opts().json === true,
    print: (text) => process.stdout.write(`${text}\n`),
  })
  // The key is read (a keystore unlocked) once, when a command first needs it.
  let unlocked: ReturnType<typeof cliAccount> | undefined
  const account = () => {
    unlocked ??= cliAccount(env)
    return unlocked
  }
  let channelFile: CliChannelStorage | undefined
  const channels = async () => {
    const home = env.AGENTDESK_HOME ?? join(homedir(), '.agentdesk')
    channelFile ??= new CliChannelStorage(join(home, `channels-${(await account()).address}.json`))
    return channelFile
  }
  const paying = async (deposit?: bigint) =>
    payingFetch(await account(), {
      yes: opts().yes === true,
      maxUsd: opts().maxUsd,
      channels: await channels(),
      chain: createPublicClient({ chain: base, transport: http(opts().rpc) }),
      deposit,
    })
  let sessionFetch: ReturnType<typeof payingFetch> | undefined
  const fetcher = async () => {
    sessionFetch ??= await paying()
    return sessionFetch
  }
  const getJson = async (
    path: string,
    init?: RequestInit,
    paid = true,
    payWith?: ReturnType<typeof payingFetch>,
  ) => {
    const f = paid ? (payWith ?? (await fetcher())) : undefined
    const res =
      f === undefined
        ? await fetch(`${opts().url}${path}`, init)
        : await f.fetch(`${opts().url}${path}`, init)
    const body = (await res.json()) as Record<string, unknown>
    if (res.status !== 200) {
      const error = body.error as { code?: string; message?: string } | string | undefined
      const message =
        typeof error === 'object' ? `${error.code}: ${error.message}` : JSON.stringify(body.refusal ?? error)
      throw new CliError(`${res.status} ${message}`)
    }
    return { body, receipt: f?.receipt(res), spent: f?.spentUsd() ?? 0 }
  }

  program
    .command('catalog')
    .description('every endpoint with its price')
    .action(async () => {
      const { body } = await getJson('/v1', undefined, false)
      const endpoints = body.endpoints as {
        method: string
        path: string
        priceUsd: number | null
        summary: string
      }[]
      if (out().json) return out().print(JSON.stringify(endpoints))
      out().print(
        table([
          ['METHOD', 'PATH', 'USD', 'WHAT'],
          ...endpoints.map((e) => [
            e.method,
            e.path,
            e.priceUsd === null ? 'free' : String(e.priceUsd),
            e.summary,
          ]),
        ]),
      )
    })

  program
    .command('call <path> [params...]')
    .description('a paid read: GET <path> with key=value query parameters (asks before paying)')
    .action(async (path: string, params: string[]) => {
      const { body, receipt, spent } = await getJson(`${path}${queryOf(params)}`)
      if (out().json) return out().print(JSON.stringify({ result: body, receipt }))
      out().print(JSON.stringify(body, null, 2))
      out().print(`paid $${spent} (${receiptLabel(receipt)})`)
    })

  program
    .command('build <builder> [body]')
    .description('POST /v1/tx/<builder> with a JSON body; shows the steps, then broadcasts each after asking')
    .action(async (builder: string, bodyText: string | undefined) => {
      const signer = await account()
      let request: unknown
      try {
        request = JSON.parse(bodyText ?? '{}')
      } catch {
        throw new CliError('the body is not JSON.')
      }
      const { body } = await getJson(`/v1/tx/${builder}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      })
      const envelope = body as unknown as Envelope
      if (out().json) out().print(JSON.stringify(envelope))
      else {
        out().print(
          table([
            ['#', 'TO', 'GAS LIMIT', 'WHAT'],
            ...envelope.steps.map((s, i) => [
              String(i + 1),
              nameOf(s.to),
              envelope.simulation.steps[i]?.gasLimit ?? '',
              s.description,
            ]),
          ]),
        )
        for (const change of envelope.simulation.balanceChanges)
          out().print(`balance change ${nameOf(change.token)}: ${change.delta}`)
      }
      // Steps come from the service: one whose target is not a contract the CLI knows is never sent
      // unasked, and with --yes not at all.
      const unknown = envelope.steps.filter((step) => !NAMES.has(step.to.toLowerCase()))
      if (unknown.length > 0 && opts().yes === true)
        throw new CliError(
          `not broadcast: ${unknown.map((s) => s.to).join(', ')} is not in the address book; run without --yes to review.`,
        )
      const chain = createPublicClient({ chain: base, transport: http(opts().rpc) })
      const wallet = createWalletClient({ account: signer, chain: base, transport: http(opts().rpc) })
      for (const [i, step] of envelope.steps.entries()) {
        if (!NAMES.has(step.to.toLowerCase()))
          out().print(`warning: step ${i + 1} targets ${step.to}, which is not in the address book`)
        if (opts().yes !== true) {
          const ok = await prompts.confirm({
            message: `Broadcast step ${i + 1} of ${envelope.steps.length}: ${step.description}?`,
          })
          if (prompts.isCancel(ok) || ok !== true)
            throw new CliError(`stopped before step ${i + 1}: nothing more was sent.`)
        }
        const hash = await wallet.sendTransaction({
          to: step.to,
          data: step.data,
          value: BigInt(step.value),
          gas: BigInt(envelope.simulation.steps[i]?.gasLimit ?? '0'),
        })
        const spin = out().json ? undefined : prompts.spinner()
        spin?.start(`waiting for ${hash}`)
        const receipt = await pollReceipt(chain, hash, { intervalMs: 200, timeoutMs: 120_000 })
        spin?.stop(`step ${i + 1}: ${receipt.status} in block ${receipt.blockNumber}`)
        if (out().json) out().print(JSON.stringify({ step: i + 1, hash, status: receipt.status }))
        if (receipt.status !== 'success')
          throw new CliError(`step ${i + 1} reverted (${hash}): nothing more was sent.`)
      }
    })

  const credit = program.command('credit').description('prepaid UTIL credit: half price, no surge')
  credit
    .command('balance')
    .description("this wallet's credit and the rail's terms")
    .action(async () => {
      const { body } = await getJson(`/v1/util-credit/${(await account()).address}`, undefined, false)
      out().print(out().json ? JSON.stringify(body) : `credit: $${body.balanceUsd}`)
    })
  credit
    .command('topup <amount>')
    .description('send <amount> UTIL to the credit recipient, then register it on a paid call')
    .action(async (amount: string) => {
      const signer = await account()
      const { body: statement } = await getJson(`/v1/util-credit/${signer.address}`, undefined, false)
      const terms = statement.terms as { recipient: `0x${string}`; token: `0x${string}` | null }
      const token = getAddress(terms.token ?? DEVNET_UTIL_TOKEN)
      const chain = createPublicClient({ chain: base, transport: http(opts().rpc) })
      // The token and recipient come from the service: the token must be UTIL, and a person confirms both.
      const symbol = await chain.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' })
      if (symbol !== 'UTIL')
        throw new CliError(`the service names ${token} (${symbol}) as the credit token, not UTIL.`)
      if (opts().yes !== true) {
        const ok = await prompts.confirm({
          message: `Send ${amount} UTIL (${token}) from ${signer.address} to ${terms.recipient} for credit?`,
        })
        if (prompts.isCancel(ok) || ok !== true) throw new CliError('top-up declined: nothing was sent.')
      }
      const wallet = createWalletClient({ account: signer, chain: base, transport: http(opts().rpc) })
      const hash = await wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [terms.recipient, parseUnits(amount, 18)],
      })
      await pollReceipt(chain, hash, { intervalMs: 200, timeoutMs: 120_000 })
      await getJson('/v1/prices?symbols=ETH', { headers: { 'X-UTIL-TOPUP': hash } })
      const { body } = await getJson(`/v1/util-credit/${signer.address}`, undefined, false)
      out().print(out().json ? JSON.stringify(body) : `topped up with ${hash}: credit $${body.balanceUsd}`)
    })

  program
    .command('deposit <usd>')
    .description(
      'open or top up a batch-settlement channel: deposit <usd> USDC (refundable) with one paid call; later calls pay by voucher',
    )
    .option('--path <path>', 'the paid call that carries the deposit', DEPOSIT_PATH)
    .action(async (amount: string, options: { path: string }) => {
      const atomic = usdcAtomic(amount)
      if (opts().yes !== true) {
        const ok = await prompts.confirm({
          message: `Deposit $${amount} USDC from ${(await account()).address} into a batch-settlement channel (refundable), paying GET ${options.path}?`,
        })
        if (prompts.isCancel(ok) || ok !== true) throw new CliError('deposit declined: nothing was signed.')
      }
      const store = await channels()
      const before = new Map([...store.all()].map(([id, c]) => [id, BigInt(c.balance ?? '0')]))
      const { receipt, spent } = await getJson(options.path, undefined, true, await paying(atomic))
      const state = [...store.all()]
      // What the channel gained, from the state the receipt left: not what was asked, in case they differ.
      const deposited = state.reduce(
        (sum, [id, c]) => sum + BigInt(c.balance ?? '0') - (before.get(id) ?? 0n),
        0n,
      )
      if (out().json)
        out().print(JSON.stringify({ deposited: deposited.toString(), receipt, channels: state }))
      else {
        out().print(
          `deposited $${formatUnits(deposited, 6)} (${receipt?.transaction || 'pending'}), paid $${spent} for the call`,
        )
        for (const [id, channel] of state) out().print(channelLine(id, channel))
      }
      if (deposited !== atomic)
        throw new CliError(
          deposited === 0n
            ? 'nothing was deposited: the channel already covered the call. Refund it first to deposit anew.'
            : `the channel took $${formatUnits(deposited, 6)}, not the $${amount} asked.`,
        )
    })

  program
    .command('refund')
    .description("take back the batch-settlement channel's unused deposit (all of it, or --amount)")
    .option('--amount <usd>', 'refund only this much')
    .option('--path <path>', 'a priced path of the service whose channel is refunded', DEPOSIT_PATH)
    .action(async (options: { amount?: string; path: string }) => {
      const atomic = options.amount === undefined ? undefined : usdcAtomic(options.amount)
      if (opts().yes !== true) {
        const ok = await prompts.confirm({
          message: `Refund ${options.amount === undefined ? 'all the unused deposit' : `$${options.amount}`} to ${(await account()).address}?`,
        })
        if (prompts.isCancel(ok) || ok !== true) throw new CliError('refund declined: nothing was signed.')
      }
      const f = await fetcher()
      let result: Awaited<ReturnType<typeof f.refund>>
      try {
        result = await f.refund(`${opts().url}${options.path}`, atomic)
      } catch (err) {
        throw new CliError(`not refunded: ${(err as Error).message}`)
      }
      if (!result.success) throw new CliError(`not refunded: ${result.errorReason ?? 'refused'}`)
      const state = [...(await channels()).all()]
      if (out().json) return out().print(JSON.stringify({ refund: result, channels: state }))
      out().print(`refunded in ${result.transaction}`)
      for (const [id, channel] of state) out().print(channelLine(id, channel))
    })

  for (const [name, path, paid] of [
    ['referrals', '/v1/referrals/', false],
    ['positions', '/v1/positions/', true],
  ] as const) {
    program
      .command(name)
      .description(`GET ${path}<this wallet>`)
      .action(async () => {
        const { body } = await getJson(`${path}${(await account()).address}`, undefined, paid)
        out().print(out().json ? JSON.stringify(body) : JSON.stringify(body, null, 2))
      })
  }

  try {
    await program.parseAsync(argv, { from: 'user' })
    return 0
  } catch (err) {
    const code = (err as { exitCode?: number; code?: string }).exitCode
    if (typeof code === 'number' && (err as { code?: string }).code?.startsWith('commander.')) return code
    process.stderr.write(`agentdesk: ${err instanceof CliError ? err.message : String(err)}\n`)
    return 1
  }
}
