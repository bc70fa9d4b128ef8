/**
 * The query field the ranked ideas reads share (GET /v1/ideas, /v1/alpha); the summary output is declared
 * with its read (market/getIdeasSummary.ts).
 */
import { queryInt } from './fields.js'

export const ideasLimit = queryInt(1, 12).default(6).describe('Number of ideas, 1..12, default 6')
