import { http, type Transport } from 'viem'
import { withGasHeadroom } from '../../src/devnet/withGasHeadroom.js'

/** An HTTP transport whose gas estimates carry headroom: see `withGasHeadroom`. */
export function headroomHttp(url: string): Transport {
  return withGasHeadroom(http(url))
}
