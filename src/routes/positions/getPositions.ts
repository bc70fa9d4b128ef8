import { getAddress } from 'viem'
import { getPositions, positionsOutput } from '../../market/positions/getPositions.js'
import { prose } from '../../prose.js'
import { PRICES } from '../prices.js'
import { defineRoute } from '../route.js'
import { exampleOutput } from '../shared/exampleOutput.js'
import { walletParams } from '../shared/readFields.js'

export const getPositionsRoute = defineRoute({
  id: 'getPositions',
  method: 'GET',
  path: '/v1/positions/{address}',
  priceUsd: PRICES.getPositions,
  errors: [],
  tier: 'data',
  summary: 'Open borrow, vault, leveraged-trade and fixed-rate positions',
  description: prose`
    Every open position of \`address\`, read live from the chain, by source (run concurrently; each source’s
    outcome in \`sources\`, a failed one empties only its section; when lending, gTrade and Midnight all
    fail: 502, nothing charged).

    \`borrows\`: Morpho Blue borrows in the service’s catalog markets (/v1/loan/markets): collateral and
    debt (atomic), debt = the borrow shares converted with the market totals accrued to \`asOf\` (Morpho’s
    own third-order Taylor accrual at the IRM’s borrowRateView, rounded up), health factor and liquidation
    price from the market oracle.

    \`aave\`: Aave v3 account (Pool.getUserAccountData accrued to \`asOf\`, USD at Aave’s oracle) with the
    supplied and borrowed amounts per catalog reserve; null when the wallet has none.

    \`vaults\`: catalog vault deposits (MetaMorpho, ERC-4626, Aave aTokens): shares, assets (convertToAssets
    at \`asOf\`), the vault’s net APY as /v1/earn/vaults reports it, and earnings since deposit = assets −
    (Σ Deposit assets − Σ Withdraw assets) over the wallet’s ERC-4626 events (Aave: the Pool’s Supply on
    behalf of and Withdraw by the wallet); null with \`earningsNote\` when shares were transferred (the cost
    basis is unknown) or the RPC refuses the log range.

    \`trades\`: open gTrade v10 trades only (tradeType 0). Resting LIMIT/STOP orders are not positions: see
    /v1/pending-orders/{address}. Liquidation price = the diamond’s getTradeLiquidationPrice (protocols.md
    §1, no holding fees); PnL at the Pyth mark (the perp index of /v1/prices), before closing and holding
    fees.

    \`fixed\`: Morpho Midnight positions in the markets the Midnight API lists: credit and debt in units
    (loan-token atomic amounts due at maturity), collateral, and health from the collateral oracle and lltv
    (liquidation price only with one collateral).

    Full risk analysis (stress, time to liquidation, restore amounts): /v1/loan/analysis/{address}.`,
  input: { params: walletParams },
  output: positionsOutput,
  example: {
    params: { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    output: exampleOutput(import.meta.url),
  },
  handler: (input, ctx) =>
    getPositions(
      { chain: ctx.deps.chain, lending: ctx.deps.lending, market: ctx.deps.market },
      getAddress(input.params.address),
      ctx.deps.clock(),
    ),
})
