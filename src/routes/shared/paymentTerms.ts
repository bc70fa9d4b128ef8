import { NETWORK, USDC, USDC_EIP712 } from '../../chain/network.js'
import type { Config } from '../../config.js'

/** The payment terms every document states the same way. */
export function paymentTerms(config: Config) {
  return {
    protocol: 'x402',
    x402Version: 2,
    scheme: 'exact',
    network: NETWORK,
    asset: USDC,
    assetSymbol: 'USDC',
    assetDecimals: 6,
    eip712: USDC_EIP712,
    payTo: config.payTo,
    headers: {
      challenge: 'PAYMENT-REQUIRED',
      payment: ['PAYMENT-SIGNATURE', 'X-PAYMENT'],
      receipt: ['PAYMENT-RESPONSE', 'X-PAYMENT-RESPONSE'],
      creditTopUp: 'X-UTIL-TOPUP',
      creditOptOut: 'X-UTIL-CREDIT',
    },
  } as const
}

/** Absolute URLs of the discovery documents. */
export function documentUrls(config: Config) {
  const base = config.publicUrl
  return {
    catalog: `${base}/v1`,
    openapi: `${base}/v1/openapi.json`,
    tools: `${base}/v1/tools.json`,
    auth: `${base}/auth.md`,
    llms: `${base}/llms-full.txt`,
    x402: `${base}/.well-known/x402`,
    mcpServerCard: `${base}/.well-known/mcp/server-card.json`,
    acp: `${base}/.well-known/acp.json`,
    agentSkills: `${base}/.well-known/agent-skills/index.json`,
    apiCatalog: `${base}/.well-known/api-catalog`,
    oauthProtectedResource: `${base}/.well-known/oauth-protected-resource`,
    aiCatalog: `${base}/.well-known/ai-catalog.json`,
  }
}
