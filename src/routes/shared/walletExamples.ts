/**
 * Examples of the wallet reads: real devnet answers for demo account #1 (the loan analysis asked with
 * targetHealth=6, above its health, so the restore amounts and builder bodies show).
 */
export const EXAMPLE_WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

export const POSITIONS_EXAMPLE = {
  params: { address: EXAMPLE_WALLET },
  output: {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    block: {
      number: 530,
      timestamp: 1795452160,
    },
    asOf: 1795452162,
    borrows: [
      {
        protocol: 'morpho-blue' as const,
        marketId: '0xd490e1596fe156525ba0564974c4069ea03907a81298ab87c889beddaab4e413',
        collateralToken: '0x4200000000000000000000000000000000000006',
        collateralSymbol: 'WETH',
        collateral: '10000000000000000000',
        loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        loanSymbol: 'USDC',
        debt: '5000009075',
        lltv: 0.86,
        borrowApy: 0.03273193293,
        healthFactor: 5.66353968,
        liquidatable: false,
        price: 3292.761604,
        liquidationPrice: 581.3964041,
        liquidationDistancePct: 82.34319778,
      },
    ],
    aave: null,
    vaults: [
      {
        vault: '0xdE7e000000000000000000000000000000000030',
        protocol: 'metamorpho' as const,
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        symbol: 'USDC',
        shares: '9999999925080000561375',
        assets: '10000012097',
        apy: 0.02181870129,
        earnings: '12097',
        earningsNote: null,
      },
    ],
    trades: [
      {
        index: 1,
        pairIndex: 1,
        pair: 'ETH/USD',
        long: true,
        leverage: 2,
        entry: 3500.7,
        tp: 17500,
        sl: null,
        collateralUsdc: 249.7,
        sizeUsd: 499.4,
        liquidationPrice: 1927.48542,
        liquidationDistancePct: 41.46912074,
        markPrice: 3293.10860231,
        pnlUsd: -29.61440398,
        pnlPct: -11.85999358,
        closingFeeUsd: 0.29964,
      },
    ],
    fixed: [],
    sources: {
      lending: {
        ok: true as const,
      },
      vaultApy: {
        ok: true as const,
      },
      vaultHistory: {
        ok: true as const,
      },
      gtrade: {
        ok: true as const,
      },
      gtradeMark: {
        ok: true as const,
      },
      midnight: {
        ok: true as const,
      },
    },
  },
}

export const LOAN_ANALYSIS_EXAMPLE = {
  params: { address: EXAMPLE_WALLET },
  query: { targetHealth: '6' },
  output: {
    address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    block: {
      number: 531,
      timestamp: 1795452162,
    },
    asOf: 1795452162,
    targetHealth: 6,
    positions: [
      {
        protocol: 'morpho-blue' as const,
        marketId: '0xd490e1596fe156525ba0564974c4069ea03907a81298ab87c889beddaab4e413',
        collateralToken: '0x4200000000000000000000000000000000000006',
        collateralSymbol: 'WETH',
        collateral: '10000000000000000000',
        loanToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        loanSymbol: 'USDC',
        debt: '5000009075',
        collateralUsd: null,
        debtUsd: null,
        borrowApy: 0.03273193293,
        healthFactor: 5.66353968,
        status: 'solvent' as const,
        price: 3292.761604,
        liquidationPrice: 581.3964041,
        liquidationDistancePct: 82.34319778,
        timeToLiquidationSec: 1697887512,
        stress: [
          {
            priceChangePct: -10,
            price: 2963.485444,
            collateralUsd: null,
            healthFactor: 5.097185712,
            liquidatable: false,
          },
          {
            priceChangePct: -20,
            price: 2634.209284,
            collateralUsd: null,
            healthFactor: 4.530831744,
            liquidatable: false,
          },
          {
            priceChangePct: -30,
            price: 2304.933123,
            collateralUsd: null,
            healthFactor: 3.964477776,
            liquidatable: false,
          },
        ],
        advice:
          'At risk: WETH can fall about 82.3% before liquidation; repay 280.385 USDC or add 0.594082 WETH to reach health 6.',
        restore: {
          targetHealth: 6,
          repay: {
            assets: '280384109',
            healthFactorAfter: 6,
            builder: {
              method: 'POST' as const,
              path: '/v1/tx/loan/repay',
              body: {
                marketId: '0xd490e1596fe156525ba0564974c4069ea03907a81298ab87c889beddaab4e413',
                assets: '280402495',
                owner: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
              },
            },
          },
          supplyCollateral: {
            assets: '594081332044377225',
            healthFactorAfter: 6,
            builder: {
              method: 'POST' as const,
              path: '/v1/tx/loan/supply-collateral',
              body: {
                marketId: '0xd490e1596fe156525ba0564974c4069ea03907a81298ab87c889beddaab4e413',
                assets: '594120284150665486',
                owner: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
              },
            },
          },
        },
      },
    ],
    skipped: [],
    sources: {
      lending: {
        ok: true as const,
      },
      midnight: {
        ok: true as const,
      },
    },
  },
}
