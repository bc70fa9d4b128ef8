/**
 * The body of the ERC-4626 vault builders (POST /v1/tx/earn/deposit and /v1/tx/earn/withdraw).
 */
import { z } from 'zod'
import { owner } from './builder.js'
import { address, positiveAtomicAmount } from './fields.js'

export const vaultBody = z.strictObject({ vault: address, assets: positiveAtomicAmount, owner })
