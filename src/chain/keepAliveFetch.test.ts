import type { AddressInfo } from 'node:net'
import { createServer, type Socket } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { keepAliveFetch } from './keepAliveFetch.js'

// A raw TCP server that plays an RPC node dropping connections in the ways that matter: a keep-alive
// socket reset when a request arrives on it (before any answer), and a reset in the middle of an answer.

const answer = (body: string) =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`

let close: (() => void) | undefined
afterEach(() => close?.())

/** `onRequest(n, socket)` for the n-th request (1-based) over all connections; returns the server's URL. */
async function node(
  onRequest: (n: number, socket: Socket, perSocket: number) => void,
): Promise<{ url: string; seen: () => number }> {
  let n = 0
  const server = createServer((socket) => {
    let perSocket = 0
    socket.on('data', (chunk) => {
      // One request per chunk here: the bodies are small.
      if (!chunk.toString().startsWith('POST')) return
      n++
      perSocket++
      onRequest(n, socket, perSocket)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  close = () => server.close()
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen: () => n }
}

const post = (url: string, method: string) =>
  keepAliveFetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
  })

test('behavior: a read on a kept-alive socket the node resets before answering is sent once more, on a fresh socket', async () => {
  const rpc = await node((_n, socket, perSocket) => {
    // The first request of each connection is answered; the second finds the socket closed under it.
    if (perSocket === 1) socket.write(answer('{"jsonrpc":"2.0","id":1,"result":"0x1"}'))
    else socket.resetAndDestroy()
  })
  expect(await (await post(rpc.url, 'eth_blockNumber')).json()).toEqual({
    jsonrpc: '2.0',
    id: 1,
    result: '0x1',
  })
  const again = await post(rpc.url, 'eth_blockNumber')
  expect(again.status).toBe(200)
  expect(rpc.seen()).toBe(3)
})

test('attack: a raw transaction on a socket reset before its answer is not sent again (the node may hold it)', async () => {
  const rpc = await node((_n, socket, perSocket) => {
    if (perSocket === 1) socket.write(answer('{"jsonrpc":"2.0","id":1,"result":"0x1"}'))
    else socket.resetAndDestroy()
  })
  await (await post(rpc.url, 'eth_blockNumber')).arrayBuffer()
  await expect(post(rpc.url, 'eth_sendRawTransactionSync')).rejects.toThrow()
  expect(rpc.seen()).toBe(2)
})

test('attack: a reset in the middle of an answer on a kept-alive socket fails that request and sends nothing again', async () => {
  const rpc = await node((_n, socket, perSocket) => {
    if (perSocket === 1) {
      socket.write(answer('{"jsonrpc":"2.0","id":1,"result":"0x1"}'))
      return
    }
    // Half an answer, then the connection is reset.
    socket.write(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc":',
    )
    setTimeout(() => socket.resetAndDestroy(), 20)
  })
  await (await post(rpc.url, 'eth_blockNumber')).arrayBuffer()
  await expect(post(rpc.url, 'eth_blockNumber')).rejects.toThrow()
  await new Promise((r) => setTimeout(r, 100))
  expect(rpc.seen()).toBe(2)
})
