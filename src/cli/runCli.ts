import { Command, InvalidArgumentError } from 'commander'
import { CliError } from './cliWallet.js'
import { registerBuild } from './commands/build.js'
import { registerCall } from './commands/call.js'
import { registerCatalog } from './commands/catalog.js'
import { registerChannel } from './commands/channel.js'
import { registerCredit } from './commands/credit.js'
import { registerWalletReads } from './commands/walletReads.js'
import { createSession } from './session.js'

const usd = (value: string) => {
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a non-negative number of USD.')
  return n
}

/**
 * The `agentdesk` command line (issue 26): the catalog, paid calls that show the challenged price and ask
 * before paying (`--yes` to skip, `--max-usd` to cap the session), builds whose steps are shown and then
 * broadcast one by one after asking, the UTIL credit and referrals. One file per command in
 * `src/cli/commands/`, sharing a session (`src/cli/session.ts`). The key comes from AGENTDESK_PRIVATE_KEY
 * or a keystore file (AGENTDESK_KEYSTORE), never a flag. Resolves to the exit code.
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
  const session = createSession(program, env)
  for (const register of [
    registerCatalog,
    registerCall,
    registerBuild,
    registerCredit,
    registerChannel,
    registerWalletReads,
  ])
    register(program, session)

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
