import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { fastPathServer } from '../../src/http/fastPathServer.js'
import { KEEP_ALIVE_TIMEOUT_MS } from '../../src/http/keepAlive.js'
import type { HttpService } from '../../src/httpService.js'

/**
 * A test service's server, bound before its app exists, on a port the system picks: a port chosen free and
 * bound later can be taken in between by a neighbour (another test run on the machine). `attach` gives it
 * the app before any request. As the service process does (src/main.ts): the unpaid fast path in front of
 * the app, and idle keep-alive sockets that outlive the client's, so a loaded machine never has the server
 * close a socket the client is reusing (ECONNRESET).
 */
export async function listenFirst() {
  let service: HttpService | undefined
  const server = serve({
    fetch: (req, ...rest) => (service as HttpService).app.fetch(req, ...rest),
    createServer: fastPathServer((req, res) => service?.fastPath(req, res) ?? Promise.resolve(false)),
    port: 0,
    hostname: '127.0.0.1',
  })
  ;(server as { keepAliveTimeout: number }).keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  await new Promise((r) => server.once('listening', r))
  const { port } = server.address() as AddressInfo
  return {
    server,
    port,
    attach(app: HttpService) {
      service = app
    },
  }
}
