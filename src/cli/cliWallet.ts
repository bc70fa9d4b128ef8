import { readFileSync } from 'node:fs'
import * as prompts from '@clack/prompts'
import type { Hex } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { decryptKeystore } from './decryptKeystore.js'

/** Where the CLI's key comes from: environment variables or a keystore file, never a flag (shell history). */
export const KEY_VARIABLE = 'AGENTDESK_PRIVATE_KEY'
export const KEYSTORE_VARIABLE = 'AGENTDESK_KEYSTORE'
export const KEYSTORE_PASSWORD_VARIABLE = 'AGENTDESK_KEYSTORE_PASSWORD'

/**
 * The paying (and, for builds, broadcasting) account: AGENTDESK_PRIVATE_KEY, or the Ethereum keystore file
 * AGENTDESK_KEYSTORE unlocked with AGENTDESK_KEYSTORE_PASSWORD or, on a terminal, a password prompt.
 */
export async function cliAccount(env: NodeJS.ProcessEnv): Promise<PrivateKeyAccount> {
  const key = env[KEY_VARIABLE]?.trim()
  if (key !== undefined && key !== '') {
    if (!/^0x[0-9a-fA-F]{64}$/.test(key))
      throw new CliError(`${KEY_VARIABLE} must be 0x followed by 64 hex digits.`)
    return privateKeyToAccount(key as Hex)
  }
  const file = env[KEYSTORE_VARIABLE]?.trim()
  if (file === undefined || file === '') {
    throw new CliError(
      `no key: export ${KEY_VARIABLE} (0x + 64 hex digits), or ${KEYSTORE_VARIABLE} (an Ethereum keystore file).`,
    )
  }
  let json: string
  try {
    json = readFileSync(file, 'utf8')
  } catch {
    throw new CliError(`${KEYSTORE_VARIABLE}: cannot read ${file}.`)
  }
  let password = env[KEYSTORE_PASSWORD_VARIABLE]
  if (password === undefined) {
    const typed = await prompts.password({ message: `Password of ${file}` })
    if (prompts.isCancel(typed)) throw new CliError('no password given.')
    password = typed
  }
  try {
    return privateKeyToAccount(decryptKeystore(json, password))
  } catch (err) {
    throw new CliError(`${KEYSTORE_VARIABLE}: ${(err as Error).message}.`)
  }
}

/** A refusal the CLI explains in one line and exits 1 with (no stack trace). */
export class CliError extends Error {
  override readonly name = 'CliError'
}
