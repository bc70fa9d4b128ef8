/**
 * Gas units of the swap transactions POST /v1/tx/swap sends, where no source measures them whole (Base's
 * L1 data fee excluded everywhere):
 * - TX_INTRINSIC_GAS: every transaction pays 21,000 before it runs any code.
 * - ROUTER_OVERHEAD_GAS: what the router adds around the pool swap: SwapRouter02's multicall, deadline
 *   check and token pulls, or the Aerodrome router's transferFrom into the pool; QuoterV2's estimate
 *   covers the pool swap alone.
 * - AERODROME_SWAP_GAS: an Aerodrome volatile pool swap (reserves update, two transfers); the router
 *   gives no estimate, so a constant stands in.
 * - APPROVE_TX_GAS: one ERC-20 approve transaction (intrinsic gas included, allowance slot written from
 *   zero).
 * - WETH_DEPOSIT_TX_GAS / WETH_WITHDRAW_TX_GAS: a WETH9 wrap or unwrap transaction (intrinsic included;
 *   a deposit may write the holder's balance slot from zero, a withdraw sends ETH on).
 */
export const TX_INTRINSIC_GAS = 21_000n
export const ROUTER_OVERHEAD_GAS = 40_000n
export const AERODROME_SWAP_GAS = 110_000n
export const APPROVE_TX_GAS = 46_000n
export const WETH_DEPOSIT_TX_GAS = 46_000n
export const WETH_WITHDRAW_TX_GAS = 36_000n

/** The whole single-pool swap transaction: intrinsic + router overhead + the pool swap's own gas. */
export function poolSwapTxGas(poolSwapGas: bigint): bigint {
  return TX_INTRINSIC_GAS + ROUTER_OVERHEAD_GAS + poolSwapGas
}
