import { z } from 'zod'
import { InvalidInputError, MalformedBodyError } from '../../errors.js'
import type { InputLocation } from '../inputLocation.js'

/**
 * Validate one location of a request against its schema. On failure throws a 400 that names the first
 * offending field and says what is allowed; `details.issues` lists every problem found.
 */
export function parseInput<S extends z.ZodObject>(
  schema: S | undefined,
  raw: unknown,
  location: InputLocation,
): z.output<S> {
  // A route without a schema for this location takes nothing there; an empty object stands in.
  const target: z.ZodObject = schema ?? z.object({})
  const value = raw === undefined ? {} : raw
  if (location === 'body' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new MalformedBodyError('The request body must be a JSON object.')
  }
  if (location === 'query') rejectNonDecimalNumbers(target, value as Record<string, string>)
  const result = target.safeParse(value)
  if (result.success) return result.data as z.output<S>
  const issues = result.error.issues.map((issue) => describeIssue(issue, value, target))
  const first = issues[0] ?? { field: location, message: 'invalid input' }
  throw new InvalidInputError(first.field, `${location} ${first.message}`, { location, issues })
}

/** A plain decimal number as query strings carry it: `6`, `-1`, `0.5`, `1e3`. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/**
 * Query numbers are coerced from text, and `Number()` reads an empty string as 0 and `0x10` as 16: a
 * caller who sent `slippageBps=` would silently get 0. A numeric query field must be a plain decimal,
 * else a 400 naming it before any schema runs.
 */
function rejectNonDecimalNumbers(schema: z.ZodObject, query: Record<string, string>): void {
  for (const [field, raw] of Object.entries(query)) {
    // Own keys only: a query key such as `constructor` must not reach Object.prototype.
    if (!Object.hasOwn(schema.shape, field)) continue
    const fieldSchema = schema.shape[field] as z.core.$ZodType
    if (!isNumberSchema(fieldSchema) || DECIMAL.test(raw)) continue
    const message = `query field "${field}" must be a decimal number (e.g. 100 or 0.5), got ${JSON.stringify(raw)}.`
    throw new InvalidInputError(field, message, { location: 'query', issues: [{ field, message }] })
  }
}

/** Whether a field's schema, under default/optional/nullable wrappers, is a number. */
function isNumberSchema(schema: z.core.$ZodType): boolean {
  let cur: z.core.$ZodType = schema
  for (;;) {
    const def = cur._zod.def
    if (def.type === 'number') return true
    if (def.type !== 'default' && def.type !== 'optional' && def.type !== 'nullable') return false
    cur = (def as z.core.$ZodDefaultDef | z.core.$ZodOptionalDef | z.core.$ZodNullableDef).innerType
  }
}

/**
 * One value per query key, for every route. `?a=1&a=2` is ambiguous (frameworks differ on which value
 * wins, and a check can read one while the handler uses another), so a repeated key is a 400 naming it
 * before any schema runs. `all` is every value per key, as `c.req.queries()` gives them.
 */
export function singleQueryValues(all: Record<string, string[]>): Record<string, string> {
  // A null prototype, as the framework's own query object: `__proto__` stays an ordinary key.
  const single: Record<string, string> = Object.create(null)
  for (const [field, values] of Object.entries(all)) {
    if (values.length > 1) {
      const message = `query field "${field}" was given more than once; pass it exactly once (a list is one comma-separated value, e.g. symbols=BTC,ETH).`
      throw new InvalidInputError(field, message, { location: 'query', issues: [{ field, message }] })
    }
    single[field] = values[0] ?? ''
  }
  return single
}

interface DescribedIssue {
  field: string
  message: string
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown, schema: z.ZodObject): DescribedIssue {
  const path = issue.path.map(String)
  if (issue.code === 'unrecognized_keys') {
    const field = [...path, issue.keys[0] ?? ''].join('.')
    const allowed = path.length === 0 ? ` Allowed: ${Object.keys(schema.shape).join(', ')}.` : ''
    return { field, message: `field "${field}" is not allowed.${allowed}` }
  }
  const field = path.join('.') || '(root)'
  if (issue.code === 'invalid_type' && valueAt(value, path) === undefined) {
    return { field, message: `field "${field}" is required.` }
  }
  return { field, message: `field "${field}" ${explain(issue)}` }
}

/** Plain-words rule for an issue; schema-specific messages (patterns, refinements) pass through. */
function explain(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}.`
    case 'too_big': {
      const bound = issue.inclusive === false ? 'below' : 'at most'
      if (issue.origin === 'array') return `must have ${bound} ${issue.maximum} items.`
      if (issue.origin === 'string') return `must be ${bound} ${issue.maximum} characters.`
      return `must be ${bound} ${issue.maximum}.`
    }
    case 'too_small': {
      const bound = issue.inclusive === false ? 'above' : 'at least'
      if (issue.origin === 'array') return `must have ${bound} ${issue.minimum} items.`
      if (issue.origin === 'string') return `must be ${bound} ${issue.minimum} characters.`
      return `must be ${bound} ${issue.minimum}.`
    }
    case 'invalid_value':
      return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}.`
    default:
      return lowerFirst(issue.message)
  }
}

function valueAt(value: unknown, path: string[]): unknown {
  let cur = value
  for (const key of path) {
    if (typeof cur !== 'object' || cur === null) return undefined
    cur = (cur as Record<string, unknown>)[key]
  }
  return cur
}

function lowerFirst(s: string): string {
  return s.length > 0 ? s[0]!.toLowerCase() + s.slice(1) : s
}
