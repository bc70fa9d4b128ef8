import { type Address, getAddress, isAddress } from 'viem'
import { z } from 'zod'
import { UpstreamError } from '../../errors.js'
import { type FetchJson, UpstreamNotFound } from './fetchJson.js'

const NAME = 'block explorer'

const hash = z.string().refine((s) => isAddress(s, { strict: false }), 'not an address')
const tokenBalancesSchema = z.array(
  z.object({
    token: z.object({
      // Newer Blockscout releases name the token's address `address_hash`, older ones `address`.
      address_hash: hash.optional(),
      address: hash.optional(),
      type: z.string(),
      name: z.string().nullable().optional(),
      symbol: z.string().nullable().optional(),
      decimals: z.string().regex(/^\d+$/).nullable().optional(),
    }),
    value: z.string().regex(/^\d+$/),
  }),
)

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

/**
 * A Blockscout REST v2 explorer: `GET /api/v2/addresses/{hash}/token-balances` (a bare array of {token,
 * token_id, token_instance, value}, numbers as strings). Not cached: balances are live, and the portfolio
 * read confirms every row on the chain anyway. Rows whose token is not an ERC-20 (ERC-721/1155/404) are
 * dropped; a 404 (an address the explorer has never indexed) is no holdings; any other bad shape is a 502.
 */
export function createExplorer(baseUrl: string, fetchJson: FetchJson): Explorer {
  return {
    async tokenBalances(owner) {
      let body: unknown
      try {
        body = await fetchJson(NAME, `${baseUrl}/api/v2/addresses/${owner}/token-balances`)
      } catch (err) {
        if (err instanceof UpstreamNotFound) return []
        throw err
      }
      const parsed = tokenBalancesSchema.safeParse(body)
      if (!parsed.success) throw new UpstreamError(NAME, 'unexpected shape at token-balances')
      return parsed.data.flatMap((row) => {
        const raw = row.token.address_hash ?? row.token.address
        if (raw === undefined || row.token.type !== 'ERC-20') return []
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
