import {
  type Account,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { onFreePort } from '../../src/devnet/anvil.js'
import { type LoadedDevnet, loadDevnet } from '../../src/devnet/buildState.js'
import { devnetChain } from '../../src/devnet/createDeployContext.js'
import { demoAccounts, devnetDeployer } from '../../src/devnet/devnetAccounts.js'
import { headroomHttp } from '../helpers/headroomHttp.js'

export interface TestDevnet extends LoadedDevnet {
  chain: Chain
  publicClient: PublicClient<Transport, Chain>
  testClient: TestClient<'anvil', Transport, Chain>
  /** A wallet client that signs locally with anvil demo account #index. */
  wallet(index: number): WalletClient<Transport, Chain, Account>
  /** The devnet deployer/admin (owner of the price feeds, USDC master minter, …). */
  adminWallet(): WalletClient<Transport, Chain, Account>
  stop(): Promise<void>
}

/** One devnet per test file: loads the cached state (building it first if stale) on a free port. */
export async function startTestDevnet(): Promise<TestDevnet> {
  const loaded = await onFreePort((port) => loadDevnet({ port }))
  const chain = devnetChain(loaded.anvil.url)
  const transport = http(loaded.anvil.url)
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 })
  const testClient = createTestClient({ chain, transport, mode: 'anvil' })
  const walletTransport = headroomHttp(loaded.anvil.url)
  return {
    ...loaded,
    chain,
    publicClient,
    testClient,
    wallet(index) {
      const demo = demoAccounts[index]
      if (demo === undefined) throw new Error(`no demo account #${index}`)
      return createWalletClient({
        chain,
        transport: walletTransport,
        account: privateKeyToAccount(demo.privateKey),
        pollingInterval: 20,
      })
    },
    adminWallet() {
      return createWalletClient({
        chain,
        transport: walletTransport,
        account: privateKeyToAccount(devnetDeployer.privateKey),
        pollingInterval: 20,
      })
    },
    stop: () => loaded.anvil.stop(),
  }
}
