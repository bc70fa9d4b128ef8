import { type Address, decodeFunctionData, type Hex, isAddressEqual, parseAbi } from 'viem'
import { UpstreamError } from '../../errors.js'

const ZEROX = '0x Swap API'

/** AllowanceHolder's entry point (0xProject/0x-settler src/allowanceholder/IAllowanceHolder.sol). */
export const allowanceHolderAbi = parseAbi([
  'function exec(address operator, address token, uint256 amount, address target, bytes data) payable returns (bytes result)',
])

/**
 * The Settler's taker-submitted entry point (0xProject/0x-settler `Settler.execute`, its
 * `ISettlerBase.AllowedSlippage`): after the actions, the Settler pays the whole balance of `buyToken` it
 * holds to `recipient` and reverts below `minAmountOut`. That check is the only onchain guarantee of the
 * swap's output, whatever the actions do.
 */
export const settlerExecuteAbi = parseAbi([
  'struct AllowedSlippage { address recipient; address buyToken; uint256 minAmountOut; }',
  'function execute(AllowedSlippage slippage, bytes[] actions, bytes32 zid) payable returns (bool)',
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
 * sold amount and pay the minimum out of its own pocket. And the Settler's own slippage check must guard
 * what the answer promises: the output goes to the owner, in the token bought, and the transaction reverts
 * below the quote's minBuyAmount (a quote whose `minAmountOut` is 0 passes any simulation and then loses
 * everything to a pool armed after the answer, or to any price move). Each refusal is a 502 (nothing
 * charged).
 */
export function checkZeroExExec(
  data: Hex,
  sold: { token: Address; amount: bigint },
  bought: { recipient: Address; token: Address; minOut: bigint },
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
  let slippage: { recipient: Address; buyToken: Address; minAmountOut: bigint }
  try {
    const call = decodeFunctionData({ abi: settlerExecuteAbi, data: exec.data })
    slippage = call.args[0]
  } catch {
    throw new UpstreamError(ZEROX, "the quote's Settler call is not execute(AllowedSlippage, actions, zid)")
  }
  if (!isAddressEqual(slippage.recipient, bought.recipient))
    throw new UpstreamError(ZEROX, `the quote's Settler pays ${slippage.recipient}, not the owner`)
  if (!isAddressEqual(slippage.buyToken, bought.token))
    throw new UpstreamError(
      ZEROX,
      `the quote's Settler checks ${slippage.buyToken}, not the ${bought.token} bought`,
    )
  if (slippage.minAmountOut < bought.minOut)
    throw new UpstreamError(
      ZEROX,
      `the quote's Settler enforces ${slippage.minAmountOut}, below the minBuyAmount ${bought.minOut} it states`,
    )
}
