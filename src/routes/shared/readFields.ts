/**
 * The wallet path parameter of the wallet reads (their output fields are in market/readFields.ts).
 */
import { z } from 'zod'
import { address } from '../../chain/fields.js'

export const walletParams = z.object({ address })
