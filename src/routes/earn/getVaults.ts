import { getVaults, vaultsOutput } from '../../market/earn/getVaults.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'

export const getVaultsRoute = defineRoute({
  id: 'getVaults',
  method: 'GET',
  path: '/v1/earn/vaults',
  priceUsd: PRICES.getVaults,
  errors: [],
  tier: 'data',
  summary: 'Vault catalog: ERC-4626 and pool-lender vaults',
  description: prose`
    The ERC-4626 vaults (MetaMorpho and plain) and Aave v3 reserves of the service’s address book, read live
    from Base at \`block\` (one multicall snapshot, cached 15 s; names, queues and market params cached 10
    min). \`address\` is the vault, or the aToken for Aave (deposit with /v1/tx/earn/deposit or
    /v1/tx/earn/aave/supply). \`netApy\` is yearly, after the vault’s own fee, never a constant, and depends
    on \`apySource\`: morpho-allocation (MetaMorpho) = Σ over its Morpho Blue markets of supply assets ×
    supply APY ÷ Σ supply assets, × (1 − fee), where a market’s supply APY = borrow APY × utilization × (1 −
    market fee) and borrow APY = e^(IRM borrowRateView × 31,536,000) − 1 (\`allocation\` lists each market);
    null when the vault holds nothing or one of its markets cannot be read. share-price-growth (plain
    ERC-4626, no rate source) = (p1 ÷ p0)^(31,536,000 ÷ Δt) − 1 over the share price 302,400 blocks (7 days)
    ago and now; null when the chain keeps no state that old (a young chain, a non-archive node), the vault
    is younger, or Δt is under a day. aave-liquidity-rate = the reserve’s currentLiquidityRate (ray APR,
    already net of the reserve factor) compounded per second: (1 + APR ÷ 31,536,000)^31,536,000 − 1.
    Incentive rewards are not included. \`tvl\` = totalAssets() (the aToken’s totalSupply() for Aave) in the
    asset’s atomic units; \`tvlUsd\` at Aave’s oracle price (Chainlink feeds), null when that oracle does
    not price the asset. An entry the chain cannot answer for is left out, never filled with zeros.`,
  input: {},
  output: vaultsOutput,
  example: {
    output: exampleOutput(import.meta.url),
  },
  handler: async (_input, ctx) => getVaults(ctx.deps.lending),
})
