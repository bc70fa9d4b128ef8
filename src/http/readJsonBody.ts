import type { Context } from 'hono'
import { MalformedBodyError } from '../errors.js'

/** Reads a JSON body (size already capped by the body-limit middleware). Absent body → undefined. */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (text.trim() === '') return undefined
  const type = c.req.header('content-type')
  if (type !== undefined && !/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    throw new MalformedBodyError(
      `Send the body as application/json (got ${type.slice(0, 60)}).`,
      'unsupported_media_type',
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new MalformedBodyError('The request body is not valid JSON.')
  }
}
