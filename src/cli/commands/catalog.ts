import type { Command } from 'commander'
import { table } from '../format.js'
import type { CliSession } from '../session.js'

/** `agentdesk catalog`: every endpoint with its price (free, unpaid). */
export function registerCatalog(program: Command, s: CliSession): void {
  program
    .command('catalog')
    .description('every endpoint with its price')
    .action(async () => {
      const { body } = await s.getJson('/v1', undefined, false)
      const endpoints = body.endpoints as {
        method: string
        path: string
        priceUsd: number | null
        summary: string
      }[]
      if (s.out().json) return s.out().print(JSON.stringify(endpoints))
      s.out().print(
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
}
