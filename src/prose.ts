/**
 * A paragraph written over several source lines: every run of whitespace that holds a line break (a blank
 * line too, which the source may use to set parts apart) becomes one space, and such a run at the very
 * start or end is dropped. Spaces within a line and the interpolated values are kept as they are, so
 * re-wrapping the source never changes the published text.
 *
 * ```ts
 * description: prose`
 *   First sentence, which goes on
 *   over two lines. ${RULES}`,
 * ```
 */
export function prose(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  const last = strings.length - 1
  return strings.reduce((out, raw, i) => {
    let part = raw
    if (i === 0) part = part.replace(/^[^\S\n]*\n\s*/, '')
    if (i === last) part = part.replace(/[^\S\n]*\n\s*$/, '')
    part = part.replace(/[^\S\n]*\n\s*/g, ' ')
    return i === 0 ? part : `${out}${values[i - 1]}${part}`
  }, '')
}
