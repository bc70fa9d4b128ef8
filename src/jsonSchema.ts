import { z } from 'zod'

/** A JSON Schema document (2020-12, the dialect OpenAPI 3.1 uses), as plain data. */
export type JsonSchema = Record<string, unknown>

/**
 * The JSON Schema of a zod schema, as the documents and the 402 challenges publish it. `reused: 'ref'`
 * moves a subschema used more than once into `$defs` (referenced as `#/$defs/…`).
 */
export function toJsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  reused: 'inline' | 'ref' = 'inline',
): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    // Every route schema must be expressible in JSON Schema: a type that is not fails at start, not as `{}`.
    unrepresentable: 'throw',
    reused,
  }) as JsonSchema
  return rest
}
