/**
 * The disclaimer of the experimental chart reads (GET /v1/ta/{sym} and /v1/ta/scan).
 */
import { z } from 'zod'

export const TA_DISCLAIMER_TEXT = z
  .string()
  .describe('Indicative, not advice; experimental, no established edge')
