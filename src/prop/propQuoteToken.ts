import { createHash } from 'node:crypto'
import type { Address } from 'viem'
import type { QuoteSigner } from '../payments/gate/quoteToken.js'
import type { PropRequest } from './planAction.js'

/**
 * A prop desk quote an agent can act on: the UTIL cost of one action, for one member and exactly these
 * params, signed with the instance's QUOTE_SECRET (the surge quotes' signer). The token is
 * `<utilCost>~<expiresAt>.<hmac>`: the cost is carried in the clear, and the HMAC covers it with the member,
 * the action and a digest of its params, so nothing in it can be edited or used for another action.
 */
export interface PropQuoteTokens {
  sign(payer: Address, request: PropRequest, utilCost: bigint, expiresAt: number): string
  /** The quoted UTIL cost when `token` is one of ours for this member and action, else why not. */
  verify(
    token: string | undefined,
    payer: Address,
    request: PropRequest,
    nowSec: number,
  ): { verdict: 'valid'; utilCost: bigint } | { verdict: 'absent' | 'expired' | 'invalid' }
}

const UTIL_COST = /^(0|[1-9][0-9]{0,77})$/

export function createPropQuoteTokens(signer: QuoteSigner): PropQuoteTokens {
  const quoteOf = (payer: Address, request: PropRequest, utilCost: string) => ({
    route: `prop ${request.actionId} ${paramsDigest(request.params)}`,
    amount: utilCost,
    payTo: payer,
  })
  return {
    sign: (payer, request, utilCost, expiresAt) =>
      `${utilCost}~${signer.sign({ ...quoteOf(payer, request, utilCost.toString()), expiresAt })}`,
    verify(token, payer, request, nowSec) {
      if (token === undefined) return { verdict: 'absent' }
      const tilde = token.indexOf('~')
      const cost = token.slice(0, tilde)
      if (tilde <= 0 || !UTIL_COST.test(cost)) return { verdict: 'invalid' }
      const verdict = signer.verify(token.slice(tilde + 1), quoteOf(payer, request, cost), nowSec)
      return verdict === 'valid' ? { verdict, utilCost: BigInt(cost) } : { verdict }
    },
  }
}

/** SHA-256 of the params as canonical JSON (keys sorted at every depth): the same params, the same digest. */
export function paramsDigest(params: unknown): string {
  return createHash('sha256').update(canonicalJson(params)).digest('base64url')
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
