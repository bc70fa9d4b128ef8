import { createTestClient, http } from 'viem'
import { base } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { BASE_ADDRESSES } from '../../src/chain/addresses.js'
import { loadConfig } from '../../src/config.js'
import { preflightChecks } from '../../src/preflight/preflightChecks.js'
import { runPreflight } from '../../src/preflight/runPreflight.js'
import { eventually } from '../helpers/eventually.js'
import { useInstance, useWorld } from '../helpers/serviceWorld.js'

// The production preflight against the devnet world: every contract of the address book the service calls
// has code (B20 stocks excepted) and answers the view it depends on. An entry whose contract lacks that
// view (Midnight's code swapped for USDC's, in place) keeps /ready failing with a message naming it.
const sw = useWorld()
const svc = useInstance(sw, { PREFLIGHT_INTERVAL_SECONDS: '0' })

type Ready = { ready: boolean; components: Record<string, boolean>; problems: Record<string, string> }
const readyOnce = async () => {
  const res = await fetch(`${svc.url}/ready`)
  return { status: res.status, body: (await res.json()) as Ready }
}
/**
 * /ready answers from the last preflight and starts the next in the background (here every second at
 * most: PREFLIGHT_INTERVAL_SECONDS=0): polled until it says what `until` waits for.
 */
const ready = (until: (r: Awaited<ReturnType<typeof readyOnce>>) => boolean) =>
  eventually(async () => {
    const r = await readyOnce()
    expect(until(r), JSON.stringify(r.body)).toBe(true)
    return r
  })

describe('production preflight', () => {
  test('default: the devnet world passes every check; /ready is 200 with the preflight ready', async () => {
    const config = loadConfig({ ...sw.env, DATA_DIR: 'memory://' })
    const checks = preflightChecks(config)
    // Every contract the service calls is on the list, the stocks without a code requirement.
    expect(checks.map((c) => c.contract)).toEqual(
      expect.arrayContaining([
        'USDC',
        'MorphoMidnight',
        'GtradeDiamond',
        'MorphoBlue',
        'AerodromeRouter',
        'AAPLc token',
      ]),
    )
    expect(checks.find((c) => c.contract === 'AAPLc token')?.needsCode).toBe(false)
    expect(await runPreflight(sw.chain, checks)).toEqual([])
    const { status, body } = await ready((r) => r.body.components.preflight === true)
    expect(status).toBe(200)
    expect(body.components.preflight).toBe(true)
    expect(body.problems).toEqual({})
  })

  test('error: Midnight without its views (another contract at its address) keeps /ready 503, naming it; restored, ready again', async () => {
    const rpc = createTestClient({ chain: base, mode: 'anvil', transport: http(sw.world.rpcUrl) })
    const midnight = BASE_ADDRESSES.MorphoMidnight
    const original = await sw.chain.getCode({ address: midnight, blockTag: 'latest' })
    const usdcCode = await sw.chain.getCode({ address: BASE_ADDRESSES.USDC, blockTag: 'latest' })
    if (original === undefined || usdcCode === undefined) throw new Error('the world lacks Midnight or USDC')
    await rpc.setCode({ address: midnight, bytecode: usdcCode })
    try {
      const { status, body } = await ready(
        (r) => r.body.components.preflight === false && r.body.problems.preflight !== 'not checked yet',
      )
      expect(status).toBe(503)
      expect(body.components.preflight).toBe(false)
      expect(body.problems.preflight).toMatch(
        /^MorphoMidnight \(0xAdedD8ab6dE832766Fedf0FaC4992E5C4D3EA18A\) withdrawable\(\): the call failed/,
      )
      // Only the broken contract is named.
      expect(body.problems.preflight?.split('; ')).toHaveLength(1)
      // Code gone altogether: named as missing.
      await rpc.setCode({ address: midnight, bytecode: '0x' })
      const gone = await ready((r) => /code: no contract/.test(r.body.problems.preflight ?? ''))
      expect(gone.body.problems.preflight).toMatch(
        /^MorphoMidnight \(0xAded\w+\) code: no contract at this address$/,
      )
    } finally {
      await rpc.setCode({ address: midnight, bytecode: original })
    }
    const again = await ready((r) => r.status === 200)
    expect(again.status).toBe(200)
    expect(again.body.problems).toEqual({})
  })
})
