import { z } from 'zod'

export const TA_DISCLAIMER_TEXT = z
  .string()
  .describe('Indicative, not advice; experimental, no established edge')
