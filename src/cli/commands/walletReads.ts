import type { Command } from 'commander'
import type { CliSession } from '../session.js'

/** `agentdesk referrals` (free) and `agentdesk positions` (paid): the reads of this wallet. */
export function registerWalletReads(program: Command, s: CliSession): void {
  for (const [name, path, paid] of [
    ['referrals', '/v1/referrals/', false],
    ['positions', '/v1/positions/', true],
  ] as const) {
    program
      .command(name)
      .description(`GET ${path}<this wallet>`)
      .action(async () => {
        const { body } = await s.getJson(`${path}${(await s.account()).address}`, undefined, paid)
        s.out().print(s.out().json ? JSON.stringify(body) : JSON.stringify(body, null, 2))
      })
  }
}
