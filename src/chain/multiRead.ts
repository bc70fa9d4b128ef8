import {
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  type DecodeFunctionResultParameters,
  decodeFunctionResult,
  type EncodeFunctionDataParameters,
  encodeFunctionData,
  type Hex,
  multicall3Abi,
  type PublicClient,
} from 'viem'
import { UpstreamError } from '../errors.js'
import { BASE_ADDRESSES } from './addresses.js'

/** The upstream name chain faults are reported under. */
export const CHAIN_UPSTREAM = 'Base RPC'

/** One view call, encoded, with the decoder of its result. */
export interface ViewCall<T> {
  target: Address
  callData: Hex
  decode(data: Hex): T
}

type ReadMutability = 'view' | 'pure'

/** A typed view call: the result type follows from the ABI, as with viem's readContract. */
export function viewCall<
  const abi extends Abi,
  name extends ContractFunctionName<abi, ReadMutability>,
  const args extends ContractFunctionArgs<abi, ReadMutability, name>,
>(
  target: Address,
  abi: abi,
  functionName: name,
  args: args,
): ViewCall<ContractFunctionReturnType<abi, ReadMutability, name, args>> {
  const callData = encodeFunctionData({ abi, functionName, args } as unknown as EncodeFunctionDataParameters)
  return {
    target,
    callData,
    decode: (data) =>
      decodeFunctionResult({
        abi,
        functionName,
        args,
        data,
      } as unknown as DecodeFunctionResultParameters) as ContractFunctionReturnType<
        abi,
        ReadMutability,
        name,
        args
      >,
  }
}

type Groups = Record<string, readonly ViewCall<unknown>[]>

/** Per group, each call's decoded result, or undefined where the call reverted or returned garbage. */
export type GroupResults<G extends Groups> = {
  [K in keyof G]: G[K] extends readonly ViewCall<infer T>[] ? (T | undefined)[] : never
}

/**
 * Every call of every group in one `eth_call` of Multicall3's `aggregate3` (allowFailure on each call), at
 * `blockNumber` or the latest block. A call that reverts is `undefined` in its slot; a fault of the RPC
 * itself (no answer, an error, a block it cannot serve) is an UpstreamError: 502 with Retry-After, and
 * nothing is charged. `time` evaluates the calls as if block.timestamp were `time` (an eth_call block
 * override): a projection of time-dependent state (interest accrual) to a later moment.
 */
export async function multiRead<const G extends Groups>(
  chain: PublicClient,
  groups: G,
  blockNumber?: bigint,
  time?: bigint,
): Promise<GroupResults<G>> {
  const names = Object.keys(groups) as (keyof G & string)[]
  const calls = names.flatMap((name) => groups[name] ?? [])
  let returned: readonly { success: boolean; returnData: Hex }[] = []
  if (calls.length > 0) {
    const data = encodeFunctionData({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      args: [calls.map((c) => ({ target: c.target, allowFailure: true, callData: c.callData }))],
    })
    try {
      // batch: false: this is already the multicall; the client must not nest it in another one.
      const answer = await chain.call({
        to: BASE_ADDRESSES.Multicall3,
        data,
        batch: false,
        ...(blockNumber === undefined ? {} : { blockNumber }),
        ...(time === undefined ? {} : { blockOverrides: { time } }),
      })
      returned = decodeFunctionResult({
        abi: multicall3Abi,
        functionName: 'aggregate3',
        data: answer.data ?? '0x',
      })
    } catch (err) {
      throw new UpstreamError(CHAIN_UPSTREAM, 'a multicall read failed', { cause: err })
    }
  }
  const out: Record<string, unknown[]> = {}
  let at = 0
  for (const name of names) {
    out[name] = (groups[name] ?? []).map((call) => {
      const result = returned[at++]
      if (result === undefined || !result.success) return undefined
      try {
        return call.decode(result.returnData)
      } catch {
        return undefined // no code at the target (empty return data) or an unexpected shape
      }
    })
  }
  return out as GroupResults<G>
}
