import { DEVNET_EXPLORER_API_KEY, DEVNET_PYTH_API_KEY } from '../../src/config.js'

/** What a test sends when it reads the devnet's Pyth simulators itself (they demand the devnet's key). */
export const PYTH_KEY: RequestInit = { headers: { authorization: `Bearer ${DEVNET_PYTH_API_KEY}` } }
/** Likewise for the explorer simulator. */
export const EXPLORER_KEY: RequestInit = { headers: { authorization: `Bearer ${DEVNET_EXPLORER_API_KEY}` } }
