import type { Command } from 'commander'
import { queryOf, receiptLabel } from '../format.js'
import type { CliSession } from '../session.js'

/** `agentdesk call <path> [key=value…]`: a paid read, asked before paying. */
export function registerCall(program: Command, s: CliSession): void {
  program
    .command('call <path> [params...]')
    .description('a paid read: GET <path> with key=value query parameters (asks before paying)')
    .action(async (path: string, params: string[]) => {
      const { body, receipt, spent } = await s.getJson(`${path}${queryOf(params)}`)
      if (s.out().json) return s.out().print(JSON.stringify({ result: body, receipt }))
      s.out().print(JSON.stringify(body, null, 2))
      s.out().print(`paid $${spent} (${receiptLabel(receipt)})`)
    })
}
