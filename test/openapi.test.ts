import SwaggerParser from '@apidevtools/swagger-parser'
import { describe, expect, test } from 'vitest'
import { testApp } from './helpers/testApp.js'

describe('/v1/openapi.json', () => {
  test('behavior: passes an independent OpenAPI 3.1 validator', async () => {
    const { app } = await testApp()
    const doc = (await (await app.request('http://x/v1/openapi.json')).json()) as Record<string, unknown>
    expect(doc.openapi).toBe('3.1.0')
    expect((doc.info as { version: string }).version).toBe('1.0.0')
    // validate() dereferences in place: hand it a copy.
    const validated = await SwaggerParser.validate(structuredClone(doc) as never)
    expect(Object.keys(validated.paths ?? {}).length).toBeGreaterThan(50)
  })
})
