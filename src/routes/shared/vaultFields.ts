import { z } from 'zod'
import { owner } from './builder.js'
import { address, positiveAtomicAmount } from './fields.js'

export const vaultBody = z.strictObject({ vault: address, assets: positiveAtomicAmount, owner })
