import { describe, expect, test } from 'vitest'
import { barChart } from './barChart.js'

describe('barChart', () => {
  test('one bar per point, heights proportional to the values, labels escaped', () => {
    const svg = barChart(
      [
        { label: '2026-11-25', value: 2 },
        { label: '<b>', value: 4 },
      ],
      'revenue',
    )
    const heights = [...svg.matchAll(/class="bar"[^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]))
    expect(heights).toHaveLength(2)
    expect(heights[1]).toBeCloseTo((heights[0] as number) * 2, 1)
    expect(svg).toContain('&#60;b&#62;')
    expect(svg).not.toContain('<b>')
  })

  test('no data draws the axis and says so', () => {
    expect(barChart([], 'revenue')).toContain('no data yet')
  })
})
