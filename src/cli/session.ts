import { homedir } from 'node:os'
import { join } from 'node:path'
import * as prompts from '@clack/prompts'
import type { Command } from 'commander'
import { createPublicClient, createWalletClient, http } from 'viem'
import { base } from 'viem/chains'
import { CliChannelStorage } from './cliChannelStorage.js'
import { CliError, cliAccount } from './cliWallet.js'
import { payingFetch } from './payingFetch.js'

/** What the CLI prints through: people get tables and lines, scripts (`--json`) one JSON document. */
export interface Output {
  json: boolean
  print(text: string): void
}

export interface GlobalOptions {
  url: string
  rpc: string
  json?: boolean
  yes?: boolean
  maxUsd?: number
}

type Account = Awaited<ReturnType<typeof cliAccount>>
type PayingFetch = ReturnType<typeof payingFetch>
const chainAt = (rpc: string) => createPublicClient({ chain: base, transport: http(rpc) })
const walletAt = (rpc: string, account: Account) =>
  createWalletClient({ account, chain: base, transport: http(rpc) })

/** What every command shares: the global options, the wallet (unlocked once), the paying fetch, the chain. */
export interface CliSession {
  opts(): GlobalOptions
  out(): Output
  account(): Promise<Account>
  channels(): Promise<CliChannelStorage>
  /** A fetch that pays; `deposit` opens or tops up a batch-settlement channel with the payment. */
  paying(deposit?: bigint): Promise<PayingFetch>
  /** The session's own paying fetch (one, so `--max-usd` caps the whole session). */
  fetcher(): Promise<PayingFetch>
  /** GET or POST `path` on the service, paid unless `paid` is false; a non-200 is a CliError naming it. */
  getJson(
    path: string,
    init?: RequestInit,
    paid?: boolean,
    payWith?: PayingFetch,
  ): Promise<{
    body: Record<string, unknown>
    receipt: ReturnType<PayingFetch['receipt']> | undefined
    spent: number
  }>
  chain(): ReturnType<typeof chainAt>
  wallet(signer: Account): ReturnType<typeof walletAt>
  /** Asks (unless --yes); a no or a cancel is a CliError saying `declined`. */
  confirm(message: string, declined: string): Promise<void>
}

export function createSession(program: Command, env: NodeJS.ProcessEnv): CliSession {
  const opts = () => program.opts<GlobalOptions>()
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
  const chain = () => chainAt(opts().rpc)
  const paying = async (deposit?: bigint) =>
    payingFetch(await account(), {
      yes: opts().yes === true,
      maxUsd: opts().maxUsd,
      channels: await channels(),
      chain: chain(),
      deposit,
    })
  let sessionFetch: PayingFetch | undefined
  const fetcher = async () => {
    sessionFetch ??= await paying()
    return sessionFetch
  }
  return {
    opts,
    out: () => ({ json: opts().json === true, print: (text) => process.stdout.write(`${text}\n`) }),
    account,
    channels,
    paying,
    fetcher,
    chain,
    wallet: (signer) => walletAt(opts().rpc, signer),
    async getJson(path, init, paid = true, payWith) {
      const f = paid ? (payWith ?? (await fetcher())) : undefined
      const res =
        f === undefined
          ? await fetch(`${opts().url}${path}`, init)
          : await f.fetch(`${opts().url}${path}`, init)
      const body = (await res.json()) as Record<string, unknown>
      if (res.status !== 200) {
        const error = body.error as { code?: string; message?: string } | string | undefined
        const message =
          typeof error === 'object'
            ? `${error.code}: ${error.message}`
            : JSON.stringify(body.refusal ?? error)
        throw new CliError(`${res.status} ${message}`)
      }
      return { body, receipt: f?.receipt(res), spent: f?.spentUsd() ?? 0 }
    },
    async confirm(message, declined) {
      if (opts().yes === true) return
      const ok = await prompts.confirm({ message })
      if (prompts.isCancel(ok) || ok !== true) throw new CliError(declined)
    },
  }
}
