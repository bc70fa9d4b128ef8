import type { Command } from 'commander'
import { formatUnits } from 'viem'
import { CliError } from '../cliWallet.js'
import { channelLine, usdcAtomic } from '../format.js'
import type { CliSession } from '../session.js'

/** The paid call a deposit rides on, and whose channel `refund` refunds: the cheapest read. */
const DEPOSIT_PATH = '/v1/prices?symbols=ETH'

/**
 * `agentdesk deposit <usd>` and `agentdesk refund`: the batch-settlement channel, opened or topped up with
 * one paid call (later calls pay by voucher), and its unused deposit taken back.
 */
export function registerChannel(program: Command, s: CliSession): void {
  program
    .command('deposit <usd>')
    .description(
      'open or top up a batch-settlement channel: deposit <usd> USDC (refundable) with one paid call; later calls pay by voucher',
    )
    .option('--path <path>', 'the paid call that carries the deposit', DEPOSIT_PATH)
    .action(async (amount: string, options: { path: string }) => {
      const atomic = usdcAtomic(amount)
      await s.confirm(
        `Deposit $${amount} USDC from ${(await s.account()).address} into a batch-settlement channel (refundable), paying GET ${options.path}?`,
        'deposit declined: nothing was signed.',
      )
      const store = await s.channels()
      const before = new Map([...store.all()].map(([id, c]) => [id, BigInt(c.balance ?? '0')]))
      const { receipt, spent } = await s.getJson(options.path, undefined, true, await s.paying(atomic))
      const state = [...store.all()]
      // What the channel gained, from the state the receipt left: not what was asked, in case they differ.
      const deposited = state.reduce(
        (sum, [id, c]) => sum + BigInt(c.balance ?? '0') - (before.get(id) ?? 0n),
        0n,
      )
      const out = s.out()
      if (out.json) out.print(JSON.stringify({ deposited: deposited.toString(), receipt, channels: state }))
      else {
        out.print(
          `deposited $${formatUnits(deposited, 6)} (${receipt?.transaction || 'pending'}), paid $${spent} for the call`,
        )
        for (const [id, channel] of state) out.print(channelLine(id, channel))
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
      await s.confirm(
        `Refund ${options.amount === undefined ? 'all the unused deposit' : `$${options.amount}`} to ${(await s.account()).address}?`,
        'refund declined: nothing was signed.',
      )
      const f = await s.fetcher()
      let result: Awaited<ReturnType<typeof f.refund>>
      try {
        result = await f.refund(`${s.opts().url}${options.path}`, atomic)
      } catch (err) {
        throw new CliError(`not refunded: ${(err as Error).message}`)
      }
      if (!result.success) throw new CliError(`not refunded: ${result.errorReason ?? 'refused'}`)
      const state = [...(await s.channels()).all()]
      if (s.out().json) return s.out().print(JSON.stringify({ refund: result, channels: state }))
      s.out().print(`refunded in ${result.transaction}`)
      for (const [id, channel] of state) s.out().print(channelLine(id, channel))
    })
}
