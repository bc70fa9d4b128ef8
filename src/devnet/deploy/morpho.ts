import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
  parseUnits,
  toHex,
} from 'viem'
import { BASE_ADDRESSES } from '../../chain/addresses.js'
import { DEVNET_VAULTS } from '../../chain/lendingCatalog.js'
import { type MorphoMarketParams, morphoAbi, morphoMarketId } from '../../chain/morpho.js'
import { DEVNET_ADDRESSES } from '../addresses.js'
import type { DeployContext } from '../deployContext.js'
import { approve, ensureDeployerBalance } from './tokens.js'

export interface MorphoMarket {
  id: Hex
  params: MorphoMarketParams
  /** Loan-token units supplied by the deployer at build time. */
  seededSupply: bigint
  /** Loan-token units borrowed by the deployer at build time (gives the market a live utilisation). */
  seededBorrow: bigint
}

export interface MorphoDeployment {
  morpho: Address
  adaptiveCurveIrm: Address
  oracles: { WETH_USDC: Address; cbBTC_USDC: Address; cbBTC_WETH: Address }
  markets: { WETH_USDC: MorphoMarket; cbBTC_USDC: MorphoMarket; cbBTC_WETH: MorphoMarket }
  /** Real MetaMorpho v1.0 bytecode over USDC, allocating to the two USDC markets (DEVNET_VAULTS.metaMorphoUsdc). */
  metaMorphoUsdcVault: Address
  /** Plain OpenZeppelin ERC-4626 over USDC. */
  plainUsdcVault: Address
}

export interface DeployMorphoDeps {
  USDC: Address
  WETH: Address
  cbBTC: Address
  feeds: { ETH_USD: Address; BTC_USD: Address; USDC_USD: Address }
  /** USD prices matching the feeds, used to size the seeded collateral. */
  ethUsd: number
  btcUsd: number
}

const metaMorphoAbi = parseAbi([
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'function submitCap(MarketParams marketParams, uint256 newSupplyCap)',
  'function acceptCap(MarketParams marketParams)',
  'function setSupplyQueue(bytes32[] newSupplyQueue)',
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function timelock() view returns (uint256)',
])

const erc4626DepositAbi = parseAbi(['function deposit(uint256 assets, address receiver) returns (uint256)'])

/** Morpho Blue's cached DOMAIN_SEPARATOR for a given address on chain 8453. */
function morphoDomainSeparator(address: Address): Hex {
  const typeHash = keccak256(toHex('EIP712Domain(uint256 chainId,address verifyingContract)'))
  return keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
      [typeHash, 8453n, address],
    ),
  )
}

const LLTVS = ['0.385', '0.625', '0.77', '0.86', '0.915', '0.945', '0.965', '0.98'].map((v) =>
  parseUnits(v, 18),
)

const VAULT_TIMELOCK = 86_400n

/**
 * Morpho Blue (compiled from @morpho-org/morpho-blue) at its Base address, the real AdaptiveCurveIrm at its
 * Base address, feed-backed oracles, three markets with supply and some borrowing, a MetaMorpho vault and a
 * plain ERC-4626 vault.
 */
export async function deployMorpho(ctx: DeployContext, deps: DeployMorphoDeps): Promise<MorphoDeployment> {
  const morpho = await ctx.etch(
    'Morpho',
    BASE_ADDRESSES.MorphoBlue,
    [ctx.deployer],
    {},
    {
      // Morpho caches its EIP-712 domain separator as an immutable computed from address(this).
      patchWords: (scratch, target) => [
        { from: morphoDomainSeparator(scratch), to: morphoDomainSeparator(target) },
      ],
    },
  )
  const adaptiveCurveIrm = await ctx.etch('AdaptiveCurveIrm', BASE_ADDRESSES.AdaptiveCurveIrm, [morpho])
  await ctx.write({ address: morpho, abi: morphoAbi, functionName: 'enableIrm', args: [adaptiveCurveIrm] })
  for (const lltv of LLTVS) {
    await ctx.write({ address: morpho, abi: morphoAbi, functionName: 'enableLltv', args: [lltv] })
  }

  const oracles = {
    WETH_USDC: await ctx.etch('MorphoFeedOracle', DEVNET_ADDRESSES.MORPHO_ORACLE_WETH_USDC, [
      deps.feeds.ETH_USD,
      deps.feeds.USDC_USD,
      18,
      6,
    ]),
    cbBTC_USDC: await ctx.etch('MorphoFeedOracle', DEVNET_ADDRESSES.MORPHO_ORACLE_CBBTC_USDC, [
      deps.feeds.BTC_USD,
      deps.feeds.USDC_USD,
      8,
      6,
    ]),
    cbBTC_WETH: await ctx.etch('MorphoFeedOracle', DEVNET_ADDRESSES.MORPHO_ORACLE_CBBTC_WETH, [
      deps.feeds.BTC_USD,
      deps.feeds.ETH_USD,
      8,
      18,
    ]),
  }

  const lltv86 = parseUnits('0.86', 18)
  const lltv915 = parseUnits('0.915', 18)
  const usdc = (n: number) => parseUnits(String(n), 6)
  const specs = {
    WETH_USDC: {
      params: {
        loanToken: deps.USDC,
        collateralToken: deps.WETH,
        oracle: oracles.WETH_USDC,
        irm: adaptiveCurveIrm,
        lltv: lltv86,
      },
      supply: usdc(20_000_000),
      borrow: usdc(14_000_000),
      collateral: parseUnits(String(Math.ceil((14_000_000 * 2) / deps.ethUsd)), 18),
    },
    cbBTC_USDC: {
      params: {
        loanToken: deps.USDC,
        collateralToken: deps.cbBTC,
        oracle: oracles.cbBTC_USDC,
        irm: adaptiveCurveIrm,
        lltv: lltv86,
      },
      supply: usdc(20_000_000),
      borrow: usdc(15_000_000),
      collateral: parseUnits(String(Math.ceil((15_000_000 * 2) / deps.btcUsd)), 8),
    },
    cbBTC_WETH: {
      params: {
        loanToken: deps.WETH,
        collateralToken: deps.cbBTC,
        oracle: oracles.cbBTC_WETH,
        irm: adaptiveCurveIrm,
        lltv: lltv915,
      },
      supply: parseUnits('5000', 18),
      borrow: parseUnits('3000', 18),
      collateral: parseUnits(String(Math.ceil((3000 * deps.ethUsd * 2) / deps.btcUsd)), 8),
    },
  } satisfies Record<
    string,
    { params: MorphoMarketParams; supply: bigint; borrow: bigint; collateral: bigint }
  >

  const markets = {} as MorphoDeployment['markets']
  for (const [name, spec] of Object.entries(specs) as [
    keyof typeof specs,
    (typeof specs)[keyof typeof specs],
  ][]) {
    await ctx.write({ address: morpho, abi: morphoAbi, functionName: 'createMarket', args: [spec.params] })
    await ensureDeployerBalance(ctx, spec.params.loanToken, spec.supply)
    await approve(ctx, spec.params.loanToken, morpho, maxUint256)
    await ctx.write({
      address: morpho,
      abi: morphoAbi,
      functionName: 'supply',
      args: [spec.params, spec.supply, 0n, ctx.deployer, '0x'],
    })
    await ensureDeployerBalance(ctx, spec.params.collateralToken, spec.collateral)
    await approve(ctx, spec.params.collateralToken, morpho, maxUint256)
    await ctx.write({
      address: morpho,
      abi: morphoAbi,
      functionName: 'supplyCollateral',
      args: [spec.params, spec.collateral, ctx.deployer, '0x'],
    })
    await ctx.write({
      address: morpho,
      abi: morphoAbi,
      functionName: 'borrow',
      args: [spec.params, spec.borrow, 0n, ctx.deployer, ctx.deployer],
    })
    markets[name] = {
      id: morphoMarketId(spec.params),
      params: spec.params,
      seededSupply: spec.supply,
      seededBorrow: spec.borrow,
    }
  }

  const metaMorphoUsdcVault = await deployMetaMorpho(ctx, {
    at: DEVNET_VAULTS.metaMorphoUsdc,
    morpho,
    asset: deps.USDC,
    markets: [markets.WETH_USDC.params, markets.cbBTC_USDC.params],
    cap: usdc(50_000_000),
    seedDeposit: usdc(1_000_000),
  })

  const plainUsdcVault = await ctx.etch('PlainVault', DEVNET_ADDRESSES.PLAIN_USDC_VAULT, [
    deps.USDC,
    'agentdesk Plain USDC Vault',
    'pvUSDC',
  ])
  await ensureDeployerBalance(ctx, deps.USDC, usdc(100_000))
  await approve(ctx, deps.USDC, plainUsdcVault, maxUint256)
  await ctx.write({
    address: plainUsdcVault,
    abi: erc4626DepositAbi,
    functionName: 'deposit',
    args: [usdc(100_000), ctx.deployer],
  })

  return { morpho, adaptiveCurveIrm, oracles, markets, metaMorphoUsdcVault, plainUsdcVault }
}

/**
 * Deploy MetaMorpho v1.0 (real bytecode) at `at` and make it allocate to `markets`. The address is fixed
 * (the service lists the vault from its address book, so it must not depend on the deployer's nonce).
 * MetaMorpho only accepts a
 * timelock of at least one day, and raising a cap waits out the timelock; instead of moving the devnet clock
 * a day ahead (which would break wall-clock-based signatures such as EIP-3009 validBefore), the timelock
 * slot is zeroed for the configuration and restored to one day afterwards.
 */
async function deployMetaMorpho(
  ctx: DeployContext,
  params: {
    at: Address
    morpho: Address
    asset: Address
    markets: MorphoMarketParams[]
    cap: bigint
    seedDeposit: bigint
  },
): Promise<Address> {
  // No immutable holds address(this): OpenZeppelin's EIP712 recomputes its separator at the new address.
  const vault = await ctx.etch('MetaMorpho', params.at, [
    ctx.deployer,
    params.morpho,
    VAULT_TIMELOCK,
    params.asset,
    'agentdesk USDC Prime',
    'adUSDC',
  ])
  // The constructor's `asset.forceApprove(morpho, max)` lives in the asset's storage, keyed by the scratch
  // address (which has no code and no key afterwards): the etched vault grants its own.
  await approveAs(ctx, vault, params.asset, params.morpho, maxUint256)
  const timelockSlot = await findSlotHolding(ctx, vault, VAULT_TIMELOCK)
  const word = (value: bigint): Hex => toHex(value, { size: 32 })
  await ctx.testClient.setStorageAt({ address: vault, index: timelockSlot, value: word(0n) })
  for (const market of params.markets) {
    await ctx.write({
      address: vault,
      abi: metaMorphoAbi,
      functionName: 'submitCap',
      args: [market, params.cap],
    })
    await ctx.write({ address: vault, abi: metaMorphoAbi, functionName: 'acceptCap', args: [market] })
  }
  await ctx.write({
    address: vault,
    abi: metaMorphoAbi,
    functionName: 'setSupplyQueue',
    args: [params.markets.map(morphoMarketId)],
  })
  await ctx.testClient.setStorageAt({ address: vault, index: timelockSlot, value: word(VAULT_TIMELOCK) })
  const timelock = await ctx.read<bigint>({ address: vault, abi: metaMorphoAbi, functionName: 'timelock' })
  if (timelock !== VAULT_TIMELOCK)
    throw new Error(`MetaMorpho timelock slot patch failed (reads ${timelock})`)

  await ensureDeployerBalance(ctx, params.asset, params.seedDeposit)
  await approve(ctx, params.asset, vault, maxUint256)
  await ctx.write({
    address: vault,
    abi: metaMorphoAbi,
    functionName: 'deposit',
    args: [params.seedDeposit, ctx.deployer],
  })
  return vault
}

/** `owner` (a contract, impersonated) approves `spender` on `token`. */
async function approveAs(
  ctx: DeployContext,
  owner: Address,
  token: Address,
  spender: Address,
  amount: bigint,
): Promise<void> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
  await ctx.exclusive(async () => {
    await ctx.testClient.impersonateAccount({ address: owner })
    await ctx.testClient.setBalance({ address: owner, value: parseUnits('1', 18) })
    try {
      const hash = (await ctx.publicClient.request({
        method: 'eth_sendTransaction' as never,
        params: [{ from: owner, to: token, data }] as never,
      })) as Hex
      const receipt = await ctx.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      if (receipt.status !== 'success') throw new Error(`approve from ${owner} on ${token} reverted`)
    } finally {
      await ctx.testClient.stopImpersonatingAccount({ address: owner })
      await ctx.testClient.setBalance({ address: owner, value: 0n })
    }
  })
}

async function findSlotHolding(ctx: DeployContext, address: Address, value: bigint): Promise<Hex> {
  const indexes = Array.from({ length: 64 }, (_, slot) => toHex(slot, { size: 32 }))
  // One batched JSON-RPC request for all slots.
  const words = await Promise.all(indexes.map((slot) => ctx.publicClient.getStorageAt({ address, slot })))
  const found = words.findIndex((word) => word !== undefined && BigInt(word) === value)
  if (found !== -1) return indexes[found]!
  throw new Error(`no storage slot of ${address} holds ${value}`)
}
