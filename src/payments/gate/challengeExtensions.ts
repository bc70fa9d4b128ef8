import {
  BUILDER_CODE,
  BUILDER_CODE_PATTERN,
  declareBuilderCodeExtension,
  MAX_CLIENT_SERVICE_CODES,
  MAX_SERVER_SERVICE_CODES,
} from '@x402/extensions/builder-code'
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier'
import type { Config } from '../../config.js'
import {
  type BazaarExtension,
  bazaarExtension,
  type DescribedRoute,
  headerBazaar,
} from './bazaarExtension.js'

/** The `extensions` block of a route's 402 challenge. */
export type ChallengeExtensions = Record<string, unknown>

/**
 * Built once per route when the gate is created, never per request (the 402 path stays as fast as
 * without them): `bazaar` (discovery: how to call the route and what it answers), `payment-identifier`
 * (optional idempotency key: a retry with the same id and payment gets the stored answer, see
 * paymentRetries.ts) and, when BUILDER_CODES is set, `builder-code` (ERC-8021 attribution of the
 * settlement: our app code `a`, the other configured codes as service codes `s`). Clients echo them into
 * their payment payload.
 */
export function challengeExtensions(route: DescribedRoute, config: Config): ChallengeExtensions {
  const [appCode, ...serviceCodes] = config.builderCodes
  return {
    bazaar: bazaarExtension(route),
    [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
    ...(appCode === undefined
      ? {}
      : {
          [BUILDER_CODE]: declareBuilderCodeExtension(
            appCode,
            serviceCodes.length > 0 ? serviceCodes : undefined,
          ),
        }),
  }
}

/** The extensions as the PAYMENT-REQUIRED header carries them: `bazaar` without its output (see headerBazaar). */
export function headerExtensions(extensions: ChallengeExtensions): ChallengeExtensions {
  return { ...extensions, bazaar: headerBazaar(extensions.bazaar as BazaarExtension) }
}

/**
 * The extensions forwarded to the facilitator with a payment. Not the client's echo as sent: `bazaar`
 * is ours (a remote facilitator with discovery catalogs the route from it, so a client cannot plant a
 * listing), and the builder-code app code `a` is ours whatever the client wrote (without BUILDER_CODES,
 * none: a client cannot attribute our endpoint to itself). The client's own service codes `s` (those
 * of its SDK or agent framework, a legitimate part of ERC-8021 attribution) are kept when well-formed,
 * behind our own.
 */
export function settlementExtensions(
  declared: ChallengeExtensions,
  clientExtensions: Record<string, unknown> | undefined,
  builderCodes: readonly string[],
): ChallengeExtensions {
  const [appCode, ...ourServiceCodes] = builderCodes
  const echoed = (clientExtensions?.[BUILDER_CODE] as { info?: { s?: unknown } } | undefined)?.info?.s
  const clientCodes = (typeof echoed === 'string' ? [echoed] : Array.isArray(echoed) ? echoed : []).filter(
    (code): code is string => typeof code === 'string' && BUILDER_CODE_PATTERN.test(code),
  )
  // Each side within its own quota (the package's client extension allows a client 5): a client cannot
  // make the relayer pay for more calldata than that.
  const serviceCodes = [
    ...new Set([
      ...ourServiceCodes.slice(0, MAX_SERVER_SERVICE_CODES),
      ...clientCodes.slice(0, MAX_CLIENT_SERVICE_CODES),
    ]),
  ]
  const info = {
    ...(appCode === undefined ? {} : { a: appCode }),
    ...(serviceCodes.length > 0 ? { s: serviceCodes } : {}),
  }
  return {
    bazaar: declared.bazaar,
    ...(Object.keys(info).length > 0 ? { [BUILDER_CODE]: { info } } : {}),
  }
}
