import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import type { AppDeps } from '../deps.js'
import { buildTools } from '../discovery/tools.js'
import type { Logger } from '../logger.js'
import type { PaymentGate } from '../payments/gate/paymentGate.js'
import type { Route } from '../routes/route.js'
import { SERVICE_NAME } from '../routes/shared/catalog.js'
import { callTool } from './callTool.js'
import { jsonResult } from './mcpToolResult.js'

export interface McpRequest {
  request: Request
  /** The POST body, parsed once by the HTTP layer (undefined: the transport reads it). */
  body?: unknown
  /** The caller's address (its unpaid ceiling). */
  client: string
  requestId: string
  logger: Logger
}

/**
 * The MCP server at `/mcp` (Streamable HTTP, stateless: each POST is answered on its own, as JSON), with one
 * tool per endpoint of the route table: the names, descriptions, input schemas and annotations of
 * `/v1/tools.json`, so MCP and HTTP cannot drift. Tools declare no output schema: a priced tool's unpaid
 * result is a PaymentRequired, which a declared output schema would make a strict client reject.
 */
export function createMcpHandler(
  routes: readonly Route[],
  deps: AppDeps,
  gates: ReadonlyMap<Route, PaymentGate>,
): (call: McpRequest) => Promise<Response> {
  const tools = buildTools(routes, deps.config).tools.map(
    ({ name, description, inputSchema, annotations }) => ({
      name,
      title: annotations.title,
      description,
      inputSchema,
      annotations,
    }),
  )
  const byName = new Map(routes.map((route) => [route.id, route]))
  return async ({ request, body, client, requestId, logger }) => {
    const server = new Server({ name: SERVICE_NAME, version: '1.0.0' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))
    server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
      const route = byName.get(params.name)
      if (route === undefined) {
        return jsonResult(
          { error: { code: 'not_found', message: `No tool ${params.name}; tools/list names every tool.` } },
          { isError: true },
        )
      }
      return callTool({
        route,
        gate: gates.get(route),
        deps,
        routes,
        args: params.arguments ?? {},
        meta: params._meta as Record<string, unknown> | undefined,
        client,
        requestId,
        logger,
      })
    })
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request, body === undefined ? undefined : { parsedBody: body })
    } finally {
      void server.close()
    }
  }
}
