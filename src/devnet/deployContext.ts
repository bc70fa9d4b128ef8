import type {
  Abi,
  Account,
  Address,
  Chain,
  Hex,
  PublicClient,
  TestClient,
  TransactionReceipt,
  Transport,
  WalletClient,
} from 'viem'

/** A compiled contract as stored in src/devnet/artifacts/<name>.json. */
export interface Artifact {
  contractName: string
  abi: Abi
  bytecode: Hex
  deployedBytecode: Hex
  /** solc-style link references: file → library → [{ start, length }] (byte offsets into bytecode). */
  linkReferences?: Record<string, Record<string, { start: number; length: number }[]>>
}

/**
 * Everything a devnet deploy module needs. Every protocol module exports
 * `deployX(ctx: DeployContext, deps: …): Promise<XAddresses>` and never reaches for globals.
 */
export interface DeployContext {
  publicClient: PublicClient<Transport, Chain>
  walletClient: WalletClient<Transport, Chain, Account>
  testClient: TestClient<'anvil', Transport, Chain>
  /** The account that deploys and administers every devnet contract. */
  deployer: Address
  /** Load an artifact by contract name; throws if it was not built. */
  artifact(name: string): Artifact
  /** Deploy at a scratch address and wait for the receipt. */
  deploy(name: string, args?: readonly unknown[], libraries?: Record<string, Address>): Promise<Address>
  /**
   * Deploy, then move code and constructor-written storage to `at` (a real Base address),
   * patching address-dependent immutables as needed, and clear the scratch copy.
   */
  etch(
    name: string,
    at: Address,
    args?: readonly unknown[],
    libraries?: Record<string, Address>,
    options?: EtchOptions,
  ): Promise<Address>
  /** Send a state-changing call from the deployer and wait for a successful receipt (throws on revert). */
  write(params: WriteParams): Promise<TransactionReceipt>
  /**
   * Runs `fn` while no other deployer transaction is in flight. The price pusher, the keeper and tests
   * share the deployer account: without this, two senders read the same pending nonce and one of them
   * fails ("nonce too low"), depending on timing.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>
  /** `eth_call` a view function; the caller names the expected return type. */
  read<T = unknown>(params: {
    address: Address
    abi: Abi
    functionName: string
    args?: readonly unknown[]
  }): Promise<T>
}

/** How `etch` rewrites immutables that depend on the contract's own address. */
export interface EtchOptions {
  /**
   * Replace the scratch address with the target address everywhere in the runtime code. Needed for
   * `address(this)` immutables such as Uniswap's NoDelegateCall.original. Do not use it on OpenZeppelin
   * EIP712 contracts: they notice the address change and recompute their domain separator by themselves.
   */
  patchSelfAddress?: boolean
  /** Further 32-byte words to swap, e.g. a DOMAIN_SEPARATOR cached as an immutable (Morpho Blue). */
  patchWords?: (scratch: Address, target: Address) => readonly { from: Hex; to: Hex }[]
}

export interface WriteParams {
  address: Address
  abi: Abi
  functionName: string
  args?: readonly unknown[]
  value?: bigint
}
