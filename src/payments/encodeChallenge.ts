import type { Challenge } from './buildChallenge.js'

export interface EncodedChallenge {
  /** PAYMENT-REQUIRED: base64 of the UTF-8 JSON of the x402 PaymentRequired (no `promote`, `utilCredit`). */
  header: string
  /** The 402 body: the same object plus the `promote` and `utilCredit` siblings. */
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
  extensionsJson: string,
  error?: { code: string; body: unknown },
): EncodedChallenge {
  const { promote, utilCredit, extensions: _serializedApart, ...required } = challenge
  const header = withExtensions(
    JSON.stringify(error === undefined ? required : { ...required, error: error.code }),
    extensionsJson,
  )
  const body = withExtensions(
    JSON.stringify({
      ...required,
      ...(error === undefined ? {} : { error: error.body }),
      promote,
      utilCredit,
    }),
    extensionsJson,
  )
  return { header: Buffer.from(header, 'utf8').toString('base64'), body }
}

/** `{…}` + `"extensions": …` as its last member. */
function withExtensions(objectJson: string, extensionsJson: string): string {
  return `${objectJson.slice(0, -1)},"extensions":${extensionsJson}}`
}
