import { validateDiscoveryExtension, validateDiscoveryExtensionSpec } from '@x402/extensions/bazaar'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { routeTable } from '../../routes/table.js'
import { bazaarExtension, examplePath } from './bazaarExtension.js'

const priced = routeTable.filter((r) => r.priceUsd !== null)

describe('bazaar discovery extension, per priced route', () => {
  test.each(priced.map((r) => [r.id, r] as const))(
    'behavior: %s has a real example and a valid extension',
    (_, route) => {
      const example = route.example
      expect(example, `${route.id} needs an example`).toBeDefined()
      if (example === undefined) return
      // The example input is accepted by the route's own schemas…
      for (const [location, schema, value] of [
        ['params', route.input.params, example.params],
        ['query', route.input.query, example.query],
        ['body', route.input.body, example.body],
      ] as const) {
        if (schema === undefined) {
          expect(value, `${route.id} takes no ${location}`).toBeUndefined()
          continue
        }
        const parsed = schema.safeParse(value ?? {})
        expect(
          parsed.success,
          `${route.id} ${location}: ${z.prettifyError(parsed.error ?? new z.ZodError([]))}`,
        ).toBe(true)
      }
      expect(examplePath(route)).not.toMatch(/[{}]/)
      // …and the example output by its output schema.
      const output = route.output.safeParse(example.output)
      expect(
        output.success,
        `${route.id} output: ${z.prettifyError(output.error ?? new z.ZodError([]))}`,
      ).toBe(true)

      const extension = bazaarExtension(route)
      const checked = validateDiscoveryExtension(extension as never)
      expect(checked.errors ?? [], route.id).toEqual([])
      expect(checked.valid).toBe(true)
      expect(validateDiscoveryExtensionSpec(extension).valid).toBe(true)
    },
  )
})
