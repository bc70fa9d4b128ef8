import * as prompts from '@clack/prompts'
import { Command, InvalidArgumentError } from 'commander'
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseUnits,
} from 'viem'
import { base } from 'viem/chains'
import { BASE_ADDRESSES, DEVNET_UTIL_TOKEN } from '../chain/addresses.js'
import { pollReceipt } from '../chain/pollReceipt.js'
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

/** Contract names by address, from the address book, for people reading a build's steps. */
const NAMES = new Map(Object.entries(BASE_ADDRESSES).map(([name, address]) => [address.toLowerCase(), name]))
const nameOf = (address: string) => NAMES.get(address.toLowerCase()) ?? address

const usd = (value: string) => {
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a non-negative number of USD.')
  return n
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
  let paying: ReturnType<typeof payingFetch> | undefined
  const fetcher = async () => {
    paying ??= payingFetch(await account(), { yes: opts().yes === true, maxUsd: opts().maxUsd })
    return paying
  }
  const getJson = async (path: string, init?: RequestInit, paid = true) => {
    const f = paid ? await fetcher() : undefined
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
      out().print(`paid $${spent} (${receipt?.transaction || 'credit'})`)
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
      const chain = createPublicClient({ chain: base, transport: http(opts().rpc) })
      const wallet = createWalletClient({ account: signer, chain: base, transport: http(opts().rpc) })
      for (const [i, step] of envelope.steps.entries()) {
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
      const token = terms.token ?? DEVNET_UTIL_TOKEN
      const chain = createPublicClient({ chain: base, transport: http(opts().rpc) })
      const wallet = createWalletClient({ account: signer, chain: base, transport: http(opts().rpc) })
      const hash = await wallet.writeContract({
        address: getAddress(token),
        abi: erc20Abi,
        functionName: 'transfer',
        args: [terms.recipient, parseUnits(amount, 18)],
      })
      await pollReceipt(chain, hash, { intervalMs: 200, timeoutMs: 120_000 })
      await getJson('/v1/prices?symbols=ETH', { headers: { 'X-UTIL-TOPUP': hash } })
      const { body } = await getJson(`/v1/util-credit/${signer.address}`, undefined, false)
      out().print(out().json ? JSON.stringify(body) : `topped up with ${hash}: credit $${body.balanceUsd}`)
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
