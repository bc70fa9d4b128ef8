import { createHash } from 'node:crypto'
import type { Context } from 'hono'
import { MalformedBodyError } from '../errors.js'

/**
 * SHA-256 (hex) of the request body, '' without one. The payment gate runs before the route's body limit,
 * so the body is read here within the same limit: a declared length over it is refused unread, a streamed
 * body is counted as it arrives. What was read stays readable for the handler (Hono's body cache, or the
 * request rebuilt from the bytes, as the limit middleware itself does).
 */
export async function bodyDigest(c: Context, limitBytes: number): Promise<string> {
  const raw = c.req.raw
  if (raw.body === null) return ''
  const tooLarge = () =>
    new MalformedBodyError(`The body is larger than ${limitBytes} bytes.`, 'body_too_large')
  const length = raw.headers.get('content-length')
  let bytes: Uint8Array
  if (length !== null && !raw.headers.has('transfer-encoding')) {
    if (Number.parseInt(length, 10) > limitBytes) throw tooLarge()
    bytes = new Uint8Array(await c.req.arrayBuffer())
  } else {
    const chunks: Uint8Array[] = []
    let size = 0
    const reader = raw.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.length
      if (size > limitBytes) throw tooLarge()
      chunks.push(value)
    }
    bytes = Buffer.concat(chunks)
    c.req.raw = new Request(raw, { body: bytes })
  }
  return bytes.length === 0 ? '' : createHash('sha256').update(bytes).digest('hex')
}
