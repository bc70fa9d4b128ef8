import type { Hex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'

/** The environment variable the CLI's key comes from: never a flag (flags land in shell history). */
export const KEY_VARIABLE = 'AGENTDESK_PRIVATE_KEY'

/** The paying (and, for builds, broadcasting) account, or a clear message of what is missing. */
export function cliAccount(env: NodeJS.ProcessEnv): PrivateKeyAccount {
  const key = env[KEY_VARIABLE]?.trim()
  if (key === undefined || key === '') {
    throw new CliError(
      `${KEY_VARIABLE} is not set: export the paying wallet's private key (0x + 64 hex digits).`,
    )
  }
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new CliError(`${KEY_VARIABLE} must be 0x followed by 64 hex digits.`)
  return privateKeyToAccount(key as Hex)
}

/** A refusal the CLI explains in one line and exits 1 with (no stack trace). */
export class CliError extends Error {
  override readonly name = 'CliError'
}
