/**
 * Fixed-point scales, the year rates are quoted over, and token decimals: declared once here. A leaf
 * (imports nothing), so every layer may use it.
 */

/** 1e18: Morpho's and Aave's fixed-point one (lltv, fees, health factors, per-second rates, Midnight prices). */
export const WAD = 10n ** 18n

/** 1e36: the scale of a Morpho oracle price (loan-token units per collateral unit, decimals included). */
export const ORACLE_PRICE_SCALE = 10n ** 36n

/** 1e27: Aave's ray (its rates). */
export const RAY = 10n ** 27n

/** 365 days, the year every APR and APY here is annualized over (as Morpho and Midnight do). */
export const SECONDS_PER_YEAR = 31_536_000

/** Native USDC on Base. */
export const USDC_DECIMALS = 6

/** Native ETH (and WETH). */
export const ETH_DECIMALS = 18

/** A WAD-scaled value as a plain number (for responses and float analytics; exact math stays in bigint). */
export const fromWad = (value: bigint): number => Number(value) / Number(WAD)

/** A ray-scaled value as a plain number. */
export const fromRay = (value: bigint): number => Number(value) / Number(RAY)
