import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hashDomain,
  keccak256,
  parseAbi,
  parseSignature,
  parseUnits,
  toHex,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASE_ADDRESSES, DEAD_ADDRESS } from '../../src/chain/addresses.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import { DEVNET_ADDRESSES } from '../../src/devnet/addresses.js'
import { DEMO_FUNDING } from '../../src/devnet/buildState.js'
import { AUTHORIZATION_TYPES } from '../../src/payments/exact/recoverAuthorizer.js'
import { RECEIPT } from '../helpers/chainChecks.js'
import { startTestDevnet, type TestDevnet } from './devnetFixture.js'

const usdcAbi = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function decimals() view returns (uint8)',
])
const utilAbi = parseAbi([
  'function circulatingSupply() view returns (uint256)',
  'function MAX_SUPPLY() view returns (uint256)',
])

const authorizationTypes = AUTHORIZATION_TYPES

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet()
})
afterAll(async () => {
  await devnet?.stop()
})

describe('devnet tokens', () => {
  it('USDC has the FiatToken EIP-712 domain at its Base address', async () => {
    const read = (functionName: 'name' | 'version' | 'DOMAIN_SEPARATOR') =>
      devnet.publicClient.readContract({ address: BASE_ADDRESSES.USDC, abi: usdcAbi, functionName })
    expect(await read('name')).toBe('USD Coin')
    expect(await read('version')).toBe('2')
    expect(
      await devnet.publicClient.readContract({
        address: BASE_ADDRESSES.USDC,
        abi: usdcAbi,
        functionName: 'decimals',
      }),
    ).toBe(6)
    const expected = hashDomain({
      domain: { name: 'USD Coin', version: '2', chainId: 8453n, verifyingContract: BASE_ADDRESSES.USDC },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
      },
    })
    expect(await read('DOMAIN_SEPARATOR')).toBe(expected)
  })

  it('relays EIP-3009 transferWithAuthorization signed with signTypedData (v,r,s and bytes forms)', async () => {
    const payer = devnet.wallet(5)
    const relayer = devnet.wallet(6)
    const payee: Address = devnet.manifest.demoAccounts[7]!
    const balanceOf = (who: Address) =>
      devnet.publicClient.readContract({
        address: BASE_ADDRESSES.USDC,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [who],
      })
    const before = await balanceOf(payee)
    const block = await devnet.publicClient.getBlock()
    const value = parseUnits('1.25', 6)
    const sign = async (nonce: Hex) => {
      const message = {
        from: payer.account.address,
        to: payee,
        value,
        validAfter: 0n,
        // The loaded state's latest block is as old as the state cache; the next block is mined at the
        // wall clock, so the hour counts from whichever is later.
        validBefore: maxBigInt(block.timestamp, BigInt(Math.floor(Date.now() / 1000))) + 3600n,
        nonce,
      }
      const signature = await payer.signTypedData({
        domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: BASE_ADDRESSES.USDC },
        types: authorizationTypes,
        primaryType: 'TransferWithAuthorization',
        message,
      })
      return { message, signature }
    }

    const first = await sign(keccak256(toHex('agentdesk test nonce 1')))
    const { v, r, s } = parseSignature(first.signature)
    const m1 = first.message
    const hash1 = await relayer.writeContract({
      address: BASE_ADDRESSES.USDC,
      abi: usdcAbi,
      functionName: 'transferWithAuthorization',
      args: [m1.from, m1.to, m1.value, m1.validAfter, m1.validBefore, m1.nonce, Number(v), r, s],
    })
    expect((await pollReceipt(devnet.publicClient, hash1, RECEIPT)).status).toBe('success')

    const second = await sign(keccak256(toHex('agentdesk test nonce 2')))
    const m2 = second.message
    const hash2 = await relayer.writeContract({
      address: BASE_ADDRESSES.USDC,
      abi: usdcAbi,
      functionName: 'transferWithAuthorization',
      args: [m2.from, m2.to, m2.value, m2.validAfter, m2.validBefore, m2.nonce, second.signature],
    })
    expect((await pollReceipt(devnet.publicClient, hash2, RECEIPT)).status).toBe('success')

    expect((await balanceOf(payee)) - before).toBe(2n * value)
    expect(
      await devnet.publicClient.readContract({
        address: BASE_ADDRESSES.USDC,
        abi: usdcAbi,
        functionName: 'authorizationState',
        args: [m1.from, m1.nonce],
      }),
    ).toBe(true)
    // A replay of a used authorization must fail with FiatToken's reason.
    await expect(
      devnet.publicClient.call({
        account: relayer.account.address,
        to: BASE_ADDRESSES.USDC,
        data: encodeFunctionData({
          abi: usdcAbi,
          functionName: 'transferWithAuthorization',
          args: [m2.from, m2.to, m2.value, m2.validAfter, m2.validBefore, m2.nonce, second.signature],
        }),
      }),
    ).rejects.toThrow(/authorization is used or canceled/)
  })

  it('burning UTIL (transfer to 0x…dEaD) lowers circulating supply; total supply is fixed', async () => {
    const wallet = devnet.wallet(8)
    const read = <T>(functionName: 'totalSupply' | 'circulatingSupply' | 'MAX_SUPPLY') =>
      devnet.publicClient.readContract({
        address: DEVNET_ADDRESSES.UTIL,
        abi: [...erc20Abi, ...utilAbi],
        functionName,
      }) as Promise<T>
    const deadBalance = () =>
      devnet.publicClient.readContract({
        address: DEVNET_ADDRESSES.UTIL,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [DEAD_ADDRESS],
      })
    const total = await read<bigint>('totalSupply')
    expect(total).toBe(100_000_000_000n * 10n ** 18n)
    expect(await read<bigint>('MAX_SUPPLY')).toBe(total)
    const circulatingBefore = total - (await deadBalance())
    const burn = parseUnits('12345', 18)
    const hash = await wallet.writeContract({
      address: DEVNET_ADDRESSES.UTIL,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [DEAD_ADDRESS, burn],
    })
    expect((await pollReceipt(devnet.publicClient, hash, RECEIPT)).status).toBe('success')
    expect(await read<bigint>('totalSupply')).toBe(total)
    const circulatingAfter = total - (await deadBalance())
    expect(circulatingBefore - circulatingAfter).toBe(burn)
    expect(await read<bigint>('circulatingSupply')).toBe(circulatingAfter)
  })

  it('demo accounts are funded with ETH, USDC, WETH, cbBTC and UTIL', async () => {
    const me = devnet.manifest.demoAccounts[9]!
    const balanceOf = (token: Address) =>
      devnet.publicClient.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [me],
      })
    expect(await devnet.publicClient.getBalance({ address: me })).toBeGreaterThanOrEqual(DEMO_FUNDING.ETH)
    expect(await balanceOf(BASE_ADDRESSES.USDC)).toBe(DEMO_FUNDING.USDC)
    expect(await balanceOf(BASE_ADDRESSES.WETH)).toBe(DEMO_FUNDING.WETH)
    expect(await balanceOf(BASE_ADDRESSES.cbBTC)).toBe(DEMO_FUNDING.cbBTC)
    expect(await balanceOf(DEVNET_ADDRESSES.UTIL)).toBe(DEMO_FUNDING.UTIL)
  })

  it('the address book puts every Base contract at its Base address, with code there', async () => {
    const noCode = new Set<string>([
      'UniswapV2Factory',
      'GtradeUsdcVault',
      'AerodromeVoter',
      'AerodromeFactoryRegistry',
    ])
    for (const [name, address] of Object.entries(BASE_ADDRESSES)) {
      expect(devnet.manifest.addresses[name], name).toBe(address)
      if (noCode.has(name)) continue
      const code = await devnet.publicClient.getCode({ address })
      expect(code?.length ?? 0, `${name} has code at ${address}`).toBeGreaterThan(2)
    }
    expect(devnet.manifest.tokens.USDC).toBe(BASE_ADDRESSES.USDC)
    expect(devnet.manifest.uniswap.swapRouter02).toBe(BASE_ADDRESSES.SwapRouter02)
    expect(devnet.manifest.morpho.morpho).toBe(BASE_ADDRESSES.MorphoBlue)
    expect(devnet.manifest.aave.pool).toBe(BASE_ADDRESSES.AavePool)
    for (const [name, address] of Object.entries(DEVNET_ADDRESSES)) {
      expect(devnet.manifest.addresses[name], name).toBe(address)
    }
  })
})

const maxBigInt = (a: bigint, b: bigint) => (a > b ? a : b)
