import { getAddress } from 'viem'
import { getPortfolio, portfolioOutput } from '../../market/portfolio/getPortfolio.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { walletParams } from '../shared/readFields.js'

export const getPortfolioRoute = defineRoute({
  id: 'getPortfolio',
  method: 'GET',
  path: '/v1/portfolio/{address}',
  priceUsd: PRICES.getPortfolio,
  errors: [],
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
  output: portfolioOutput,
  example: {
    params: { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' },
    output: exampleOutput(import.meta.url),
  },
  handler: async ({ params }, ctx) =>
    getPortfolio(ctx.deps.chain, ctx.deps.market, ctx.deps.config, getAddress(params.address)),
})
