import type { Config } from '../config.js'
import { bazaarExtension } from '../payments/gate/bazaarExtension.js'
import type { Route } from '../routes/route.js'
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../routes/shared/catalog.js'
import { documentUrls, paymentTerms } from '../routes/shared/paymentTerms.js'
import { buildTools } from './tools.js'

type Doc = Record<string, unknown>

/** /.well-known/x402: the priced resources and how to pay for them. */
export function x402Document(routes: readonly Route[], config: Config): Doc {
  const terms = paymentTerms(config)
  return {
    x402Version: 2,
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    accepts: [
      {
        scheme: terms.scheme,
        network: terms.network,
        asset: terms.asset,
        payTo: terms.payTo,
        extra: terms.eip712,
      },
    ],
    // As x402 discovery tools (x402scan, agentcash) read it: "METHOD url" strings; the details beside them.
    resources: routes
      .filter((r) => r.priceUsd !== null)
      .map((r) => `${r.method} ${config.publicUrl}${r.path}`),
    resourceDetails: routes
      .filter((r) => r.priceUsd !== null)
      .map((r) => ({
        method: r.method,
        url: `${config.publicUrl}${r.path}`,
        priceUsd: r.priceUsd,
        description: r.summary,
        // The same discovery info every challenge of the route carries.
        extensions: { bazaar: bazaarExtension(r) },
      })),
    openapi: documentUrls(config).openapi,
  }
}

/** /.well-known/mcp/server-card.json: what an MCP client would find here. */
export function mcpServerCard(routes: readonly Route[], config: Config): Doc {
  return {
    name: SERVICE_NAME,
    version: '1.0.0',
    description: SERVICE_DESCRIPTION,
    // Streamable HTTP at /mcp (stateless, JSON answers); priced tools take x402's MCP transport.
    remotes: [{ type: 'streamable-http', url: `${config.publicUrl}/mcp` }],
    authentication: { type: 'x402', details: documentUrls(config).auth },
    tools: buildTools(routes, config).tools.map(({ name, description, inputSchema, annotations }) => ({
      name,
      description,
      inputSchema,
      annotations,
    })),
    documentation: documentUrls(config).llms,
  }
}

/** /.well-known/acp.json: the commerce terms, for agentic-commerce crawlers. */
export function acpDocument(config: Config): Doc {
  const urls = documentUrls(config)
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    payment: { methods: [paymentTerms(config)], accounts: false, apiKeys: false },
    custody: 'non-custodial: the service never holds funds or keys and never signs',
    endpoints: { catalog: urls.catalog, openapi: urls.openapi, tools: urls.tools },
  }
}

export interface Skill {
  name: string
  description: string
  tier: Route['tier']
}

export const SKILLS: readonly Skill[] = [
  {
    name: 'market-data',
    tier: 'data',
    description: 'Read prices, candles, crowd, signals, wallets and catalogs',
  },
  {
    name: 'alpha',
    tier: 'alpha',
    description: 'Ranked arbitrage and leverage ideas, chart reads, loan risk',
  },
  {
    name: 'transaction-builders',
    tier: 'builder',
    description: 'Unsigned steps for swaps, lending, perps, LP, stocks',
  },
  { name: 'prop-desk', tier: 'prop', description: 'Quote and execute prop actions gated by UTIL transfers' },
]

/** /.well-known/agent-skills/index.json */
export function agentSkillsIndex(config: Config): Doc {
  return {
    skills: SKILLS.map((s) => ({
      name: s.name,
      description: s.description,
      url: `${config.publicUrl}/.well-known/agent-skills/${s.name}/SKILL.md`,
    })),
  }
}

/** One skill's SKILL.md, listing its endpoints from the table. */
export function skillMarkdown(skill: Skill, routes: readonly Route[], config: Config): string {
  const lines = routes
    .filter((r) => r.tier === skill.tier)
    .map((r) => `- \`${r.method} ${r.path}\` ($${r.priceUsd}): ${r.summary}`)
  return (
    `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n\n# ` +
    `${skill.name}\n\n${skill.description}. Every call is paid per request in USDC via x402 (see ` +
    `${documentUrls(config).auth}).\n\n${lines.join('\n')}\n\nFull schemas: ` +
    `${documentUrls(config).openapi}\n`
  )
}

/** /.well-known/api-catalog: RFC 9727 linkset. */
export function apiCatalog(config: Config): Doc {
  const urls = documentUrls(config)
  return {
    linkset: [
      {
        anchor: urls.catalog,
        'service-desc': [{ href: urls.openapi, type: 'application/vnd.oai.openapi+json' }],
        'service-doc': [
          { href: urls.llms, type: 'text/plain' },
          { href: urls.auth, type: 'text/markdown' },
        ],
        'service-meta': [{ href: urls.catalog, type: 'application/json' }],
        status: [{ href: `${config.publicUrl}/health`, type: 'application/json' }],
      },
    ],
  }
}

/** /.well-known/oauth-protected-resource: RFC 9728, saying that payment, not OAuth, is the credential. */
export function oauthProtectedResource(config: Config): Doc {
  return {
    resource: `${config.publicUrl}/v1`,
    resource_name: SERVICE_NAME,
    authorization_servers: [],
    bearer_methods_supported: [],
    scopes_supported: [],
    resource_documentation: documentUrls(config).auth,
    'x-payment-required': {
      note: 'No OAuth: payment is the credential. Pay each call with x402 v2 (PAYMENT-SIGNATURE or X-PAYMENT header); the paying wallet is the identity.',
      ...paymentTerms(config),
    },
  }
}

/** /.well-known/ai-catalog.json: one entry pointing at every machine-readable description. */
export function aiCatalog(config: Config): Doc {
  const urls = documentUrls(config)
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    apis: [
      {
        name: SERVICE_NAME,
        openapi: urls.openapi,
        tools: urls.tools,
        catalog: urls.catalog,
        llms: urls.llms,
        auth: { type: 'x402', documentation: urls.auth },
      },
    ],
  }
}
