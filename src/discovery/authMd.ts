import { DEAD_ADDRESS } from '../chain/addresses.js'
import type { Config } from '../config.js'
import { CREDIT_TERMS } from '../payments/credit/creditRail.js'
import { PAYMENT_ERRORS } from '../payments/paymentError.js'
import { REFERRAL_TERMS } from '../referrals/referralStanding.js'
import { SURGE_RULE } from '../routes/shared/catalog.js'
import { documentUrls, paymentTerms } from '../routes/shared/paymentTerms.js'

/** /auth.md: the payment flow and the credit rail in plain words. */
export function authMarkdown(config: Config): string {
  const t = paymentTerms(config)
  const appCode = config.builderCodes[0]
  const attribution =
    appCode === undefined ? ' (absent here: this deployment sets no code)' : ` (app code \`${appCode}\`)`
  return `# Paying for ${config.publicUrl}

Payment is authentication. There is no account, no signup and no API key: the wallet that pays is the identity.

## Pay per call with x402 (version 2)

1. Send the request with no payment header. A priced path answers **HTTP 402**. The challenge is in the \
\`PAYMENT-REQUIRED\` header (base64 of UTF-8 JSON) and is also the JSON body. Read \`accepts[0]\`: scheme \
\`${t.scheme}\`, network \`${t.network}\`, asset ${t.asset} (USDC, 6 decimals), \`amount\` in atomic units, \
\`payTo\` ${t.payTo}, and \`extra\` = the EIP-712 domain (name "${t.eip712.name}", version \
"${t.eip712.version}").
2. Sign an EIP-3009 \`transferWithAuthorization\` of USDC from your wallet to \`payTo\` for **exactly** \
\`amount\`. No approve is needed. Read the amount from the challenge every time; never hard-code prices.
3. Repeat the same request with the signed payload in \`PAYMENT-SIGNATURE\` (\`X-PAYMENT\` is accepted as an \
alias). On success you get 200 with the payload, and the onchain settlement receipt in \`PAYMENT-RESPONSE\` \
and \`X-PAYMENT-RESPONSE\`.

A call that fails (bad input or an upstream fault, i.e. every status from 400 up) settles nothing, so it \
costs nothing. Each signed authorization is served at most once. Builders are not idempotent: a retried \
build is charged again and returns fresh calldata, so retry the build, never the broadcast.

Official clients do all of this for you, for example \`@x402/fetch\`'s \`wrapFetchWithPayment\`.

## Extensions in every challenge

The challenge's \`extensions\` object (x402 v2, built with the official \`@x402/extensions\`) carries:

- \`bazaar\`: discovery. How to call this path (method, an example input with its JSON Schema: query \
parameters, path parameters or the JSON body) and what it answers (an example output with its schema). \
Indexers and facilitators with discovery list the path from it; \`/.well-known/x402\` lists the same per \
resource.
- \`builder-code\`${attribution}: ERC-8021 attribution. The settlement transaction's calldata ends with an \
ERC-8021 schema-2 suffix naming this service (\`a\`, and \`w\` when the built-in facilitator pays the gas) \
and any service codes your client adds (\`s\`, e.g. \`BuilderCodeClientExtension\` from \
\`@x402/extensions/builder-code\`). The USDC contract ignores the trailing bytes. The app code is always \
this service's, whatever a payment's echo says.

Official clients echo both into the payment payload. Echoing them is optional: a payment without the echo is \
served the same, and the attribution is this service's either way.

## Paying from other clients

- **Python**: the official \`x402\` SDK's httpx client reads the 402 body (a valid x402 v2 \
\`PaymentRequired\`; on a refusal its \`error\` is the code and our message is under \`refusal\`), signs, and \
retries with \`PAYMENT-SIGNATURE\`: nothing specific to this service.
- **MCP**: this service is an MCP server itself (Streamable HTTP at \`/mcp\`): priced tools answer an \
\`isError\` PaymentRequired, and a retry with the signed payload in \`params._meta["x402/payment"]\` is paid, \
with the receipt in \`_meta["x402/payment-response"]\`. MCP payment bridges that call HTTP APIs find the \
priced resources at \`/.well-known/x402\` and \`/openapi.json\`, and pay the 402 as any x402 client.
- **Command line**: \`npx agentdesk call /v1/prices symbols=ETH\` (key in \`AGENTDESK_PRIVATE_KEY\`).

The paid response waits for the settlement to be included onchain (about one block). If inclusion takes \
longer than the service's bounded wait, you still get your 200 and the receipt says \`"success": false, \
"errorReason": "settlement_pending"\` with the transaction hash: the transaction was broadcast once, is \
never rebroadcast, and the service settles its books from the chain.

## Price and surge

Each path has a posted price (the catalog's \`priceUsd\`); what a call costs right now is \
\`currentPriceUsd\`, and the 402 challenge is authoritative. ${SURGE_RULE} The challenge's \`extra.quote\` \
is a signed quote: echo \`accepts[0]\` unchanged (official clients do) and that amount stays payable for \
\`maxTimeoutSeconds\` even if surge moves in between.

## Refused payments

A payment that cannot be accepted gets **402** with a fresh challenge (header and body) and \`error.code\`:

${Object.entries(PAYMENT_ERRORS)
  .map(([code, message]) => `- \`${code}\`: ${message}`)
  .join('\n')}

Every field of the authorization is range-checked: \`value\`, \`validAfter\` and \`validBefore\` must be \
uint256, and \`validBefore\` at most \`maxTimeoutSeconds\` (plus 30 s of clock skew) ahead. Before the call \
is served, its amount is reserved against your wallet's USDC balance together with your other payments in \
flight: concurrent payments that your balance cannot cover all at once are refused with \
\`payment_insufficient_funds\` and nothing is broadcast for them.

If the payment service certainly did nothing (unreachable, or it refused the request) you get **503** \
\`payment_facilitator_unavailable\`, nothing is charged and the same authorization stays usable. If it may \
have acted but did not answer in time, you are served and the receipt says \`settlement_pending\` (the \
transaction may be empty): the service settles its books from the chain, and you are charged only if your \
authorization's transfer is mined. If a settlement fails in a way that may still land onchain, you get \
**503** \`payment_settlement_unknown\` and the call is not served: do not reuse that authorization; if its \
transfer lands anyway, the service records it as paid and unserved, for a refund. A \`HEAD\` request to a \
priced path gets the challenge and is never charged. If the service's own storage is unreachable you get \
**503** \`store_unavailable\` and nothing is charged. If an upstream a read depends on (a market API, or the \
chain's RPC) fails, you get **502** \`upstream_unavailable\` naming it, and nothing is charged. That 502, \
\`payment_facilitator_unavailable\` and \`store_unavailable\` carry \`Retry-After\` (seconds).

${laterSections(config)}`
}

/** The referral, credit, prop desk and rate-limit sections of /auth.md. */
function laterSections(config: Config): string {
  return `## Referrals

${REFERRAL_TERMS} \`GET /v1/referrals/{wallet}\` (free) shows the standing.

## Prepaid credit in UTIL (half price, no surge)

1. Send UTIL to the \`utilCredit.recipient\` named in every 402 challenge, from the wallet that will pay.
2. Send \`X-UTIL-TOPUP: <txHash>\` once on any paid /v1 call whose \`exact\` payment that wallet signs. The transfer must be under \
24 hours old; each hash is credited once. ${CREDIT_TERMS.valuation}.
3. Keep signing the ordinary challenge. The signature only proves wallet ownership: credit is debited at \
half the posted price (rate 0.5), surge does not apply, and the authorization is never submitted.
4. \`X-UTIL-CREDIT: off\` forces the normal USDC settlement; credit short of the cost pays in USDC as usual. \
\`GET /v1/util-credit/{wallet}\` (free) shows the balance, the terms and the latest top-ups and debits. A credit-paid \
response's PAYMENT-RESPONSE has \`transaction: ""\` and \`extra.utilCredit\` (debited, balance after).

UTIL cannot settle calls directly: it has no EIP-3009.

## Prop desk

The x402 fee does not authorize a prop action. Each action needs an onchain UTIL transfer from the member \
wallet: agents transfer to the desk recipient and pass \`payTxHash\`; humans burn to ${DEAD_ADDRESS} and \
pass \`burnTxHash\`. The transfer must come from the wallet that pays the call, carry at least the quoted UTIL, be \
under 24 hours old, and authorizes one action. Actions: \`trade.open\` and \`trade.close\` on the perp venue, run with \
the desk's capital; \`POST /v1/prop/quote\` says the cost, the match factor, eligibility ($500 of UTIL held, burned \
and sent), the allotment and where to send.

## Rate limits

Unpaid traffic (no payment header, a payment header on a free path, or a payment that does not prove its \
wallet: malformed, forged, or a copy of an authorization already used) is limited to \
${config.rateLimits.unpaid} requests per ${config.rateLimits.windowSeconds} s per client address; paid \
traffic to ${config.rateLimits.paid} per ${config.rateLimits.windowSeconds} s per paying wallet, counted \
only once the payment proves that wallet (so nobody can spend another wallet's ceiling). Over the ceiling \
you get 429 \`rate_limited\` with \`Retry-After\` (seconds), and nothing is charged. A paying caller that \
sees 429 is probably retrying without the payment header.

More: the catalog ${documentUrls(config).catalog}, the OpenAPI description ${documentUrls(config).openapi}.
`
}
