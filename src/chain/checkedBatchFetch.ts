import { keepAliveFetch } from './keepAliveFetch.js'

/**
 * The fetch the chain client's transport uses: a JSON-RPC batch's answer must hold exactly one answer
 * per request id, or it is refused whole. viem pairs a batch's answers with its requests by position
 * after sorting by id, so an answer missing, or one error object for the whole batch (how RPCs
 * rate-limit or refuse a batch), would hand a request another request's result, or an error that does
 * not read as the RPC's fault: a multicall with allowFailure then looks like contracts that said no, and
 * would be served and charged as such. Thrown here, viem wraps it as an HttpRequestError: a transport
 * fault, retried once, else the chain upstream's 502, uncharged. Single requests pass through untouched.
 */
export async function checkedBatchFetch(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const response = await keepAliveFetch(input, init)
  const sent = typeof init?.body === 'string' ? parseJson(init.body) : undefined
  if (!Array.isArray(sent)) return response
  const text = await response.text()
  const answer = parseJson(text)
  const wanted = sent.map(idOf)
  const got = Array.isArray(answer) ? answer.map(idOf) : []
  const oneEach =
    Array.isArray(answer) &&
    got.length === wanted.length &&
    new Set(got).size === got.length &&
    wanted.every((id) => got.includes(id))
  if (!oneEach)
    throw new BatchAnswerError(
      `the RPC answered a batch of ${wanted.length} requests with ${Array.isArray(answer) ? `${got.length} answers for other ids` : 'no list of answers'} (HTTP ${response.status})`,
    )
  return new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
}

export class BatchAnswerError extends Error {
  override readonly name = 'BatchAnswerError'
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function idOf(entry: unknown): unknown {
  return typeof entry === 'object' && entry !== null && 'id' in entry ? entry.id : undefined
}
