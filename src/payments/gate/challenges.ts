import type { PaymentRequirements } from '@x402/core/types'
import { isAddress } from 'viem'
import type { Config } from '../../config.js'
import type { PaymentError } from '../paymentError.js'
import type { DescribedRoute } from './bazaarExtension.js'
import { buildChallenge, MAX_TIMEOUT_SECONDS } from './buildChallenge.js'
import { type ChallengeExtensions, headerExtensions } from './challengeExtensions.js'
import { type EncodedChallenge, encodeChallenge } from './encodeChallenge.js'
import type { GateRequest } from './gateOutcome.js'
import type { QuoteSigner } from './quoteToken.js'

/** The route a gate stands in front of: what its challenge states (a `Route` of src/routes/route.ts is one). */
export interface GatedRoute extends DescribedRoute {
  priceUsd: number | null
  summary: string
}

/** What an unpaid request's challenge depends on. */
export type ProbeRequest = Pick<GateRequest, 'url' | 'ref'>

/**
 * One route's challenges, encoded: for a request, an amount, the second (its quote expires on it) and the
 * batch entry; naming `error` (with x402's `wire` reason) for a refusal.
 */
export type Challenges = (
  request: ProbeRequest,
  amount: bigint,
  nowSec: number,
  batch: PaymentRequirements | undefined,
  error?: PaymentError,
  wire?: string,
) => EncodedChallenge

export function createChallenges(
  route: GatedRoute,
  config: Config,
  quotes: QuoteSigner,
  extensions: ChallengeExtensions,
): Challenges {
  const scope = `${route.method} ${route.path}`
  const extensionsJson = {
    header: JSON.stringify(headerExtensions(extensions)),
    body: JSON.stringify(extensions),
  }

  // Probes repeat: an indexer or a retrying client sends the same unpaid request again and again, and
  // within one second, at one price, the challenge is byte for byte the same (the quote expires on the
  // second). The last one encoded is reused; any other request encodes its own.
  let lastProbe: { key: string; encoded: EncodedChallenge } | undefined
  return (request, amount, nowSec, batch, error, wire) => {
    const key = `${amount}|${nowSec}|${batch === undefined ? '' : 'b'}|${request.url}`
    const reused = error === undefined && lastProbe?.key === key ? lastProbe.encoded : undefined
    if (reused !== undefined) return reused
    const url = new URL(request.url)
    const ref = request.ref
    const encoded = encodeChallenge(
      buildChallenge({
        resourceUrl: `${config.publicUrl}${url.pathname}${url.search}`,
        description: route.summary,
        amount,
        payTo: config.payTo,
        publicUrl: config.publicUrl,
        creditRecipient: config.payments.creditRecipient,
        ref: ref !== undefined && isAddress(ref, { strict: false }) ? ref : undefined,
        quote: quotes.sign({
          route: scope,
          amount: amount.toString(),
          payTo: config.payTo,
          expiresAt: nowSec + MAX_TIMEOUT_SECONDS,
        }),
        batch,
      }),
      extensionsJson,
      error === undefined ? undefined : { code: error.code, body: error.toBody().error, wire },
    )
    if (error === undefined) lastProbe = { key, encoded }
    return encoded
  }
}
