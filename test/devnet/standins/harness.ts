/**
 * Devnet harness for the stand-in tests: compiles contracts/standins/** with solc-js (cached under the OS temp
 * dir, same settings as scripts/buildContracts.ts) so the tests never depend on a stale src/devnet/artifacts,
 * starts anvil (chainId 8453) and builds a DeployContext on top of createDeployContext.
 */
import { join } from 'node:path'
import {
  type Account,
  type Address,
  type Chain,
  createWalletClient,
  getAddress,
  type Hex,
  type Transport,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { pollReceipt } from '../../../src/chain/pollReceipt.js'
import { type AnvilInstance, onFreePort, startAnvil } from '../../../src/devnet/anvil.js'
import { loadArtifact } from '../../../src/devnet/artifacts.js'
import { createDeployContext, devnetChain } from '../../../src/devnet/createDeployContext.js'
import type { Artifact, DeployContext } from '../../../src/devnet/deployContext.js'
import { demoAccounts } from '../../../src/devnet/devnetAccounts.js'
import { RECEIPT } from '../../helpers/chainChecks.js'
import { compileSolidity, listSol, projectRoot } from '../../helpers/compileSolidity.js'
import { headroomHttp } from '../../helpers/headroomHttp.js'

/** Compile every contracts/standins/**.sol in one unit (0.8.28, cancun, optimizer 200 — the build's settings). */
export function compileStandIns(): Map<string, Artifact> {
  return compileSolidity(listSol(join(projectRoot, 'contracts/standins')))
}

export interface Harness {
  anvil: AnvilInstance
  ctx: DeployContext
  /** Wallet clients for anvil demo accounts 1 and 2 (funded with ETH). */
  users: WalletClient<Transport, Chain, Account>[]
  stop(): Promise<void>
}

interface PrestateDiff {
  post: Record<string, { storage?: Record<Hex, Hex> }>
}

/**
 * Start anvil and build a DeployContext: helper A's createDeployContext for clients/read/write, with
 * artifact/deploy/etch resolving the freshly compiled stand-ins first and src/devnet/artifacts second.
 */
export async function startHarness(): Promise<Harness> {
  const compiled = compileStandIns()
  const anvil = await onFreePort((port) => startAnvil({ port }))
  const inner = createDeployContext({ rpcUrl: anvil.url, deployerPrivateKey: demoAccounts[0]!.privateKey })
  const { publicClient, walletClient, testClient } = inner
  const chain = devnetChain(anvil.url)
  const users = demoAccounts.slice(1, 3).map(({ privateKey }) =>
    createWalletClient({
      chain,
      transport: headroomHttp(anvil.url),
      account: privateKeyToAccount(privateKey),
      pollingInterval: 20,
    }),
  )

  const artifact = (name: string): Artifact => compiled.get(name) ?? loadArtifact(name)

  const deployRaw = async (
    name: string,
    args: readonly unknown[] = [],
  ): Promise<{ address: Address; hash: Hex }> => {
    const a = artifact(name)
    const hash = await walletClient.deployContract({ abi: a.abi, bytecode: a.bytecode, args })
    const receipt = await pollReceipt(publicClient, hash, RECEIPT)
    if (receipt.status !== 'success' || receipt.contractAddress == null)
      throw new Error(`deploy ${name} failed`)
    return { address: getAddress(receipt.contractAddress), hash }
  }

  const ctx: DeployContext = {
    ...inner,
    artifact,
    deploy: async (name, args) => (await deployRaw(name, args)).address,
    etch: async (name, at, args, _libraries, options) => {
      const target = getAddress(at)
      const { address: scratch, hash } = await deployRaw(name, args)
      let code = (await publicClient.getCode({ address: scratch })) ?? '0x'
      if (options?.patchSelfAddress === true) {
        code = code
          .toLowerCase()
          .split(scratch.slice(2).toLowerCase())
          .join(target.slice(2).toLowerCase()) as Hex
      }
      const diff = (await publicClient.request({
        method: 'debug_traceTransaction' as never,
        params: [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }] as never,
      })) as PrestateDiff
      const storage = diff.post[scratch.toLowerCase()]?.storage ?? {}
      await testClient.setCode({ address: target, bytecode: code })
      await testClient.setNonce({ address: target, nonce: 1 })
      for (const [slot, value] of Object.entries(storage)) {
        await testClient.setStorageAt({ address: target, index: slot as Hex, value })
        await testClient.setStorageAt({ address: scratch, index: slot as Hex, value: `0x${'0'.repeat(64)}` })
      }
      await testClient.setCode({ address: scratch, bytecode: '0x' })
      return target
    },
  }
  return { anvil, ctx, users, stop: () => anvil.stop() }
}
