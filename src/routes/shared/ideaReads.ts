/**
 * The query field and the summary output the ranked ideas reads share (GET /v1/ideas, /v1/ideas/summary,
 * /v1/alpha).
 */
import { z } from 'zod'
import { symbol } from '../../chain/fields.js'
import { queryInt } from './fields.js'
import { IDEAS_DISCLAIMER_TEXT, idea, ideaBasis, ideasSkipped } from './ideaSchema.js'

export const ideasLimit = queryInt(1, 12).default(6).describe('Number of ideas, 1..12, default 6')

export const summaryOutput = z.object({
  basis: ideaBasis,
  bestLong: idea.nullable(),
  bestShort: idea.nullable(),
  topByCategory: z.record(z.string(), idea),
  breadth: z.object({ long: z.number().int(), short: z.number().int(), neutral: z.number().int() }),
  universe: z.array(symbol).describe('The markets read'),
  skipped: ideasSkipped,
  disclaimer: IDEAS_DISCLAIMER_TEXT,
})
