import { type Address, erc20Abi, getAddress, type PublicClient, parseAbiItem } from 'viem'
import type { TokenBalance, TokenBalanceSource } from './upstreams/tokenBalanceSource.js'

export interface ListedToken {
  address: Address
  name: string
  symbol: string
  decimals: number
  /** USD per whole token from the simulator, or null when the world has no reliable price for it. */
  usd: () => number | null
}

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

type Meta = TokenBalance['token']

/**
 * The explorer simulator's data, read from the devnet chain, the way an explorer indexes it: the tokens
 * an address holds are the world's deployed tokens plus every contract that ever emitted an ERC-20
 * Transfer (3 topics: ERC-721's has 4) to it, found with getLogs from block 0 and then incrementally from
 * the last block scanned for that address. A discovered token's name/symbol/decimals/totalSupply are read
 * from the chain once (cached; a contract without decimals() is not an ERC-20 and is ignored) and it has
 * no price (null). Balances are one multicall of balanceOf at the latest block, plus the native balance;
 * zero balances are left out, as explorers do.
 */
export function chainTokenBalances(client: PublicClient, tokens: readonly ListedToken[]): TokenBalanceSource {
  const listed = new Map(tokens.map((t) => [getAddress(t.address), t]))
  const scans = new Map<Address, { next: bigint; found: Set<Address> }>()
  const metas = new Map<Address, Promise<Meta | null>>()

  // A devnet can be reverted (the tests share one world per worker and revert it between files), and a
  // chain can reorg: when the last block seen has another hash now, everything learnt from the chain goes.
  let seen: { number: bigint; hash: `0x${string}` } | undefined
  async function continuity(latest: bigint): Promise<void> {
    if (seen !== undefined) {
      const then = seen.number <= latest ? await client.getBlock({ blockNumber: seen.number }) : null
      if (then?.hash !== seen.hash) {
        scans.clear()
        metas.clear()
      }
    }
    const head = await client.getBlock({ blockNumber: latest })
    seen = { number: latest, hash: head.hash }
  }

  async function discovered(owner: Address): Promise<Address[]> {
    // Uncached: a head read before a transfer just mined would leave it out of this answer.
    const latest = await client.getBlockNumber({ cacheTime: 0 })
    await continuity(latest)
    const scan = scans.get(owner) ?? { next: 0n, found: new Set<Address>() }
    scans.set(owner, scan)
    if (latest >= scan.next) {
      const from = scan.next
      scan.next = latest + 1n
      try {
        const logs = await client.getLogs({
          event: transferEvent,
          args: { to: owner },
          fromBlock: from,
          toBlock: latest,
        })
        for (const log of logs) if (log.topics.length === 3) scan.found.add(getAddress(log.address))
      } catch (err) {
        scan.next = from // scan this range again next time
        throw err
      }
    }
    return [...scan.found].filter((a) => !listed.has(a))
  }

  function metaOf(token: Address): Promise<Meta | null> {
    let meta = metas.get(token)
    if (meta === undefined) {
      meta = client
        .multicall({
          contracts: (['name', 'symbol', 'decimals', 'totalSupply'] as const).map((functionName) => ({
            address: token,
            abi: erc20Abi,
            functionName,
          })),
          allowFailure: true,
        })
        .then(([name, symbol, decimals, supply]) =>
          decimals?.status !== 'success'
            ? null
            : {
                address: token,
                name: name?.status === 'success' ? String(name.result) : '',
                symbol: symbol?.status === 'success' ? String(symbol.result) : '',
                decimals: Number(decimals.result),
                ...(supply?.status === 'success' ? { totalSupply: BigInt(supply.result) } : {}),
              },
        )
      meta.catch(() => metas.delete(token))
      metas.set(token, meta)
    }
    return meta
  }

  return {
    nativeBalance: (address) => client.getBalance({ address }),
    async tokenBalances(address) {
      const extra = (await Promise.all((await discovered(address)).map(metaOf))).filter(
        (m): m is Meta => m !== null,
      )
      const all: { meta: Meta; usd: number | null }[] = [
        ...tokens.map(({ usd, ...meta }) => ({ meta, usd: usd() })),
        ...extra.map((meta) => ({ meta, usd: null })),
      ]
      const results = await client.multicall({
        contracts: all.map((t) => ({
          address: t.meta.address,
          abi: erc20Abi,
          functionName: 'balanceOf' as const,
          args: [address] as const,
        })),
        allowFailure: true,
      })
      const held: TokenBalance[] = []
      results.forEach((r, i) => {
        const token = all[i]
        if (!token || r.status !== 'success' || r.result === 0n) return
        held.push({ token: token.meta, value: r.result, exchangeRateUsd: token.usd })
      })
      return held
    },
  }
}
