import { type Address, getAddress, isAddress } from 'viem'
import { z } from 'zod'
import { UpstreamError } from '../../errors.js'
import { type FetchJson, UpstreamNotFound } from './fetchJson.js'
import { type SendLimit, throughLimit, UNLIMITED } from './windowLimit.js'

const NAME = 'block explorer'

const hash = z.string().refine((s) => isAddress(s, { strict: false }), 'not an address')
/**
 * One row of Blockscout's `TokenBalance` (the swagger of blockscout/swaggers 11.2.7, vendored in
 * test/fixtures/upstreams/blockscout): `token` and `token.type` are nullable (a row whose token the
 * indexer has not fetched yet), `value` and `decimals` are IntegerStrings (`^-?[1-9]?[0-9]*$`). Rows are
 * read one by one: a row we cannot use is left out, never the whole listing.
 */
const rowSchema = z.object({
  token: z.looseObject({
    // `address_hash` since Blockscout 8.0.0 (#12055); `address` before it.
    address_hash: hash.optional(),
    address: hash.optional(),
    type: z.literal('ERC-20'),
    name: z.string().nullable().optional(),
    symbol: z.string().nullable().optional(),
    decimals: z.string().regex(/^\d+$/).nullable().optional(),
  }),
  value: z.string().regex(/^\d+$/),
})
const tokenBalancesSchema = z.array(z.unknown())

/** One ERC-20 row of the explorer's token balances, as the explorer reports it (a third party's view). */
export interface ExplorerBalance {
  token: Address
  name: string | null
  symbol: string | null
  decimals: number | null
  /** Atomic balance as the explorer indexed it (may lag the chain). */
  value: bigint
}

export interface Explorer {
  /** The ERC-20 balances the explorer lists for `owner` (NFTs left out); [] for an address it has never seen. */
  tokenBalances(owner: Address): Promise<ExplorerBalance[]>
}

export interface ExplorerOptions {
  /**
   * Sent as `Authorization: Bearer <key>` (Blockscout's PRO API, which requires one) and `x-api-key` (what
   * an instance's own API reads): the key never goes into a URL, which logs could carry.
   */
  apiKey?: string
  /** The explorer's rate limit (Blockscout PRO's free tier: 5 requests per second). */
  limit?: SendLimit
}

/**
 * A Blockscout REST v2 explorer: `GET /api/v2/addresses/{hash}/token-balances` (a bare array of {token,
 * token_id, token_instance, value}, numbers as strings, every balance in one answer: no pages). Not cached:
 * balances are live, and the portfolio read confirms every row on the chain anyway. Rows that are not a
 * readable ERC-20 balance (NFTs, a token not indexed yet) are dropped. Blockscout answers an address it has
 * never seen 200 `[]`, so a 404 is a moved route or a wrong EXPLORER_URL: a 502, never "no holdings".
 */
export function createExplorer(
  baseUrl: string,
  fetchJson: FetchJson,
  options: ExplorerOptions = {},
): Explorer {
  const headers =
    options.apiKey === undefined
      ? undefined
      : { authorization: `Bearer ${options.apiKey}`, 'x-api-key': options.apiKey }
  return {
    async tokenBalances(owner) {
      let body: unknown
      try {
        // Blockscout sends no Retry-After with its 429: pause one window.
        body = await throughLimit(options.limit ?? UNLIMITED, 1000, () =>
          fetchJson(NAME, `${baseUrl}/api/v2/addresses/${owner}/token-balances`, headers, [401]),
        )
      } catch (err) {
        if (err instanceof UpstreamNotFound)
          throw new UpstreamError(NAME, 'token-balances route not found', { cause: err })
        throw err
      }
      const parsed = tokenBalancesSchema.safeParse(body)
      if (!parsed.success) throw new UpstreamError(NAME, 'unexpected shape at token-balances')
      return parsed.data.flatMap((entry) => {
        const r = rowSchema.safeParse(entry)
        if (!r.success) return []
        const row = r.data
        const raw = row.token.address_hash ?? row.token.address
        if (raw === undefined) return []
        return [
          {
            token: getAddress(raw),
            name: row.token.name ?? null,
            symbol: row.token.symbol ?? null,
            decimals:
              row.token.decimals === null || row.token.decimals === undefined
                ? null
                : Number(row.token.decimals),
            value: BigInt(row.value),
          },
        ]
      })
    },
  }
}
