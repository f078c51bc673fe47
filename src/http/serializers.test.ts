import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { nullableForSerializer } from './serializers.ts';

test('a nullable field of one type is written by type, a nullable reference and other choices stay choices', () => {
  const schema = Type.Object({
    date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'when' }),
    days: Type.Union([Type.Null(), Type.Integer({ minimum: 0 })]),
    ref: Type.Union([Type.Ref('Money'), Type.Null()]),
    either: Type.Union([Type.String(), Type.Integer()]),
    three: Type.Union([Type.String(), Type.Integer(), Type.Null()]),
    nested: Type.Array(Type.Object({ at: Type.Union([Type.String(), Type.Null()]) })),
  }, { examples: [{ date: null, anyOf: 'data, not a schema' }] });
  const out = nullableForSerializer(schema) as { properties: Record<string, unknown>; examples: unknown };
  assert.deepEqual(out.properties.date, { type: 'string', format: 'date', description: 'when', nullable: true });
  assert.deepEqual(out.properties.days, { type: 'integer', minimum: 0, nullable: true });
  assert.deepEqual(out.properties.ref, { anyOf: [{ $ref: 'Money' }, { type: 'null' }] });
  assert.deepEqual(out.properties.either, { anyOf: [{ type: 'string' }, { type: 'integer' }] });
  assert.equal((out.properties.three as { anyOf: unknown[] }).anyOf.length, 3);
  assert.deepEqual((out.properties.nested as { items: { properties: { at: unknown } } }).items.properties.at, { type: 'string', nullable: true });
  assert.deepEqual(out.examples, [{ date: null, anyOf: 'data, not a schema' }]);
  // The schema given is left as it was: the OpenAPI document and request validation read it.
  assert.ok('anyOf' in schema.properties.date);
});
