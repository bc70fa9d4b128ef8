import { type Address, getAddress, type Hex, pad, toEventSelector, toHex } from 'viem'
import { describe, expect, test } from 'vitest'
import { NATIVE_SENTINEL } from '../chain/addresses.js'
import { UpstreamError } from '../errors.js'
import { assertOutflows, type OutflowPolicy } from './assertOutflows.js'
import type { SimulatedLog } from './simulateBundle.js'
import type { TxStep } from './txStep.js'

const OWNER = getAddress('0x00000000000000000000000000000000000a11ce')
const OTHER = getAddress('0x000000000000000000000000000000000000beef')
const SPENDER = getAddress('0x0000000000000000000000000000000000005bed')
const TOKEN = getAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')
const THIRD = getAddress('0x4200000000000000000000000000000000000006')
const NFT = getAddress('0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1')
const TRANSFER = toEventSelector('Transfer(address,address,uint256)')
const APPROVAL = toEventSelector('Approval(address,address,uint256)')

const amount = (v: bigint): Hex => toHex(v, { size: 32 })
const transfer = (token: Address, from: Address, to: Address, v: bigint): SimulatedLog => ({
  address: token,
  topics: [TRANSFER, pad(from), pad(to)],
  data: amount(v),
})
const approval = (token: Address, owner: Address, spender: Address, v: bigint): SimulatedLog => ({
  address: token,
  topics: [APPROVAL, pad(owner), pad(spender)],
  data: amount(v),
})
const step = (value = 0n): TxStep => ({ to: TOKEN, data: '0x', value, description: '' })

const policy: OutflowPolicy = {
  mayLeave: [{ token: TOKEN, amount: 100n }],
  mayApprove: [{ token: TOKEN, spender: SPENDER, amount: 100n }],
  source: 'an upstream',
}

/** The refusal's message, or null when the logs pass. */
function verdict(logs: SimulatedLog[][], p: OutflowPolicy = policy, values: bigint[] = []): string | null {
  try {
    assertOutflows(
      OWNER,
      logs.map((_, i) => step(values[i] ?? 0n)),
      logs,
      p,
    )
    return null
  } catch (err) {
    expect(err).toBeInstanceOf(UpstreamError)
    expect(err).toMatchObject({ status: 502, details: { upstream: 'an upstream' } })
    return (err as UpstreamError).message
  }
}

describe('assertOutflows', () => {
  test('behavior: declared tokens may leave up to the declared amount, summed over every step; what arrives or moves between others is not counted', () => {
    expect(verdict([[transfer(TOKEN, OWNER, OTHER, 60n)], [transfer(TOKEN, OWNER, OTHER, 40n)]])).toBeNull()
    expect(verdict([[transfer(TOKEN.toLowerCase() as Address, OWNER, OTHER, 100n)]])).toBeNull()
    expect(
      verdict([[transfer(THIRD, OTHER, OWNER, 10n ** 30n), transfer(THIRD, OTHER, SPENDER, 1n)]]),
    ).toBeNull()
  })

  test('error: more than declared, or any token never declared, is refused naming the token and amounts', () => {
    expect(verdict([[transfer(TOKEN, OWNER, OTHER, 60n)], [transfer(TOKEN, OWNER, OTHER, 41n)]])).toMatch(
      `takes 101 of ${TOKEN} from the owner, more than the 100 the request spends`,
    )
    expect(verdict([[transfer(THIRD, OWNER, OTHER, 1n)]])).toMatch(
      `takes 1 of ${THIRD} from the owner, a token the request never spends`,
    )
    // A burn is a token leaving too.
    expect(verdict([[transfer(THIRD, OWNER, '0x0000000000000000000000000000000000000000', 1n)]])).toMatch(
      `takes 1 of ${THIRD}`,
    )
  })

  test('behavior: native ETH counts once, from the traced transfers or, when the node traced nothing, from the steps’ value', () => {
    const eth: OutflowPolicy = { ...policy, mayLeave: [{ token: NATIVE_SENTINEL, amount: 5n }] }
    const traced = transfer('0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', OWNER, OTHER, 5n)
    expect(verdict([[traced]], eth, [5n])).toBeNull()
    expect(verdict([[]], eth, [5n])).toBeNull()
    expect(verdict([[]], eth, [6n])).toMatch(`takes 6 of ${NATIVE_SENTINEL} from the owner, more than the 5`)
    expect(verdict([[traced]], policy, [5n])).toMatch(`takes 5 of ${NATIVE_SENTINEL} from the owner, a token`)
  })

  test('behavior: approvals pass when declared exactly, when they revoke, or as the bookkeeping logged beside a transfer of the same token out of the owner', () => {
    expect(verdict([[approval(TOKEN, OWNER, SPENDER, 100n)]])).toBeNull()
    expect(verdict([[approval(THIRD, OWNER, SPENDER, 0n)]])).toBeNull()
    expect(verdict([[approval(THIRD, OWNER, '0x0000000000000000000000000000000000000000', 7n)]])).toBeNull()
    // OpenZeppelin 4's transferFrom: Approval (the allowance lowered) then Transfer; older tokens the reverse.
    const spent = transfer(TOKEN, OWNER, OTHER, 50n)
    expect(verdict([[approval(TOKEN, OWNER, SPENDER, 1_000n), spent]])).toBeNull()
    expect(verdict([[spent, approval(TOKEN, OWNER, SPENDER, 1_000n)]])).toBeNull()
    // Someone else's approval is none of the owner's business.
    expect(verdict([[approval(THIRD, OTHER, SPENDER, 10n ** 30n)]])).toBeNull()
  })

  test('error: an approval not declared exactly, or bookkeeping away from a transfer of its token, is refused', () => {
    expect(verdict([[approval(TOKEN, OWNER, SPENDER, 101n)]])).toMatch(
      `grants ${SPENDER} an allowance of 101 of ${TOKEN}, beyond the exact approvals of its steps (step 0)`,
    )
    expect(verdict([[approval(TOKEN, OWNER, OTHER, 100n)]])).toMatch(`grants ${OTHER}`)
    expect(verdict([[approval(THIRD, OWNER, SPENDER, 1n)]])).toMatch(
      `grants ${SPENDER} an allowance of 1 of ${THIRD}`,
    )
    const spent = transfer(TOKEN, OWNER, OTHER, 50n)
    expect(verdict([[approval(TOKEN, OWNER, SPENDER, 1_000n)], [spent]])).toMatch('grants')
    expect(verdict([[approval(THIRD, OWNER, SPENDER, 1_000n), spent]])).toMatch('grants')
  })

  test('error: NFTs and ERC-1155 tokens leaving the owner, operator approvals and unreadable logs are refused; clearings and revocations pass', () => {
    const tokenId = pad(toHex(7n))
    expect(
      verdict([[{ address: NFT, topics: [TRANSFER, pad(OWNER), pad(OTHER), tokenId], data: '0x' }]]),
    ).toMatch(`transfers token id 7 of ${NFT} out of the owner's wallet (step 0)`)
    expect(
      verdict([[{ address: NFT, topics: [APPROVAL, pad(OWNER), pad(OTHER), tokenId], data: '0x' }]]),
    ).toMatch(`approves ${OTHER} for a token id of ${NFT}`)
    expect(
      verdict([
        [
          {
            address: NFT,
            topics: [APPROVAL, pad(OWNER), pad('0x0000000000000000000000000000000000000000'), tokenId],
            data: '0x',
          },
        ],
      ]),
    ).toBeNull()
    const forAll = (on: bigint): SimulatedLog => ({
      address: NFT,
      topics: [toEventSelector('ApprovalForAll(address,address,bool)'), pad(OWNER), pad(OTHER)],
      data: amount(on),
    })
    expect(verdict([[forAll(1n)]])).toMatch(`approves ${OTHER} for all tokens of ${NFT}`)
    expect(verdict([[forAll(0n)]])).toBeNull()
    const single: SimulatedLog = {
      address: NFT,
      topics: [
        toEventSelector('TransferSingle(address,address,address,uint256,uint256)'),
        pad(SPENDER),
        pad(OWNER),
        pad(OTHER),
      ],
      data: `${amount(1n)}${amount(1n).slice(2)}`,
    }
    expect(verdict([[single]])).toMatch(`transfers ERC-1155 tokens of ${NFT}`)
    expect(verdict([[{ ...transfer(TOKEN, OWNER, OTHER, 1n), data: '0x01' }]])).toMatch('unreadable transfer')
  })
})
