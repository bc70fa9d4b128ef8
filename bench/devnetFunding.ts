import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { demoAccounts } from '../src/devnet/devnetAccounts.js'
import { createFeeBook } from '../src/payments/facilitator/feeBook.js'
import { createRelayerSender } from '../src/payments/facilitator/relayerSender.js'

/**
 * `count` fresh wallets holding `amount` of `token` each, sent by devnet account #0 (its nonces kept by the
 * relayer's sender, so the transfers go out together), and `gasWei` of ETH each when asked (a cheat code).
 * Shared by the benchmarks (bench/paymentRails.ts, bench/soak.ts).
 */
export async function fundWallets(
  rpcUrl: string,
  count: number,
  amount: bigint,
  token: Address,
  gasWei = 0n,
): Promise<Hex[]> {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 60_000 }) })
  const funder = createRelayerSender({
    account: privateKeyToAccount((demoAccounts[0] as { privateKey: Hex }).privateKey),
    client,
    chainId: 8453,
    fees: createFeeBook(client, { maxAgeMs: 1_000 }),
    timeoutMs: 60_000,
    pollingIntervalMs: 50,
  })
  const keys = Array.from({ length: count }, () => generatePrivateKey())
  await Promise.all(
    keys.map(async (key) => {
      const to = privateKeyToAccount(key).address
      if (gasWei > 0n) {
        await client.request({
          method: 'anvil_setBalance' as never,
          params: [to, `0x${gasWei.toString(16)}`] as never,
        })
      }
      const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
      const { receipt } = await funder.send({ to: token, data, gas: 80_000n })
      if (receipt?.status !== 'success') throw new Error('funding failed')
    }),
  )
  return keys
}

/** `amount` of the UTIL token `util` sent from `key`'s wallet to `recipient` (a top-up); its hash once mined. */
export async function sendUtil(
  rpcUrl: string,
  util: Address,
  key: Hex,
  recipient: Address,
  amount: bigint,
): Promise<Hex> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(key),
    chain: base,
    transport: http(rpcUrl),
  })
  const client = createPublicClient({ transport: http(rpcUrl) })
  const hash = await wallet.writeContract({
    address: util,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [recipient, amount],
  })
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  if (receipt.status !== 'success') throw new Error('UTIL transfer failed')
  return hash
}
