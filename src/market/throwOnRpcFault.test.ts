import { createPublicClient, http, type PublicClient } from 'viem'
import { describe, expect, test } from 'vitest'
import { UpstreamError } from '../errors.js'
import { getStockPrice } from './stocks/getStockPrice.js'
import { getStocks } from './stocks/getStocks.js'

// Nothing listens on port 1: every RPC request fails at the transport.
const deadChain = createPublicClient({
  transport: http('http://127.0.0.1:1', { retryCount: 0 }),
}) as PublicClient

describe('chain reads with a dead RPC', () => {
  test('error: the stock catalog is the chain upstream’s 502, not thirteen unminted tickers served and charged', async () => {
    await expect(getStocks(deadChain, Date.now())).rejects.toBeInstanceOf(UpstreamError)
  })

  test('error: a stock quote is the chain upstream’s 502, not a 409 stock_not_minted', async () => {
    const err = await getStockPrice(
      deadChain,
      { sym: 'AAPLc', side: 'buy', amount: '100' },
      Date.now(),
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect(err).toMatchObject({ status: 502, retryAfterSec: 5 })
  })
})
