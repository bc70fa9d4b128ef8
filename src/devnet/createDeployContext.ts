import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  type TransactionReceipt,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base } from 'viem/chains'
import { pollReceipt } from '../chain/pollReceipt.js'
import { linkBytecode, loadArtifact } from './artifacts.js'
import type { DeployContext, EtchOptions, WriteParams } from './deployContext.js'
import { DEVNET_DEPLOYER_PRIVATE_KEY } from './devnetAccounts.js'

export class DeployError extends Error {
  override readonly name = 'DeployError'
}

/** How long a devnet transaction may take to be mined before the world gives up with its hash. */
const RECEIPT_TIMEOUT_MS = 30_000

export interface CreateDeployContextOptions {
  rpcUrl: string
  /** Signs every deploy/admin transaction; defaults to the devnet deployer (mnemonic index 10). */
  deployerPrivateKey?: Hex
}

interface PrestateAccount {
  storage?: Record<Hex, Hex>
}

interface PrestateDiff {
  pre: Record<string, PrestateAccount>
  post: Record<string, PrestateAccount>
}

/** viem's Base chain object pointed at the local anvil, so chain id 8453 and Base formatters apply. */
export function devnetChain(rpcUrl: string): Chain {
  return { ...base, rpcUrls: { default: { http: [rpcUrl] } } }
}

export function createDeployContext(options: CreateDeployContextOptions): DeployContext {
  const chain = devnetChain(options.rpcUrl)
  // JSON-RPC batching lets the many cheat-code calls of an etch travel in one HTTP request.
  const transport = http(options.rpcUrl, { batch: { wait: 0 }, retryCount: 0 })
  const account = privateKeyToAccount(options.deployerPrivateKey ?? DEVNET_DEPLOYER_PRIVATE_KEY)
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 })
  const walletClient = createWalletClient({ chain, transport, account, pollingInterval: 20 })
  const testClient = createTestClient({ chain, transport, mode: 'anvil', pollingInterval: 20 })

  async function receiptOf(hash: Hex): Promise<TransactionReceipt> {
    // With automine the receipt exists as soon as eth_sendRawTransaction returns; polling covers
    // interval mining. Bounded: a transaction that is never mined is a reason to fail, not to hang.
    const receipt = await pollReceipt(publicClient, hash, {
      intervalMs: 20,
      timeoutMs: RECEIPT_TIMEOUT_MS,
    }).catch(async (err: unknown) => {
      throw new DeployError(
        `transaction ${hash} not mined within ${RECEIPT_TIMEOUT_MS / 1000} s (${await stuckDiagnosis(hash)})`,
        { cause: err },
      )
    })
    if (receipt.status !== 'success') throw new DeployError(`transaction ${hash} reverted`)
    return receipt
  }

  /** What the chain says about a transaction that was never mined: for the error, best effort. */
  async function stuckDiagnosis(hash: Hex): Promise<string> {
    try {
      const [tx, latest, pending, pool, block] = await Promise.all([
        publicClient.getTransaction({ hash }).catch(() => null),
        publicClient.getTransactionCount({ address: account.address, blockTag: 'latest' }),
        publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' }),
        testClient.request({ method: 'txpool_status' } as never).catch(() => null),
        publicClient.getBlock(),
      ])
      return [
        tx === null ? 'unknown to the node' : `nonce ${tx.nonce}, maxFee ${tx.maxFeePerGas}`,
        `deployer nonce latest ${latest} pending ${pending}`,
        `pool ${JSON.stringify(pool)}`,
        `head ${block.number} baseFee ${block.baseFeePerGas}`,
      ].join('; ')
    } catch (err) {
      return `no diagnosis: ${err instanceof Error ? err.message : String(err)}`
    }
  }

  let queue: Promise<unknown> = Promise.resolve()
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn)
    queue = run.catch(() => undefined)
    return run
  }

  const sendData = (to: Address | undefined, data: Hex, value?: bigint) =>
    exclusive(() => sendDataNow(to, data, value))

  async function sendDataNow(
    to: Address | undefined,
    data: Hex,
    value?: bigint,
  ): Promise<TransactionReceipt> {
    // Estimate explicitly (a revert surfaces here, with its reason) and add headroom: several blocks are
    // mined per second, and a call estimated in the same second as the previous block can take a cheaper
    // path than it executes (e.g. Morpho skips the IRM call when no time has elapsed).
    const estimate = await publicClient.estimateGas({
      account,
      ...(to ? { to } : {}),
      data,
      value: value ?? 0n,
    })
    const gas = (estimate * 3n) / 2n + 100_000n
    const hash = await walletClient.sendTransaction({ to: to ?? null, data, value: value ?? 0n, gas })
    return receiptOf(hash)
  }

  async function deployWithReceipt(
    name: string,
    args: readonly unknown[] = [],
    libraries: Record<string, Address> = {},
  ): Promise<{ address: Address; hash: Hex }> {
    const artifact = loadArtifact(name)
    const bytecode = linkBytecode(artifact, libraries)
    const data = encodeDeployData({ abi: artifact.abi, bytecode, args } as Parameters<
      typeof encodeDeployData
    >[0])
    const receipt = await sendData(undefined, data)
    if (receipt.contractAddress === null || receipt.contractAddress === undefined) {
      throw new DeployError(`deploying ${name} produced no contract address`)
    }
    return { address: getAddress(receipt.contractAddress), hash: receipt.transactionHash }
  }

  const ctx: DeployContext = {
    publicClient,
    walletClient,
    testClient,
    deployer: account.address,
    artifact: loadArtifact,

    async deploy(name, args, libraries) {
      return (await deployWithReceipt(name, args, libraries)).address
    },

    async etch(name, at, args, libraries, etchOptions?: EtchOptions) {
      const target = getAddress(at)
      const { address: scratch, hash } = await deployWithReceipt(name, args, libraries)
      const diff = (await publicClient.request({
        method: 'debug_traceTransaction' as never,
        params: [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }] as never,
      })) as PrestateDiff
      const written = diff.post[scratch.toLowerCase()]?.storage ?? {}
      let code = await publicClient.getCode({ address: scratch })
      if (code === undefined || code === '0x')
        throw new DeployError(`${name} has no runtime code after deploy`)
      if (etchOptions?.patchSelfAddress === true) {
        // Immutables holding address(this) (e.g. Uniswap NoDelegateCall.original) must name the new home.
        code = replaceAll(code, scratch.slice(2).toLowerCase(), target.slice(2).toLowerCase())
      }
      for (const { from, to } of etchOptions?.patchWords?.(scratch, target) ?? []) {
        code = replaceAll(code, from.slice(2).toLowerCase(), to.slice(2).toLowerCase())
      }
      await Promise.all([
        testClient.setCode({ address: target, bytecode: code }),
        // A freshly created contract has nonce 1 (EIP-161); contracts that CREATE rely on it.
        testClient.setNonce({ address: target, nonce: 1 }),
        ...Object.entries(written).map(([slot, value]) =>
          testClient.setStorageAt({ address: target, index: slot as Hex, value }),
        ),
      ])
      // Leave nothing behind at the scratch address.
      await Promise.all([
        testClient.setCode({ address: scratch, bytecode: '0x' }),
        ...Object.keys(written).map((slot) =>
          testClient.setStorageAt({ address: scratch, index: slot as Hex, value: `0x${'0'.repeat(64)}` }),
        ),
      ])
      return target
    },

    exclusive,

    async write(params: WriteParams) {
      const data = encodeFunctionData({
        abi: params.abi,
        functionName: params.functionName,
        args: params.args ?? [],
      } as Parameters<typeof encodeFunctionData>[0])
      return sendData(params.address, data, params.value)
    },

    async read<T = unknown>(params: {
      address: Address
      abi: Abi
      functionName: string
      args?: readonly unknown[]
    }) {
      return (await publicClient.readContract({
        address: params.address,
        abi: params.abi,
        functionName: params.functionName,
        args: params.args ?? [],
      } as Parameters<typeof publicClient.readContract>[0])) as T
    },
  }
  return ctx
}

function replaceAll(code: Hex, from: string, to: string): Hex {
  if (from.length !== to.length) throw new DeployError('a bytecode patch must keep the code length')
  return code.toLowerCase().split(from).join(to) as Hex
}
