import { esc } from './html.js'

/**
 * A bar chart as inline SVG, drawn on the server: one bar per point, labelled below, valued above. Empty
 * data draws the axis and says so, never a blank box.
 */
export function barChart(points: readonly { label: string; value: number }[], title: string): string {
  const width = 640
  const height = 220
  const top = 24
  const bottom = 36
  const max = Math.max(0, ...points.map((p) => p.value))
  const slot = points.length === 0 ? width : width / points.length
  const bars = points
    .map((p, i) => {
      const h = max === 0 ? 0 : ((height - top - bottom) * p.value) / max
      const x = i * slot + slot * 0.15
      const y = height - bottom - h
      return (
        `<rect class="bar" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" ` +
        `height="${h.toFixed(1)}" fill="#3b6fd8"><title>${esc(`${p.label}: ${p.value}`)}</title></rect>` +
        `<text x="${(x + slot * 0.35).toFixed(1)}" y="${height - bottom + 14}" font-size="11" text-anchor="middle">` +
        `${esc(p.label)}</text><text x="${(x + slot * 0.35).toFixed(1)}" y="${(y - 4).toFixed(1)}" font-size="11" ` +
        `text-anchor="middle">${esc(String(p.value))}</text>`
      )
    })
    .join('')
  const empty =
    points.length === 0
      ? `<text x="${width / 2}" y="${height / 2}" text-anchor="middle" fill="#667">no data yet</text>`
      : ''
  return (
    `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${width} ${height}" width="100%">` +
    `<line x1="0" y1="${height - bottom}" x2="${width}" y2="${height - bottom}" stroke="#999"/>${bars}${empty}</svg>`
  )
}
