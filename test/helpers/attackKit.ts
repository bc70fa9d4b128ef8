import type { PaymentPayload } from '@x402/core/types'
import {
  type Abi,
  type Account,
  type Chain,
  createTestClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  type LocalAccount,
  parseAbi,
  parseGwei,
  parseSignature,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { USDC } from '../../src/chain/network.js'
import { pollReceipt } from '../../src/chain/pollReceipt.js'
import type { ErrorBody } from '../../src/errors.js'
import { USDC_DOMAIN } from '../../src/payments/exact/recoverAuthorizer.js'
import { RECEIPT } from './chainChecks.js'
import { testContracts } from './compileSolidity.js'
import { errorOf } from './errorOf.js'
import { encodePayment, type ServiceWorld } from './serviceWorld.js'

/** What a test reads of an answer: the status, the error code, the body (JSON, else its text), the headers. */
export interface Answer<B = Partial<ErrorBody> & Record<string, unknown>> {
  status: number
  code: string | undefined
  body: B
  headers: Headers
}

/** One request with exactly these headers (a payment header made by hand, a forged one, none). */
export async function send<B = Partial<ErrorBody> & Record<string, unknown>>(
  url: string,
  headers: Record<string, string>,
  init: RequestInit = {},
): Promise<Answer<B>> {
  const res = await fetch(url, { ...init, headers })
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  const code = errorOf(body)?.code
  return { status: res.status, code, body: body as B, headers: res.headers }
}

/** One request paying with `payload` in PAYMENT-SIGNATURE. */
export const pay = (
  url: string,
  payload: PaymentPayload,
  extra: Record<string, string> = {},
  init: RequestInit = {},
) => send(url, { 'PAYMENT-SIGNATURE': encodePayment(payload), ...extra }, init)

/** A client address of its own per test, behind TRUST_PROXY=1 (the rightmost X-Forwarded-For entry). */
export const clientIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`

export const count = (answers: Answer[], pick: (a: Answer) => boolean) => answers.filter(pick).length

/** Outbids the relayer: with automine off, the block orders transactions by tip. */
export const HIGH_TIP = {
  gas: 150_000n,
  maxPriorityFeePerGas: parseGwei('50'),
  maxFeePerGas: parseGwei('100'),
}

/**
 * Runs `body` with no block mined but those the test mines (automine off, the world's interval miner
 * paused), then mines as the file did before.
 */
export async function withoutAutomine<T>(
  sw: ServiceWorld,
  body: (mine: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const testClient = createTestClient({ mode: 'anvil', transport: http(sw.world.rpcUrl) })
  const blockTime = sw.world.blockTime()
  await sw.world.setBlockTime(0)
  await testClient.setAutomine(false)
  try {
    return await body(() => testClient.mine({ blocks: 1 }))
  } finally {
    await sw.world.setBlockTime(blockTime)
  }
}

/** Waits until the pending block holds at least `count` transactions. */
export async function waitForPendingTx(sw: ServiceWorld, count: number, timeoutMs = 4_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const block = await sw.chain.getBlock({ blockTag: 'pending' })
    if (block.transactions.length >= count) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`expected ${count} pending transactions`)
}

/** Waits until a transaction of the relayer is pending (not the keeper's or a funder's). */
export async function relayerPending(
  sw: ServiceWorld,
  relayer: `0x${string}`,
  timeoutMs = 4_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const block = await sw.chain.getBlock({ blockTag: 'pending', includeTransactions: true })
    if (block.transactions.some((t) => t.from.toLowerCase() === relayer.toLowerCase())) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error('no relayer transaction became pending')
}

/** How many of the pending block's transactions `from` sent (the keeper may have some there too). */
export async function pendingFrom(sw: ServiceWorld, from: `0x${string}`): Promise<number> {
  const block = await sw.chain.getBlock({ blockTag: 'pending', includeTransactions: true })
  return block.transactions.filter((t) => t.from.toLowerCase() === from.toLowerCase()).length
}

/** How many transactions the pending block holds now. */
export async function pendingTxCount(sw: ServiceWorld): Promise<number> {
  return (await sw.chain.getBlock({ blockTag: 'pending' })).transactions.length
}

type Wallet = WalletClient<Transport, Chain, Account>

/** A wallet client of the world's chain for a private key (an attacker, a payer sending its own txs). */
export const walletOf = (sw: ServiceWorld, privateKey: Hex): Wallet =>
  createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain: base,
    transport: http(sw.world.rpcUrl),
  })

/** Deploys one of the test-only contracts of test/contracts from `from`. */
export async function deployTestContract(
  sw: ServiceWorld,
  from: Wallet,
  name: string,
  args: readonly unknown[] = [],
): Promise<{ address: `0x${string}`; abi: Abi }> {
  const artifact = testContracts().get(name)
  if (artifact === undefined) throw new Error(`${name} not compiled`)
  const hash = await from.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never)
  const receipt = await pollReceipt(sw.chain, hash, RECEIPT)
  return { address: getAddress(receipt.contractAddress as string), abi: artifact.abi }
}

/** Sends `amount` USDC from `from` to `to` and waits for it. */
export async function sendUsdc(
  sw: ServiceWorld,
  from: Wallet,
  to: `0x${string}`,
  amount: bigint,
): Promise<void> {
  const hash = await from.writeContract({
    address: USDC,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  })
  await pollReceipt(sw.chain, hash, RECEIPT)
}

/** The relayer's nonce and ETH balance: what a settlement costs it shows here. */
export async function relayerState(sw: ServiceWorld, relayer: `0x${string}`) {
  const [nonce, eth] = await Promise.all([
    sw.chain.getTransactionCount({ address: relayer }),
    sw.chain.getBalance({ address: relayer }),
  ])
  return { nonce, eth }
}

/** The relayer's transactions mined after `fromBlock`, with their receipts. */
export async function relayerReceipts(
  sw: ServiceWorld,
  relayer: `0x${string}`,
  fromBlock: bigint,
): Promise<TransactionReceipt[]> {
  const head = await sw.chain.getBlockNumber()
  const receipts: TransactionReceipt[] = []
  for (let b = fromBlock + 1n; b <= head; b++) {
    const block = await sw.chain.getBlock({ blockNumber: b, includeTransactions: true })
    for (const t of block.transactions)
      if (t.from.toLowerCase() === relayer.toLowerCase())
        receipts.push(await sw.chain.getTransactionReceipt({ hash: t.hash }))
  }
  return receipts
}

export const USDC_CANCEL_ABI = parseAbi([
  'function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
])

/** The payer's own `cancelAuthorization` of `nonce`, signed: the call to send (with a tip of one's choosing). */
export async function cancelAuthorization(account: LocalAccount, nonce: Hex) {
  const sig = parseSignature(
    await account.signTypedData({
      domain: USDC_DOMAIN,
      types: {
        CancelAuthorization: [
          { name: 'authorizer', type: 'address' },
          { name: 'nonce', type: 'bytes32' },
        ],
      },
      primaryType: 'CancelAuthorization',
      message: { authorizer: account.address, nonce },
    }),
  )
  return {
    address: USDC,
    abi: USDC_CANCEL_ABI,
    functionName: 'cancelAuthorization' as const,
    args: [account.address, nonce, Number(sig.v), sig.r, sig.s] as const,
  }
}
