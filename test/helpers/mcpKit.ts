import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll } from 'vitest'
import type { Instance } from './serviceWorld.js'

/**
 * The official MCP SDK client connected to `svc`'s `/mcp`, in a beforeAll (after the instance's) and closed
 * after the file's tests; the file keeps the getter in a module-level const.
 */
export function useMcpClient(svc: Pick<Instance, 'url'>, name: string): () => Client {
  let client: Client | undefined
  beforeAll(async () => {
    client = new Client({ name, version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)))
  }, 60_000)
  afterAll(async () => {
    await client?.close()
  })
  return () => {
    if (client === undefined) throw new Error('the MCP client is used before its beforeAll connected it')
    return client
  }
}
