import { test } from 'node:test';
import assert from 'node:assert/strict';
import { misfits, parseShown, printedValues } from './shown-json.ts';

const fits = (shown: string, actual: unknown) => misfits(parseShown(shown), actual);

test('a shown answer fits what varies and refuses what differs', () => {
  const answer = {
    id: 'shp_01m8d1k27m',
    status: 'purchased',
    postage: { amount: '12.00', currency: 'USD' },
    created_at: '2026-11-27T08:00:00.000Z',
    events: ['a', 'b', 'c'],
  };
  assert.deepEqual(fits('{"id":"shp_…","status":"purchased",…,"created_at":"2026-01-01T00:00:00Z","events":["a",…]}', answer), []);
  assert.deepEqual(fits('{"id":"shp_…","status":"voided",…}', answer), ['/status: shown "voided", got "purchased"']);
  assert.deepEqual(fits('{"id":"ord_…",…}', answer), ['/id: shown "ord_…", got "shp_01m8d1k27m"']);
  assert.deepEqual(fits('{"id":"shp_…","status":"purchased","created_at":…,"events":[…]}', answer), ['/postage: in the answer, but not shown (and no …)']);
  assert.deepEqual(fits('{"events":["a","b"],…}', answer), ['/events: shown 2 elements, got 3']);
  assert.deepEqual(fits('{"created_at":"2026-12-03",…}', answer), ['/created_at: shown "2026-12-03", got "2026-11-27T08:00:00.000Z"']);
  assert.deepEqual(fits('{"missing":null,…}', answer), ['/missing: shown, but not in the answer']);
});

test('printed answers are read one after another, and anything else is refused', () => {
  assert.deepEqual(printedValues('{"a":"}{"}[1]\n{"b":2}'), [{ a: '}{' }, [1], { b: 2 }]);
  assert.throws(() => printedValues('ord_123'), /not JSON/);
  assert.throws(() => parseShown('{"a":1,…'), /expected }/);
});
