import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { CONFIG_VARIABLES } from '../src/config.js'
import { routeTable } from '../src/routes/table.js'

/**
 * The README is the front door and docs/ holds the depth (issue 23). Every relative link in them must lead
 * somewhere: to a file that exists and, with a `#fragment`, to a heading of that file as GitHub names it.
 * The README stays short, and the two lists that are copies of the code (the endpoints with their prices,
 * the environment variables) stay equal to it.
 */
const root = join(import.meta.dirname, '..')
const README = 'README.md'
const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)
const documents = [README, ...docs]
const read = (file: string) => readFileSync(join(root, file), 'utf8')

/** The text with fenced code blocks blanked (line count kept): nothing in them is a link or a heading. */
function withoutFences(text: string): string {
  let fence: string | undefined
  return text
    .split('\n')
    .map((line) => {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]
      if (fence === undefined && marker !== undefined) {
        fence = marker
        return ''
      }
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
        return ''
      }
      return line
    })
    .join('\n')
}

/** Code spans (which may wrap across lines, not across paragraphs) removed: `[a](b)` inside backticks is not a link. */
const withoutCodeSpans = (text: string) =>
  text.replace(/(`+)(?!`)(?:(?!\n[ \t]*\n)[\s\S])*?[^`]\1(?!`)|``/g, '')

/** Inline links and images `[text](target "title")` and reference definitions `[id]: target`. */
function linkTargets(markdown: string): string[] {
  const text = withoutCodeSpans(withoutFences(markdown))
  const inline = [
    ...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g),
  ]
  const references = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)]
  return [...inline, ...references].map((m) => m[1] ?? '')
}

/** GitHub's anchor for a heading: lowercase, punctuation but `-` and `_` dropped, each space a `-`. */
function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor a file offers: its ATX headings (repeats numbered `-1`, `-2`, as GitHub does). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1]
    if (heading === undefined) continue
    const slug = githubSlug(heading)
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] ?? '')
  return anchors
}

/** Where a relative link from `file` leads, and why it does not, if it does not. */
function brokenReason(file: string, target: string): string | undefined {
  const hash = target.indexOf('#')
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash))
  const fragment = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1))
  const resolved =
    pathPart === ''
      ? join(root, file)
      : pathPart.startsWith('/')
        ? join(root, pathPart)
        : resolve(dirname(join(root, file)), pathPart)
  if (!resolved.startsWith(root)) return 'leads out of the repository'
  if (!existsSync(resolved)) return `no file ${relative(root, resolved)}`
  if (fragment === undefined || fragment === '') return undefined
  if (!resolved.endsWith('.md')) return undefined
  const anchors = anchorsOf(readFileSync(resolved, 'utf8'))
  return anchors.has(fragment) ? undefined : `no heading #${fragment} in ${relative(root, resolved)}`
}

const isExternal = (target: string) => /^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith('//')

describe('documentation links', () => {
  test('default: the link reader and the slugs see what GitHub sees', () => {
    expect(githubSlug('Hostile payers: the gas limit, one settlement in flight, the cool-down')).toBe(
      'hostile-payers-the-gas-limit-one-settlement-in-flight-the-cool-down',
    )
    expect(githubSlug('Extensions: `bazaar` and builder-code')).toBe('extensions-bazaar-and-builder-code')
    expect(githubSlug('The UTIL credit rail (not built yet)')).toBe('the-util-credit-rail-not-built-yet')
    expect(githubSlug('Helpers (`test/helpers/`)')).toBe('helpers-testhelpers')
    expect(githubSlug('snake_case stays')).toBe('snake_case-stays')
    expect([...anchorsOf('# A\n## B\n```\n# not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1'])
    const sample = [
      'See [one](docs/a.md#x) and ![img](pic.png "title").',
      'Not `[code](nope.md)`, nor a span that wraps: `a',
      '[wrapped](nope2.md)`.',
      '```',
      '[fenced](nope3.md)',
      '```',
      '[ref]: docs/b.md',
    ].join('\n')
    expect(linkTargets(sample)).toEqual(['docs/a.md#x', 'pic.png', 'docs/b.md'])
  })

  test('behavior: docs/ holds the topics the README points to', () => {
    expect(docs.length).toBeGreaterThan(1)
    const fromReadme = linkTargets(read(README)).filter((t) => t.startsWith('docs/'))
    for (const file of docs) expect(fromReadme, `README links ${file}`).toContain(file)
  })

  test.each(documents.map((file) => [file] as const))(
    'behavior: every relative link in %s resolves to a file and a heading',
    (file) => {
      const broken = linkTargets(read(file))
        .filter((target) => target !== '' && !isExternal(target))
        .map((target) => ({ target, reason: brokenReason(file, target) }))
        .filter(({ reason }) => reason !== undefined)
      expect(broken).toEqual([])
    },
  )

  test('error: a link to a missing file or heading is reported', () => {
    expect(brokenReason(README, 'docs/nowhere.md')).toBe('no file docs/nowhere.md')
    expect(brokenReason(README, '#no-such-heading')).toBe('no heading #no-such-heading in README.md')
    expect(brokenReason(README, 'docs/payments.md#ledger')).toBeUndefined()
    expect(brokenReason(README, '../outside.md')).toBe('leads out of the repository')
  })
})

describe('the README', () => {
  test('behavior: it is under 250 lines', () => {
    const lines = read(README).split('\n')
    if (lines.at(-1) === '') lines.pop()
    expect(lines.length).toBeLessThan(250)
  })

  test('behavior: its endpoint table lists exactly the route table, with each posted price', () => {
    const rows = [...read(README).matchAll(/^\| (GET|POST) \| `([^`]+)` \| (free|\$[\d.]+) \|/gm)].map(
      ([, method, path, price]) => `${method} ${path} ${price === 'free' ? 'free' : Number(price?.slice(1))}`,
    )
    const table = routeTable.map((r) => `${r.method} ${r.path} ${r.priceUsd === null ? 'free' : r.priceUsd}`)
    expect(rows).toEqual(table)
  })
})

describe('docs/configuration.md', () => {
  test('behavior: its variables table lists exactly the variables the service reads', () => {
    const text = read('docs/configuration.md')
    const section = text.slice(
      text.indexOf('\n## Variables\n'),
      text.indexOf('\n## ', text.indexOf('\n## Variables\n') + 1),
    )
    const listed = [...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1])
    expect(listed.sort()).toEqual([...CONFIG_VARIABLES].sort())
  })
})
