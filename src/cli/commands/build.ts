import * as prompts from '@clack/prompts'
import type { Command } from 'commander'
import type { Hex } from 'viem'
import { pollReceipt } from '../../chain/pollReceipt.js'
import { CliError } from '../cliWallet.js'
import { NAMES, nameOf, table } from '../format.js'
import type { CliSession } from '../session.js'

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
 * `agentdesk build <builder> [body]`: POST /v1/tx/<builder>, show the steps, then broadcast each after
 * asking. A step to a contract the CLI does not know is flagged, and never sent with --yes.
 */
export function registerBuild(program: Command, s: CliSession): void {
  program
    .command('build <builder> [body]')
    .description('POST /v1/tx/<builder> with a JSON body; shows the steps, then broadcasts each after asking')
    .action(async (builder: string, bodyText: string | undefined) => {
      const signer = await s.account()
      let request: unknown
      try {
        request = JSON.parse(bodyText ?? '{}')
      } catch {
        throw new CliError('the body is not JSON.')
      }
      const { body } = await s.getJson(`/v1/tx/${builder}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      })
      const envelope = body as unknown as Envelope
      const out = s.out()
      if (out.json) out.print(JSON.stringify(envelope))
      else {
        out.print(
          table([
            ['#', 'TO', 'GAS LIMIT', 'WHAT'],
            ...envelope.steps.map((step, i) => [
              String(i + 1),
              nameOf(step.to),
              envelope.simulation.steps[i]?.gasLimit ?? '',
              step.description,
            ]),
          ]),
        )
        for (const change of envelope.simulation.balanceChanges)
          out.print(`balance change ${nameOf(change.token)}: ${change.delta}`)
      }
      // Steps come from the service: one whose target is not a contract the CLI knows is never sent
      // unasked, and with --yes not at all.
      const unknown = envelope.steps.filter((step) => !NAMES.has(step.to.toLowerCase()))
      if (unknown.length > 0 && s.opts().yes === true)
        throw new CliError(
          `not broadcast: ${unknown.map((step) => step.to).join(', ')} is not in the address book; run without --yes to review.`,
        )
      const chain = s.chain()
      const wallet = s.wallet(signer)
      for (const [i, step] of envelope.steps.entries()) {
        if (!NAMES.has(step.to.toLowerCase()))
          out.print(`warning: step ${i + 1} targets ${step.to}, which is not in the address book`)
        await s.confirm(
          `Broadcast step ${i + 1} of ${envelope.steps.length}: ${step.description}?`,
          `stopped before step ${i + 1}: nothing more was sent.`,
        )
        const hash = await wallet.sendTransaction({
          to: step.to,
          data: step.data,
          value: BigInt(step.value),
          gas: BigInt(envelope.simulation.steps[i]?.gasLimit ?? '0'),
        })
        const spin = out.json ? undefined : prompts.spinner()
        spin?.start(`waiting for ${hash}`)
        const receipt = await pollReceipt(chain, hash, { intervalMs: 200, timeoutMs: 120_000 })
        spin?.stop(`step ${i + 1}: ${receipt.status} in block ${receipt.blockNumber}`)
        if (out.json) out.print(JSON.stringify({ step: i + 1, hash, status: receipt.status }))
        if (receipt.status !== 'success')
          throw new CliError(`step ${i + 1} reverted (${hash}): nothing more was sent.`)
      }
    })
}
