import { TOPUP_ERRORS } from '../src/payments/credit/topUpErrors.js'
import { PAYMENT_ERRORS, PAYMENT_FAULTS } from '../src/payments/paymentError.js'
import { PROP_ERRORS } from '../src/prop/propErrors.js'
import type { Route } from '../src/routes/route.js'
import { ERROR_CODES, type ErrorCode } from '../src/routes/shared/errorCodes.js'
import { ENGINE_ERRORS, impliedErrorCodes, routeErrorCodes } from '../src/routes/shared/routeErrorCodes.js'
import { routeTable } from '../src/routes/table.js'

/**
 * The error lists of docs/, generated from the registry (ERROR_CODES) and the route records' `errors`: each
 * doc holds one generated block between the markers below. `npm run docs:errors` rewrites them
 * (scripts/generateErrorDocs.ts); test/errorDocs.test.ts fails while a doc is stale.
 */
export const START = '<!-- generated:errors:start (npm run docs:errors; do not edit by hand) -->'
export const END = '<!-- generated:errors:end -->'

const IMPLIED_NOTE =
  'Every route also answers the codes its kind implies (`src/routes/shared/routeErrorCodes.ts`): ' +
  '`invalid_input`, `rate_limited`, `store_unavailable`, `not_implemented` and `upstream_unavailable` ' +
  'everywhere; `malformed_body`, `unsupported_media_type` and `body_too_large` with a body; the payment ' +
  'codes (the tables in payments.md and credit.md) on priced routes; `simulation_reverted` and `unlisted_target` on builders.'

const cell = (text: string) => text.replaceAll('|', '\\|')

/** A table of `codes`, with the routes of `group` answering each (all of them: `every`). */
function codeTable(codes: readonly ErrorCode[], group: readonly Route[], every: string): string {
  const rows = codes.map((code) => {
    const by = group.filter((route) => routeErrorCodes(route).includes(code))
    const where = by.length === group.length ? every : by.map((route) => `\`${route.path}\``).join(', ')
    const { status, meaning } = ERROR_CODES[code]
    return `| \`${code}\` | ${status} | ${cell(meaning)} | ${where} |`
  })
  return ['| code | status | meaning | answered by |', '|---|---|---|---|', ...rows].join('\n')
}

/** The codes the group's records list themselves (and, for builders, the engine's), in registry order. */
function ownCodes(group: readonly Route[], extra: readonly ErrorCode[] = []): ErrorCode[] {
  const own = new Set<ErrorCode>([...extra, ...group.flatMap((route) => route.errors)])
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => own.has(code))
}

/** Each generated doc's block, by its path under the project root. */
export function errorDocBlocks(routes: readonly Route[] = routeTable): Record<string, string> {
  const builders = routes.filter((route) => route.tier === 'builder')
  const reads = routes.filter((route) => route.tier !== 'builder')
  const payment = [...Object.keys(PAYMENT_ERRORS), ...Object.keys(PAYMENT_FAULTS)] as ErrorCode[]
  const priced = routes.filter((route) => route.priceUsd !== null)
  const prop = routes.filter((route) => route.tier === 'prop')
  // Every priced route answers the payment codes: the table says so rather than list 53 paths.
  const paymentRows = payment.filter((code) =>
    priced.every((route) => impliedErrorCodes(route).includes(code)),
  )
  return {
    'docs/builders.md': [
      'The codes builders answer besides the common ones, from `BUILD_ERRORS` (`src/builders/builderErrors.ts`), ' +
        'the other registries (`src/routes/shared/errorCodes.ts`) and each route record’s `errors`. ' +
        IMPLIED_NOTE,
      '',
      codeTable(ownCodes(builders, ENGINE_ERRORS), builders, 'every builder'),
    ].join('\n'),
    'docs/reads.md': [
      'The codes reads answer besides the common ones, from `READ_ERRORS` (`src/market/readErrors.ts`) and ' +
        'each route record’s `errors`. ' +
        IMPLIED_NOTE,
      '',
      codeTable(ownCodes(reads), reads, 'every read'),
    ].join('\n'),
    'docs/payments.md': [
      'Every priced route answers these (`PAYMENT_ERRORS` and `PAYMENT_FAULTS`, `src/payments/paymentError.ts`):',
      '',
      codeTable(paymentRows, priced, 'every priced route'),
    ].join('\n'),
    'docs/credit.md': [
      'A top-up (`X-UTIL-TOPUP`) rides on any priced call; a refusal answers the whole request, charges nothing ' +
        'and changes nothing (`TOPUP_ERRORS`, `src/payments/credit/topUpErrors.ts`):',
      '',
      codeTable(Object.keys(TOPUP_ERRORS) as ErrorCode[], priced, 'every priced route'),
    ].join('\n'),
    'docs/prop.md': [
      'The desk’s own codes (`PROP_ERRORS`, `src/prop/propErrors.ts`); `POST /v1/prop/execute` also answers the ' +
        'perp builders’ codes its build can raise (docs/builders.md). None is charged.',
      '',
      codeTable(Object.keys(PROP_ERRORS) as ErrorCode[], prop, 'both desk routes'),
    ].join('\n'),
  }
}

/** `text` with its generated block replaced by `block`; throws when the markers are missing. */
export function withBlock(text: string, block: string, path: string): string {
  const start = text.indexOf(START)
  const end = text.indexOf(END)
  if (start === -1 || end < start) throw new Error(`${path} has no ${START} … ${END} block`)
  return `${text.slice(0, start + START.length)}\n${block}\n${text.slice(end)}`
}
