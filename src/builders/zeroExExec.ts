import { type Address, decodeFunctionData, type Hex, isAddressEqual, parseAbi } from 'viem'
import { UpstreamError } from '../market/upstreams/fetchJson.js'

const ZEROX = '0x Swap API'

/** AllowanceHolder's entry point (0xProject/0x-settler src/allowanceholder/IAllowanceHolder.sol). */
export const allowanceHolderAbi = parseAbi([
  'function exec(address operator, address token, uint256 amount, address target, bytes data) payable returns (bytes result)',
])

/** The arguments of one `AllowanceHolder.exec`. */
export interface ZeroExExec {
  /** May spend the transient allowance (call AllowanceHolder.transferFrom) during the call. */
  operator: Address
  /** The token the taker lets `operator` pull, up to `amount`, for this one call. */
  token: Address
  amount: bigint
  /** Called with `data` (and the taker's address appended). */
  target: Address
  data: Hex
}

/** Pure: the `exec` call a quote's transaction makes, or null when its calldata is not one. */
export function decodeZeroExExec(data: Hex): ZeroExExec | null {
  try {
    const call = decodeFunctionData({ abi: allowanceHolderAbi, data })
    const [operator, token, amount, target, inner] = call.args
    return { operator, token, amount, target, data: inner }
  } catch {
    return null
  }
}

/**
 * What a quote's `exec` may authorise: AllowanceHolder lets `operator` pull up to `amount` of `token` from
 * the taker during the call, through the taker's allowance to AllowanceHolder — which a taker who once
 * swapped through 0x may hold for other tokens, unlimited. So the token must be the one sold (for ETH sold
 * the native sentinel, as 0x's quotes and the devnet simulator encode it: nothing an ERC-20 allowance can
 * cover), the amount exactly the amount sold, and the operator the target, a genuine 0x Settler (`settlers`:
 * the registry's, see zeroExSettlers.ts) — never a contract of the quote's choosing, which could pull the
 * sold amount and pay the minimum out of its own pocket. Each refusal is a 502 (nothing charged).
 */
export function checkZeroExExec(
  data: Hex,
  sold: { token: Address; amount: bigint },
  settlers: readonly Address[],
): void {
  const exec = decodeZeroExExec(data)
  if (exec === null) throw new UpstreamError(ZEROX, "the quote's transaction is not AllowanceHolder.exec")
  if (!isAddressEqual(exec.token, sold.token))
    throw new UpstreamError(
      ZEROX,
      `the quote's exec lets its operator pull ${exec.token}, not the ${sold.token} sold`,
    )
  if (exec.amount !== sold.amount)
    throw new UpstreamError(ZEROX, `the quote's exec allows ${exec.amount}, not the ${sold.amount} sold`)
  if (!isAddressEqual(exec.operator, exec.target))
    throw new UpstreamError(
      ZEROX,
      `the quote's exec operator ${exec.operator} is not its target ${exec.target}`,
    )
  if (!settlers.some((s) => isAddressEqual(s, exec.target)))
    throw new UpstreamError(ZEROX, `the quote's exec target ${exec.target} is not 0x's Settler`)
}
