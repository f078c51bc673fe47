import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSchemas, featureSchemas } from '../operations/index.ts';
import { makeAjv } from './validation.ts';
import { fieldErrors } from './problems.ts';
import { OrderCreate } from '../schemas/order.ts';

const schemas = [...sharedSchemas, ...Object.values(featureSchemas).flat()];

test("no compiled schema copies the errors found so far to add a referenced schema's (quadratic in a wrong array)", () => {
  const ajv = makeAjv({ coerceTypes: false }, schemas);
  const ids = schemas.map((s) => s.$id).filter((id): id is string => id !== undefined);
  assert.ok(ids.length > 20);
  for (const id of ids) {
    const code = ajv.getSchema(id)!.toString();
    assert.ok(!code.includes('.concat('), `${id} still concatenates errors`);
  }
  assert.ok(ajv.getSchema('OrderCreate')!.toString().includes('vErrors.push(vError)'), 'line items add their errors in place');
});

test('errors added in place are the same errors: every wrong line item is reported, after the first ones', () => {
  const validate = makeAjv({ coerceTypes: false }, schemas).compile({ ...OrderCreate, $id: undefined });
  const body = { ship_to: { name: 'A', street1: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' }, items: [1, { sku: 'A' }, 'x'], parcel: { weight: { value: 1, unit: 'lb' } } };
  assert.equal(validate(body), false);
  const { list, total } = fieldErrors(validate.errors!, 'body');
  assert.deepEqual(
    list.map((e) => `${e.pointer} ${e.detail}`),
    ['/items/0 must be object', '/items/1/name is required', '/items/1/quantity is required', '/items/1/unit_price is required', '/items/2 must be object'],
  );
  assert.equal(total, 5);
});
