import { DEAD_ADDRESS } from '../chain/network.js'
import type { Config } from '../config.js'
import { documentUrls, paymentTerms } from './paymentTerms.js'

/** /auth.md: the payment flow and the credit rail in plain words. */
export function authMarkdown(config: Config): string {
  const t = paymentTerms(config)
  return `# Paying for ${config.publicUrl}

Payment is authentication. There is no account, no signup and no API key: the wallet that pays is the identity.

## Pay per call with x402 (version 2)

1. Send the request with no payment header. A priced path answers **HTTP 402**. The challenge is in the \`PAYMENT-REQUIRED\` header (base64 of UTF-8 JSON) and is also the JSON body. Read \`accepts[0]\`: scheme \`${t.scheme}\`, network \`${t.network}\`, asset ${t.asset} (USDC, 6 decimals), \`amount\` in atomic units, \`payTo\` ${t.payTo}, and \`extra\` = the EIP-712 domain (name "${t.eip712.name}", version "${t.eip712.version}").
2. Sign an EIP-3009 \`transferWithAuthorization\` of USDC from your wallet to \`payTo\` for **exactly** \`amount\`. No approve is needed. Read the amount from the challenge every time; never hard-code prices.
3. Repeat the same request with the signed payload in \`PAYMENT-SIGNATURE\` (\`X-PAYMENT\` is accepted as an alias). On success you get 200 with the payload, and the onchain settlement receipt in \`PAYMENT-RESPONSE\` and \`X-PAYMENT-RESPONSE\`.

A call that fails (bad input or an upstream fault, i.e. every status from 400 up) settles nothing, so it costs nothing. Each signed authorization is served at most once. Builders are not idempotent: a retried build is charged again and returns fresh calldata, so retry the build, never the broadcast.

Official clients do all of this for you, for example \`@x402/fetch\`'s \`wrapFetchWithPayment\`.

## Prepaid credit in UTIL (half price, no surge)

1. Send UTIL to the \`utilCredit.recipient\` named in every 402 challenge, from the wallet that will pay.
2. Send \`X-UTIL-TOPUP: <txHash>\` once on any /v1 call. The transfer must be under 24 hours old; each hash is credited once. Its USD value at that block becomes credit for the sending wallet.
3. Keep signing the ordinary challenge. The signature only proves wallet ownership: credit is debited at half the posted price (rate 0.5), surge does not apply, and the authorization is never submitted.
4. \`X-UTIL-CREDIT: off\` forces the normal USDC settlement. \`GET /v1/util-credit/{wallet}\` (free) shows the balance and terms.

UTIL cannot settle calls directly: it has no EIP-3009.

## Prop desk

The x402 fee does not authorize a prop action. Each action needs an onchain UTIL transfer from the member wallet: agents transfer to the desk recipient and pass \`payTxHash\`; humans burn to ${DEAD_ADDRESS} and pass \`burnTxHash\`.

## Rate limits

Unpaid traffic has a lower ceiling than paid traffic; over it you get 429 with \`Retry-After\`. A paying caller that sees 429 is probably retrying without the payment header.

More: the catalog ${documentUrls(config).catalog}, the OpenAPI description ${documentUrls(config).openapi}.
`
}
