import type { Challenge } from './buildChallenge.js'

export interface EncodedChallenge {
  /** PAYMENT-REQUIRED: base64 of the UTF-8 JSON of the x402 PaymentRequired (no `promote`, `utilCredit`). */
  header: string
  /** The 402 body: the same object (with the full `bazaar`) plus `promote`, `utilCredit` and, on a refusal, `refusal`. */
  body: string
}

/** A route's extensions serialized once at start: the header's compact copy and the body's full one. */
export interface ExtensionsJson {
  header: string
  body: string
}

/**
 * Serializes a challenge for the wire, with the route's extensions already serialized once at start
 * (`extensionsJson`, several kB of discovery schemas) spliced in rather than re-serialized per request.
 * The header is what `@x402/core`'s `encodePaymentRequiredHeader` writes (base64 of the JSON's UTF-8
 * bytes), through Buffer: the package's browser-safe encoder builds a one-character string per byte,
 * which at this size costs more than the rest of the 402 path.
 */
export function encodeChallenge(
  challenge: Challenge,
  extensionsJson: ExtensionsJson,
  error?: { code: string; body: unknown; wire?: string | undefined },
): EncodedChallenge {
  const { promote, utilCredit, extensions: _serializedApart, ...required } = challenge
  const header = withExtensions(
    // `wire`: the x402 reason a scheme's client acts on (batch-settlement resumes a channel on its own
    // cumulative-mismatch reason), where it has one; our code otherwise.
    JSON.stringify(error === undefined ? required : { ...required, error: error.wire ?? error.code }),
    extensionsJson.header,
  )
  // The body is a valid x402 v2 PaymentRequired too (`error` a string: clients such as the Python SDK
  // validate it); our code, message and details travel beside it, under `refusal`.
  const body = withExtensions(
    JSON.stringify({
      ...required,
      ...(error === undefined ? {} : { error: error.code, refusal: error.body }),
      promote,
      utilCredit,
    }),
    extensionsJson.body,
  )
  return { header: Buffer.from(header, 'utf8').toString('base64'), body }
}

/** `{…}` + `"extensions": …` as its last member. */
function withExtensions(objectJson: string, extensionsJson: string): string {
  return `${objectJson.slice(0, -1)},"extensions":${extensionsJson}}`
}
