import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { erc20Abi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { demoAccounts } from '../../src/devnet/devnetAccounts.js'
import { PROJECT_ROOT } from '../../src/projectRoot.js'
import { KEYSTORE_KEY, KEYSTORE_PASSWORD, PBKDF2_KEYSTORE } from '../fixtures/keystoreVectors.js'
import { sendUsdc, walletOf } from '../helpers/attackKit.js'
import { utilWallet } from '../helpers/creditKit.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The `agentdesk` CLI under a real pseudo-terminal (tmux, on a socket of this file's own): it asks before
// paying and before broadcasting, and the test answers as a person would.
const sw = useWorld()
const svc = useInstance(sw)
const SOCKET = `agentdesk-cli-${process.pid}`
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' })
let sessions = 0

afterAll(() => {
  try {
    tmux('kill-server')
  } catch {
    // No session left.
  }
})

/**
 * Runs the CLI in a new tmux window with the key (or `env` instead); the screen can be read and keys sent
 * until it prints its exit code.
 */
function terminal(key: `0x${string}` | Record<string, string>, args: readonly string[]) {
  const name = `s${sessions++}`
  const quote = (a: string) => `'${a.replaceAll("'", "'\\''")}'`
  const quoted = args.map(quote).join(' ')
  const env = typeof key === 'string' ? { AGENTDESK_PRIVATE_KEY: key } : key
  const vars = Object.entries(env)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(' ')
  const command =
    `cd ${PROJECT_ROOT} && ${vars} node scripts/agentdesk.mjs ` +
    `--url ${svc.url} --rpc ${sw.world.rpcUrl} ${quoted}; echo "EXIT=$?"; sleep 600`
  tmux('new-session', '-d', '-s', name, '-x', '200', '-y', '50', command)
  const screen = () => tmux('capture-pane', '-p', '-t', name, '-S', '-500')
  return {
    screen,
    async waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<string> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const shown = screen()
        if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown
        if (Date.now() > deadline) throw new Error(`"${String(text)}" never showed; the screen:\n${shown}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    press: (...keys: string[]) => tmux('send-keys', '-t', name, ...keys),
    close: () => tmux('kill-session', '-t', name),
  }
}

describe('agentdesk CLI', () => {
  test('behavior: call shows the price, pays after the confirmation, prints the answer and the receipt', async () => {
    const w = await utilWallet(sw, 1_000_000n, 0n)
    const term = terminal(w.privateKey, ['call', '/v1/prices', 'symbols=ETH'])
    await term.waitFor('Pay $0.001 USDC')
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n)
    term.press('Enter')
    const shown = await term.waitFor('EXIT=')
    expect(shown).toContain('"symbol": "ETH"')
    expect(shown).toMatch(/paid \$0\.001 \(0x[0-9a-f]{64}\)/)
    expect(shown).toContain('EXIT=0')
    expect(await sw.usdcBalance(w.account.address)).toBe(999_000n)
    term.close()
  })

  test('behavior: --max-usd stops the session at its cap: nothing is asked, nothing paid', async () => {
    const w = await utilWallet(sw, 1_000_000n, 0n)
    const term = terminal(w.privateKey, ['--max-usd', '0.0005', 'call', '/v1/prices', 'symbols=ETH'])
    const shown = await term.waitFor('EXIT=')
    expect(shown).toContain('would pass --max-usd 0.0005')
    expect(shown).not.toContain('Pay $')
    expect(shown).toContain('EXIT=1')
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n)
    term.close()
  })

  test('behavior: build of a swap shows the steps, then broadcasts each after the confirmation, and the swap lands onchain', async () => {
    const w = await utilWallet(sw, 100_000_000n, 0n)
    const weth = () =>
      sw.chain.readContract({
        address: BASE_ADDRESSES.WETH,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [w.account.address],
      })
    const body = JSON.stringify({
      fromToken: BASE_ADDRESSES.USDC,
      toToken: BASE_ADDRESSES.WETH,
      fromAmount: '50000000',
      taker: w.account.address,
      slippageBps: 100,
    })
    const term = terminal(w.privateKey, ['build', 'swap', body])
    await term.waitFor('Pay $0.01 USDC')
    term.press('Enter')
    // An approve of the router, then the swap: both shown, nothing sent before the confirmation.
    const shown = await term.waitFor('Broadcast step 1 of 2')
    expect(shown).toMatch(/#\s+TO\s+GAS LIMIT\s+WHAT/)
    expect(shown).toMatch(/balance change WETH: \d+/)
    expect(await weth()).toBe(0n)
    const paid = 100_000_000n - 10_000n
    expect(await sw.usdcBalance(w.account.address)).toBe(paid)
    term.press('Enter')
    await term.waitFor('Broadcast step 2 of 2')
    term.press('Enter')
    const done = await term.waitFor('EXIT=')
    expect(done).toMatch(/step 1: success in block \d+/)
    expect(done).toMatch(/step 2: success in block \d+/)
    expect(done).toContain('EXIT=0')
    // The swap happened onchain: the 50 USDC left, WETH arrived (the 1,000-USDC-per-0.3-WETH scale).
    expect(await sw.usdcBalance(w.account.address)).toBe(paid - 50_000_000n)
    expect(await weth()).toBeGreaterThan(10n ** 16n)
    term.close()
  })

  test('behavior: deposit opens a batch-settlement channel, the next session pays by voucher, refund returns the rest', async () => {
    const w = await utilWallet(sw, 1_000_000n, 0n)
    const env = {
      AGENTDESK_PRIVATE_KEY: w.privateKey,
      AGENTDESK_HOME: mkdtempSync(join(tmpdir(), 'agentdesk-')),
    }
    const deposit = terminal(env, ['deposit', '0.05'])
    await deposit.waitFor('Deposit $0.05 USDC')
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n)
    deposit.press('Enter')
    // The call the deposit rides on is confirmed at its own price.
    await deposit.waitFor('Pay $0.001 from the batch-settlement channel')
    deposit.press('Enter')
    const deposited = await deposit.waitFor('EXIT=')
    expect(deposited).toContain('EXIT=0')
    expect(deposited).toMatch(/deposit \$0\.05, charged \$0\.001, left \$0\.049/)
    expect(await sw.usdcBalance(w.account.address)).toBe(950_000n)
    deposit.close()

    // A new session finds the channel on disk and pays the call from it: no USDC leaves the wallet.
    const call = terminal(env, ['call', '/v1/prices', 'symbols=ETH'])
    await call.waitFor('Pay $0.001 from the batch-settlement channel')
    call.press('Enter')
    const called = await call.waitFor('EXIT=')
    expect(called).toContain('"symbol": "ETH"')
    expect(called).toContain('EXIT=0')
    expect(await sw.usdcBalance(w.account.address)).toBe(950_000n)
    call.close()

    // A channel file others could write is not trusted: it decides what the next voucher signs away.
    const file = join(env.AGENTDESK_HOME, `channels-${w.account.address}.json`)
    chmodSync(file, 0o666)
    const loose = terminal(env, ['--yes', 'call', '/v1/prices', 'symbols=ETH'])
    const refused = await loose.waitFor('EXIT=')
    expect(refused).toContain('chmod 600')
    expect(refused).toContain('EXIT=1')
    expect(await sw.usdcBalance(w.account.address)).toBe(950_000n)
    loose.close()
    chmodSync(file, 0o600)

    const refund = terminal(env, ['--yes', 'refund'])
    const refunded = await refund.waitFor('EXIT=')
    expect(refunded).toMatch(/refunded in 0x[0-9a-f]{64}/)
    expect(refunded).toContain('EXIT=0')
    // Two calls were paid from the deposit; the rest came back.
    expect(await sw.usdcBalance(w.account.address)).toBe(1_000_000n - 2_000n)
    refund.close()
    // Four CLI sessions, each a Node process of its own: 12.6 s alone, past 30 s on a loaded machine whose
    // dist/ is older than src/ (each start then compiles through tsx; a DEVNET_DATE run saw it time out).
  }, 60_000)

  test('behavior: the key can come from a keystore file, unlocked by the password typed at the prompt', async () => {
    // The Web3 Secret Storage definition's PBKDF2 test vector (password "testpassword"), funded here.
    const dir = mkdtempSync(join(tmpdir(), 'keystore-'))
    const file = join(dir, 'key.json')
    writeFileSync(file, PBKDF2_KEYSTORE)
    const owner = privateKeyToAccount(KEYSTORE_KEY)
    await sendUsdc(sw, walletOf(sw, demoAccounts[2]?.privateKey as `0x${string}`), owner.address, 10_000n)
    const before = await sw.usdcBalance(owner.address)
    const term = terminal({ AGENTDESK_KEYSTORE: file }, ['call', '/v1/prices', 'symbols=ETH'])
    await term.waitFor('Password of')
    term.press(KEYSTORE_PASSWORD, 'Enter')
    await term.waitFor('Pay $0.001 USDC')
    term.press('Enter')
    const shown = await term.waitFor('EXIT=')
    expect(shown).toContain('EXIT=0')
    expect(await sw.usdcBalance(owner.address)).toBe(before - 1_000n)
    term.close()
  })
})
