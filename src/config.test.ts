import { privateKeyToAddress } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { ConfigError, loadConfig } from './config.js'

describe('loadConfig', () => {
  test('DEVNET_DATE: a calendar date whose market the world plays; anything else is refused by name', () => {
    expect(loadConfig({}).devnet.marketDate).toBeNull()
    expect(loadConfig({ DEVNET_DATE: '2027-01-15' }).devnet.marketDate).toBe('2027-01-15')
    for (const bad of ['2027-02-30', '2027-13-01', '15.01.2027', '2027-01-15T00:00:00Z', '2014-06-01']) {
      expect(() => loadConfig({ DEVNET_DATE: bad }), bad).toThrow(/DEVNET_DATE/)
    }
  })

  test('default: devnet profile on port 8402 with a devnet payTo', () => {
    const config = loadConfig({})
    expect(config.profile).toBe('devnet')
    expect(config.port).toBe(8402)
    expect(config.publicUrl).toBe('http://127.0.0.1:8402')
    expect(config.payTo).toMatch(/^0x[a-fA-F0-9]{40}$/)
  })

  test('default: the devnet payee and relayer are anvil mnemonic accounts #9 and #11', () => {
    const config = loadConfig({})
    expect(config.payTo).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720')
    const relayerKey = config.payments.relayerPrivateKey
    expect(relayerKey).toBeDefined()
    expect(privateKeyToAddress(relayerKey as `0x${string}`)).toBe(
      '0x71bE63f3384f5fb98995898A86B02Fb2426c5788',
    )
  })

  test('default: the base profile has no relayer key of its own', () => {
    const config = loadConfig({
      PROFILE: 'base',
      PAY_TO: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      FACILITATOR_URL: 'https://facilitator.example',
    })
    expect(config.payments.relayerPrivateKey).toBeUndefined()
  })

  test('default: each upstream is sent at most its documented limit, on base and against the devnet’s simulators (which enforce it)', () => {
    const base = {
      PROFILE: 'base',
      PAY_TO: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
      FACILITATOR_URL: 'https://f.example',
    }
    expect(loadConfig(base).upstreams.coinbaseMaxRps).toBe(10)
    expect(loadConfig({}).upstreams).toMatchObject({
      coinbaseMaxRps: 10,
      pythMaxPer10s: 10,
      pythTradingViewMaxPer10s: 90,
      zeroExMaxRps: 5,
      explorerMaxRps: 5,
    })
    expect(loadConfig({ ...base, COINBASE_MAX_RPS: '4' }).upstreams.coinbaseMaxRps).toBe(4)
    expect(() => loadConfig({ COINBASE_MAX_RPS: '-1' })).toThrow(/COINBASE_MAX_RPS/)
  })

  test('default: chain reads go out in JSON-RPC batches of at most 20; RPC_BATCH_SIZE=0 turns batching off', () => {
    expect(loadConfig({}).rpcBatchSize).toBe(20)
    expect(loadConfig({ RPC_BATCH_SIZE: '0' }).rpcBatchSize).toBe(0)
    expect(loadConfig({ RPC_BATCH_SIZE: '5' }).rpcBatchSize).toBe(5)
    expect(() => loadConfig({ RPC_BATCH_SIZE: '2.5' })).toThrow(/RPC_BATCH_SIZE/)
    expect(() => loadConfig({ RPC_BATCH_SIZE: '-1' })).toThrow(/RPC_BATCH_SIZE/)
  })

  test('default: outbound reads time out at 8 s (upstreams) and 10 s (RPC); a circuit opens after 5 outages for 15 s', () => {
    expect(loadConfig({}).outbound).toEqual({
      upstreamTimeoutMs: 8_000,
      rpcTimeoutMs: 10_000,
      breakerFailures: 5,
      breakerCoolDownMs: 15_000,
    })
    expect(
      loadConfig({
        UPSTREAM_TIMEOUT_MS: '1000',
        RPC_TIMEOUT_MS: '1500',
        BREAKER_FAILURES: '2',
        BREAKER_COOLDOWN_SECONDS: '2.5',
      }).outbound,
    ).toEqual({ upstreamTimeoutMs: 1_000, rpcTimeoutMs: 1_500, breakerFailures: 2, breakerCoolDownMs: 2_500 })
    expect(() => loadConfig({ RPC_TIMEOUT_MS: '0' })).toThrow(/RPC_TIMEOUT_MS/)
    expect(() => loadConfig({ BREAKER_FAILURES: '0' })).toThrow(/BREAKER_FAILURES/)
  })

  test('error: batch claim rounds must come within two thirds of the withdraw delay (else a withdrawal pays out served vouchers)', () => {
    expect(loadConfig({}).payments.batch.claimIntervalMs).toBe(60_000)
    expect(loadConfig({ BATCH_CLAIM_INTERVAL_SECONDS: '600' }).payments.batch.claimIntervalMs).toBe(600_000)
    expect(() => loadConfig({ BATCH_CLAIM_INTERVAL_SECONDS: '601' })).toThrow(
      /BATCH_CLAIM_INTERVAL_SECONDS: must be at most two thirds/,
    )
    const longer = { BATCH_CLAIM_INTERVAL_SECONDS: '3600', BATCH_WITHDRAW_DELAY_SECONDS: '5400' }
    expect(loadConfig(longer).payments.batch.claimIntervalMs).toBe(3_600_000)
  })

  test('default: the devnet mines a block every 200 ms as Base does; fractions are taken, 0 automines; receipts are polled twice a Base block', () => {
    expect(loadConfig({}).devnet.blockTimeSeconds).toBe(0.2)
    expect(loadConfig({ DEVNET_BLOCK_TIME: '0.5' }).devnet.blockTimeSeconds).toBe(0.5)
    expect(loadConfig({ DEVNET_BLOCK_TIME: '0' }).devnet.blockTimeSeconds).toBe(0)
    expect(() => loadConfig({ DEVNET_BLOCK_TIME: '-1' })).toThrow(/DEVNET_BLOCK_TIME/)
    expect(
      loadConfig({
        PROFILE: 'base',
        PAY_TO: '0x000000000000000000000000000000000000dEaD',
        RELAYER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
      }).payments.pollingIntervalMs,
    ).toBe(100)
  })

  test('args: empty strings count as unset', () => {
    expect(loadConfig({ PORT: '', PROFILE: '' }).port).toBe(8402)
  })

  test('error: one message per bad variable', () => {
    try {
      loadConfig({ PORT: 'eighty', PROFILE: 'mainnet', LOG_LEVEL: 'loud', PAY_TO: '0x12' })
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError)
      const problems = (err as ConfigError).problems
      expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['LOG_LEVEL', 'PAY_TO', 'PORT', 'PROFILE'])
    }
  })

  test('error: the base profile requires PAY_TO', () => {
    expect(() => loadConfig({ PROFILE: 'base' })).toThrow(/PAY_TO: required/)
  })
})
