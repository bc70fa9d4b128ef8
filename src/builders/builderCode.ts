import { Attribution } from 'ox/erc8021'
import { concat, type Hex } from 'viem'

/**
 * The ERC-8021 schema-0 data suffix for `codes` (Base Builder Codes; protocols.md §6): the same bytes a
 * viem wallet with `dataSuffix` appends. Contracts ignore trailing calldata, so appending it changes
 * nothing onchain but the attribution. No codes configured: no suffix.
 */
export function builderCodeSuffix(codes: readonly string[]): Hex | null {
  return codes.length === 0 ? null : Attribution.toDataSuffix({ codes: [...codes] })
}

export function appendSuffix(data: Hex, suffix: Hex | null): Hex {
  return suffix === null ? data : concat([data, suffix])
}
