import { execFileSync } from 'node:child_process'
import { erc20Abi } from 'viem'
import { afterAll, describe, expect, test } from 'vitest'
import { DEAD_ADDRESS, DEVNET_UTIL_TOKEN } from '../../src/chain/addresses.js'
import { PROJECT_ROOT } from '../../src/projectRoot.js'
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

/** Runs the CLI in a new tmux window; the screen can be read and keys sent until it prints its exit code. */
function terminal(key: `0x${string}`, args: readonly string[]) {
  const name = `s${sessions++}`
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  const command =
    `cd ${PROJECT_ROOT} && AGENTDESK_PRIVATE_KEY=${key} node scripts/agentdesk.mjs ` +
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

  test('behavior: build shows the steps, then broadcasts each after the confirmation, and it lands onchain', async () => {
    const amount = 10n ** 18n
    const w = await utilWallet(sw, 1_000_000n, 5n * amount)
    const body = JSON.stringify({ amount: amount.toString(), owner: w.account.address })
    const dead = () =>
      sw.chain.readContract({
        address: DEVNET_UTIL_TOKEN,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [DEAD_ADDRESS],
      })
    const before = await dead()
    const term = terminal(w.privateKey, ['build', 'burn', body])
    await term.waitFor('Pay $0.01 USDC')
    term.press('Enter')
    const shown = await term.waitFor('Broadcast step 1 of 1')
    expect(shown).toMatch(/#\s+TO\s+GAS LIMIT\s+WHAT/)
    expect(await dead()).toBe(before)
    term.press('Enter')
    const done = await term.waitFor('EXIT=')
    expect(done).toMatch(/step 1: success in block \d+/)
    expect(done).toContain('EXIT=0')
    expect(await dead()).toBe(before + amount)
    term.close()
  })
})
