import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDatabaseUnavailable } from './unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('lost connections and shutdowns are unavailability', () => {
  for (const e of [withCode('ECONNREFUSED'), withCode('08006'), withCode('57P01'), withCode('SQLITE_BUSY'), new Error('timeout exceeded when trying to connect'), new Error('Connection terminated unexpectedly'), new Error('Client has encountered a connection error and is not queryable')]) {
    assert.equal(isDatabaseUnavailable(e), true, e.message);
  }
});

test('bugs and constraint violations are not', () => {
  for (const e of [withCode('23505'), withCode('42P01'), new TypeError('x is undefined'), 'a string']) {
    assert.equal(isDatabaseUnavailable(e), false);
  }
});
