import { type Address, createWalletClient, custom, erc20Abi, erc4626Abi, type Hex, parseUnits } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { morphoAbi } from '../../chain/morpho.js'
import type { DeployContext } from '../deployContext.js'
import type { DevnetAccount } from '../devnetAccounts.js'
import { withGasHeadroom } from '../withGasHeadroom.js'
import type { MorphoDeployment } from './morpho.js'

/** What the demo account holds open after the build, so every wallet read returns something. */
export const DEMO_POSITIONS = {
  morphoCollateralWeth: parseUnits('10', 18),
  morphoBorrowUsdc: parseUnits('5000', 6),
  vaultDepositUsdc: parseUnits('10000', 6),
} as const

/**
 * Opens the demo account's Morpho borrow (WETH collateral, USDC debt) and its MetaMorpho deposit, as
 * real transactions signed by that account.
 */
export async function seedDemoPositions(
  ctx: DeployContext,
  account: DevnetAccount,
  deps: { morpho: MorphoDeployment; USDC: Address; WETH: Address },
): Promise<void> {
  const wallet = createWalletClient({
    chain: ctx.publicClient.chain,
    transport: withGasHeadroom(custom({ request: ctx.publicClient.request })),
    account: privateKeyToAccount(account.privateKey),
  })
  const send = async (hash: Promise<Hex>) => {
    const receipt = await ctx.publicClient.waitForTransactionReceipt({
      hash: await hash,
      pollingInterval: 20,
    })
    if (receipt.status !== 'success')
      throw new Error(`demo position transaction ${receipt.transactionHash} reverted`)
  }
  const { morpho, metaMorphoUsdcVault, markets } = deps.morpho
  const params = markets.WETH_USDC.params
  const me = wallet.account.address
  // Explicit gas: estimation in the same second as the previous block can skip the IRM's accrual path.
  const gas = 1_500_000n
  await send(
    wallet.writeContract({
      address: deps.WETH,
      abi: erc20Abi,
      functionName: 'approve',
      args: [morpho, DEMO_POSITIONS.morphoCollateralWeth],
    }),
  )
  await send(
    wallet.writeContract({
      address: morpho,
      abi: morphoAbi,
      functionName: 'supplyCollateral',
      args: [params, DEMO_POSITIONS.morphoCollateralWeth, me, '0x'],
      gas,
    }),
  )
  await send(
    wallet.writeContract({
      address: morpho,
      abi: morphoAbi,
      functionName: 'borrow',
      args: [params, DEMO_POSITIONS.morphoBorrowUsdc, 0n, me, me],
      gas,
    }),
  )
  await send(
    wallet.writeContract({
      address: deps.USDC,
      abi: erc20Abi,
      functionName: 'approve',
      args: [metaMorphoUsdcVault, DEMO_POSITIONS.vaultDepositUsdc],
    }),
  )
  await send(
    wallet.writeContract({
      address: metaMorphoUsdcVault,
      abi: erc4626Abi,
      functionName: 'deposit',
      args: [DEMO_POSITIONS.vaultDepositUsdc, me],
      gas,
    }),
  )
}
