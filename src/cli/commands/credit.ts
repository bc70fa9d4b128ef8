import type { Command } from 'commander'
import { erc20Abi, getAddress, parseUnits } from 'viem'
import { DEVNET_UTIL_TOKEN } from '../../chain/addresses.js'
import { pollReceipt } from '../../chain/pollReceipt.js'
import { CliError } from '../cliWallet.js'
import type { CliSession } from '../session.js'

/** `agentdesk credit balance|topup <amount>`: the prepaid UTIL credit rail. */
export function registerCredit(program: Command, s: CliSession): void {
  const credit = program.command('credit').description('prepaid UTIL credit: half price, no surge')
  credit
    .command('balance')
    .description("this wallet's credit and the rail's terms")
    .action(async () => {
      const { body } = await s.getJson(`/v1/util-credit/${(await s.account()).address}`, undefined, false)
      s.out().print(s.out().json ? JSON.stringify(body) : `credit: $${body.balanceUsd}`)
    })
  credit
    .command('topup <amount>')
    .description('send <amount> UTIL to the credit recipient, then register it on a paid call')
    .action(async (amount: string) => {
      const signer = await s.account()
      const { body: statement } = await s.getJson(`/v1/util-credit/${signer.address}`, undefined, false)
      const terms = statement.terms as { recipient: `0x${string}`; token: `0x${string}` | null }
      const token = getAddress(terms.token ?? DEVNET_UTIL_TOKEN)
      const chain = s.chain()
      // The token and recipient come from the service: the token must be UTIL, and a person confirms both.
      const symbol = await chain.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' })
      if (symbol !== 'UTIL')
        throw new CliError(`the service names ${token} (${symbol}) as the credit token, not UTIL.`)
      await s.confirm(
        `Send ${amount} UTIL (${token}) from ${signer.address} to ${terms.recipient} for credit?`,
        'top-up declined: nothing was sent.',
      )
      const wallet = s.wallet(signer)
      const hash = await wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [terms.recipient, parseUnits(amount, 18)],
      })
      await pollReceipt(chain, hash, { intervalMs: 200, timeoutMs: 120_000 })
      await s.getJson('/v1/prices?symbols=ETH', { headers: { 'X-UTIL-TOPUP': hash } })
      const { body } = await s.getJson(`/v1/util-credit/${signer.address}`, undefined, false)
      s.out().print(
        s.out().json ? JSON.stringify(body) : `topped up with ${hash}: credit $${body.balanceUsd}`,
      )
    })
}
