import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { x402Facilitator } from '@x402/core/facilitator'
import type { FacilitatorClient } from '@x402/core/server'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { ExactEvmScheme as ExactFacilitatorScheme } from '@x402/evm/exact/facilitator'
import { ExactEvmScheme as ExactServerScheme } from '@x402/evm/exact/server'
import { paymentMiddleware, x402ResourceServer } from '@x402/hono'
import { Hono } from 'hono'
import { createWalletClient, defineChain, type Hex, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/**
 * The stack an agent developer would assemble from the official packages, as the bench's baseline
 * (issue 24): Hono + `@x402/hono`'s paymentMiddleware + an in-process `@x402/core` facilitator with
 * `@x402/evm`'s exact scheme, settling from its own key on the same devnet. Its handler answers a
 * fixed JSON body (ours runs a cached read), which, if anything, favours the baseline.
 */
export interface Stack {
  url: string
  close(): void
}

const devnet = (rpcUrl: string) =>
  defineChain({
    id: 8453,
    name: 'Base',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })

const PRICES_BODY = { prices: [{ symbol: 'BTC', usd: 97_000.12, source: 'coinbase', asOf: 0 }] }

export async function startReferenceStack(options: {
  rpcUrl: string
  relayerKey: Hex
  payTo: `0x${string}`
}): Promise<Stack> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(options.relayerKey),
    chain: devnet(options.rpcUrl),
    transport: http(options.rpcUrl),
    pollingInterval: 25,
  }).extend(publicActions)
  // As x402's README wires it: the wallet client is the signer. viem's verifyTypedData type is wider than
  // the signer's (it also takes a block hash), hence the one narrowing.
  const signer = toFacilitatorEvmSigner({
    ...wallet,
    address: wallet.account.address,
    verifyTypedData: (args) => wallet.verifyTypedData(args as Parameters<typeof wallet.verifyTypedData>[0]),
  })
  const facilitator = new x402Facilitator().register('eip155:8453', new ExactFacilitatorScheme(signer))
  const client: FacilitatorClient = {
    verify: (p, r) => facilitator.verify(p, r),
    settle: (p, r) => facilitator.settle(p, r),
    getSupported: async () =>
      facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient['getSupported']>>,
  }
  const server = new x402ResourceServer(client).register('eip155:8453', new ExactServerScheme())
  const app = new Hono()
  app.use(
    paymentMiddleware(
      {
        'GET /v1/prices': {
          accepts: { scheme: 'exact', price: '$0.001', network: 'eip155:8453', payTo: options.payTo },
          description: 'Spot prices',
        },
      },
      server,
    ),
  )
  app.get('/v1/prices', (c) => c.json(PRICES_BODY))
  return listen(app)
}

/** A bare Hono handler answering the same body: the ceiling any 402 path is compared with. */
export async function startBareHono(): Promise<Stack> {
  const app = new Hono()
  app.get('/v1/prices', (c) => c.json(PRICES_BODY))
  return listen(app)
}

async function listen(app: Hono): Promise<Stack> {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((r) => server.once('listening', r))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() }
}
