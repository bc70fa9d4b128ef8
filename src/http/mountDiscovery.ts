import type { Hono } from 'hono'
import type { Config } from '../config.js'
import { authMarkdown } from '../discovery/authMd.js'
import { llmsFull } from '../discovery/llmsFull.js'
import { buildOpenApi } from '../discovery/openapi.js'
import { buildTools } from '../discovery/tools.js'
import {
  acpDocument,
  agentSkillsIndex,
  aiCatalog,
  apiCatalog,
  mcpServerCard,
  oauthProtectedResource,
  SKILLS,
  skillMarkdown,
  x402Document,
} from '../discovery/wellKnown.js'
import { NotFoundError } from '../errors.js'
import type { Route } from '../routes/route.js'
import type { AppEnv } from './env.js'

/** Every free discovery path besides GET /v1 (which is in the route table). */
export const DISCOVERY_PATHS = [
  '/v1/openapi.json',
  // Where x402 discovery tools look first: the origin's root.
  '/openapi.json',
  '/v1/tools.json',
  '/.well-known/x402',
  '/.well-known/mcp/server-card.json',
  '/.well-known/acp.json',
  '/.well-known/agent-skills/index.json',
  '/.well-known/agent-skills/{name}/SKILL.md',
  '/.well-known/api-catalog',
  '/.well-known/oauth-protected-resource',
  '/.well-known/ai-catalog.json',
  '/auth.md',
  '/llms-full.txt',
] as const

/**
 * Serves the discovery documents. They depend only on the table and the config, so each is rendered
 * once here, not per request.
 */
export function mountDiscovery(app: Hono<AppEnv>, routes: readonly Route[], config: Config): void {
  const json = (body: unknown, type = 'application/json') => {
    const serialized = JSON.stringify(body)
    const headers = { 'content-type': type, 'cache-control': 'public, max-age=60' }
    return () => new Response(serialized, { headers })
  }
  const text = (body: string, type: string) => () =>
    new Response(body, {
      headers: { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'public, max-age=60' },
    })

  const openapi = json(buildOpenApi(routes, config))
  app.get('/v1/openapi.json', openapi)
  app.get('/openapi.json', openapi)
  app.get('/v1/tools.json', json(buildTools(routes, config)))
  app.get('/.well-known/x402', json(x402Document(routes, config)))
  app.get('/.well-known/mcp/server-card.json', json(mcpServerCard(routes, config)))
  app.get('/.well-known/acp.json', json(acpDocument(config)))
  app.get('/.well-known/agent-skills/index.json', json(agentSkillsIndex(config)))
  const skills = new Map(SKILLS.map((s) => [s.name, skillMarkdown(s, routes, config)]))
  app.get('/.well-known/agent-skills/:name/SKILL.md', (c) => {
    const body = skills.get(c.req.param('name'))
    if (body === undefined)
      throw new NotFoundError('No such skill. See /.well-known/agent-skills/index.json.')
    return c.body(body, 200, { 'content-type': 'text/markdown; charset=utf-8' })
  })
  app.get('/.well-known/api-catalog', json(apiCatalog(config), 'application/linkset+json'))
  app.get('/.well-known/oauth-protected-resource', json(oauthProtectedResource(config)))
  app.get('/.well-known/ai-catalog.json', json(aiCatalog(config)))
  app.get('/auth.md', text(authMarkdown(config), 'text/markdown'))
  app.get('/llms-full.txt', text(llmsFull(routes, config), 'text/plain'))
}
