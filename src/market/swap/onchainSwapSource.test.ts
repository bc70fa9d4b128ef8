import { describe, expect, test } from 'vitest'
import { WETH_DEPOSIT_TX_GAS } from '../../analytics/swapTxGas.js'
import { BASE_ADDRESSES, NATIVE_SENTINEL } from '../../chain/addresses.js'
import { createChainClient } from '../../chain/createChainClient.js'
import { UpstreamError } from '../../errors.js'
import { onchainSwapSource } from './onchainSwapSource.js'

// Pool reads are checked against the devnet in test/market/swapPrice.test.ts; here, what needs no chain.
const deadChain = createChainClient('http://127.0.0.1:9', 20)
const request = {
  sellToken: BASE_ADDRESSES.USDC,
  buyToken: BASE_ADDRESSES.WETH,
  sellAmount: 1_000_000n,
  taker: BASE_ADDRESSES.USDC,
  slippageBps: 100,
}

describe('onchainSwapSource', () => {
  test('error: an RPC that does not answer is a typed 502 with Retry-After, never an untyped 500', async () => {
    const err = await onchainSwapSource(deadChain)
      .quote(request)
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect(err).toMatchObject({
      status: 502,
      code: 'upstream_unavailable',
      details: { upstream: 'Base RPC' },
    })
    expect((err as UpstreamError).retryAfterSec).toBeGreaterThan(0)
  })

  test('behavior: ETH ⇄ WETH is a 1:1 wrap whose price needs no chain: a dead RPC still answers it, with WETH9’s deposit gas and the fee unknown', async () => {
    const wrap = await onchainSwapSource(deadChain).quote({
      ...request,
      sellToken: NATIVE_SENTINEL,
      sellAmount: 10_000n,
      slippageBps: 25,
    })
    expect(wrap).toMatchObject({
      buyAmount: 10_000n,
      minBuyAmount: 9975n,
      blockNumber: null,
      gasEstimate: WETH_DEPOSIT_TX_GAS,
      gasPriceWei: null,
      networkFeeWei: null,
      poolFeeBps: 0,
      route: [{ source: 'WETH', from: NATIVE_SENTINEL, to: BASE_ADDRESSES.WETH, proportionBps: 10_000 }],
    })
  })
})
