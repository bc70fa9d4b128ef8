import { getAddress } from 'viem'
import { z } from 'zod'
import { address, atomicAmount, unixSeconds } from '../../chain/fields.js'
import { getPortfolio } from '../../market/getPortfolio.js'
import { sourceStatus } from '../../market/sourceStatus.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { usdOrNull, walletParams } from '../shared/readFields.js'

export const getPortfolioRoute = defineRoute({
  id: 'getPortfolio',
  method: 'GET',
  path: '/v1/portfolio/{address}',
  priceUsd: PRICES.getPortfolio,
  tier: 'data',
  summary: 'Wallet balances (native + every ERC-20), spam-screened, priced',
  description: prose`
    Every ERC-20 plus the native ETH of \`address\`, read live. Which tokens: those the block explorer
    (Blockscout REST v2 \`/api/v2/addresses/{hash}/token-balances\`, ERC-20 rows only) lists, plus every
    token of the service’s token list (the tokens the builders’ address book vets: USDC, WETH, cbBTC, cbETH,
    USDbC, wstETH, the Aave aTokens and variable-debt tokens, the catalog’s vault shares, the tokenized
    stocks, UTIL). Every balance is the chain’s, not the explorer’s: one eth_call of Multicall3 at \`block\`
    reads the block number and timestamp, getEthBalance and, per token, balanceOf, decimals, symbol and
    name; decimals, symbol and name are the chain’s (the explorer’s when the token does not answer). Tokens
    with a zero balance are left out, native ETH too; an address with nothing answers 200 with empty lists
    and totalUsd 0. \`usd\` = balance ÷ 10^decimals × price, from the source named in \`priceSource\`:
    \`coinbase:ETH-USD\` (Coinbase Exchange spot, native ETH, WETH and aBasWETH), \`coinbase:BTC-USD\`
    (cbBTC), \`par:USD\` (USDC and aBasUSDC, redeemable 1:1). The explorer’s own exchange_rate is never
    used. \`usd\` is null (never 0) for listed tokens without a price source here (cbETH, USDbC, wstETH;
    debt tokens, whose balance is owed; vault shares, valued in /v1/positions; tokenized stocks, priced by
    /v1/stocks/{ticker}/price; UTIL) and for spot-priced tokens while the exchange is unavailable. Spam rule
    (first match wins): a listed token is never screened; otherwise \`scam-pattern\` when the name or symbol
    holds a URL or domain, an airdrop-scam word (claim, visit, reward, airdrop, voucher, bonus, giveaway,
    gift, redeem, eligible), a \`$\` in the symbol, or a character outside printable ASCII (lookalikes,
    invisible characters); \`impersonation\` when its symbol equals a listed token’s; \`unlisted-unpriced\`
    when it is not listed and has no price source (price sources exist only for listed tokens, so every
    unlisted token is screened). Screened tokens are listed apart in \`screened\`, never priced and never in
    totalUsd. \`totalUsd\` sums the priced entries of \`tokens\`; \`unpricedCount\` counts entries of
    \`tokens\` whose usd is null. \`tokens\` is ordered native ETH first, then by usd descending, unpriced
    last. \`sources\` reports each upstream: explorer down → the token list and ETH are still read from the
    chain (an explorer-only token is then missing); the explorer listing more than 250 tokens outside the
    token list (an airdrop-spam flood) → only its first 250 are read, and sources.explorer is not ok and
    says how many were listed; exchange down → spot-priced usd null; the chain down → 502
    \`upstream_unavailable\`, nothing charged.`,
  input: { params: walletParams },
  output: z.object({
    address,
    block: z
      .object({ number: z.number().int().nonnegative(), timestamp: unixSeconds })
      .describe('The block every balance was read at (one Multicall3 eth_call; never cached)'),
    totalUsd: z
      .number()
      .describe('Sum of usd over `tokens` with a price; screened and unpriced tokens are not counted'),
    unpricedCount: z.number().int().nonnegative().describe('How many entries of `tokens` have usd null'),
    tokens: z.array(
      z.object({
        token: address.describe('The ERC-20, or 0xEeee…EEeE for native ETH'),
        symbol: z
          .string()
          .nullable()
          .describe('symbol() onchain, else the explorer’s; null when neither names it'),
        decimals: z.number().int().describe('decimals() onchain, else the explorer’s'),
        balance: atomicAmount.describe('balanceOf (getEthBalance for ETH) at `block`, atomic units'),
        usd: usdOrNull,
        priceSource: z
          .string()
          .nullable()
          .describe('coinbase:<PRODUCT> (exchange spot) or par:USD; null exactly when usd is null'),
      }),
    ),
    screened: z
      .array(
        z.object({
          token: address,
          symbol: z.string().nullable(),
          name: z.string().nullable(),
          decimals: z.number().int(),
          balance: atomicAmount,
          reason: z
            .enum(['scam-pattern', 'impersonation', 'unlisted-unpriced'])
            .describe('Which clause of the spam rule matched (see the description)'),
        }),
      )
      .describe('Tokens held but screened as spam: never priced, never in totalUsd'),
    sources: z
      .object({
        explorer: sourceStatus,
        chain: sourceStatus,
        prices: sourceStatus,
      })
      .describe(
        'Each upstream’s outcome; a failed one names its error and its section degrades as described',
      ),
  }),
  example: {
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: {
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      block: { number: 38712004, timestamp: 1795420800 },
      totalUsd: 4012.44,
      unpricedCount: 1,
      tokens: [
        {
          token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
          symbol: 'ETH',
          decimals: 18,
          balance: '500000000000000000',
          usd: 1506.22,
          priceSource: 'coinbase:ETH-USD',
        },
        {
          token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          symbol: 'USDC',
          decimals: 6,
          balance: '2506220000',
          usd: 2506.22,
          priceSource: 'par:USD',
        },
        {
          token: '0xdE7e000000000000000000000000000000000030',
          symbol: 'adUSDC',
          decimals: 18,
          balance: '1000000000000000000000',
          usd: null,
          priceSource: null,
        },
      ],
      screened: [
        {
          token: '0x5A11000000000000000000000000000000000001',
          symbol: 'CLAIM',
          name: 'Visit base-drop.xyz to claim',
          decimals: 18,
          balance: '1000000000000000000000',
          reason: 'scam-pattern',
        },
      ],
      sources: { explorer: { ok: true }, chain: { ok: true }, prices: { ok: true } },
    },
  },
  handler: async ({ params }, ctx) =>
    getPortfolio(ctx.deps.chain, ctx.deps.market, ctx.deps.config, getAddress(params.address)),
})
