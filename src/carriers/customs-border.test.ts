import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crossesCustomsBorder, customsBorder } from './customs-border.ts';

const at = (state: string, country = 'US') => ({ street1: '1 Main St', city: 'X', state, zip: '00000', country });

test('abroad at either end, the declaration is for that country', () => {
  assert.deepEqual(customsBorder(at('TX'), at('ON', 'CA')), { kind: 'abroad', country: 'CA' });
  assert.deepEqual(customsBorder(at('BC', 'CA'), at('TX')), { kind: 'abroad', country: 'CA' });
  assert.equal(customsBorder(at('ON', 'CA'), at('BC', 'CA')), undefined);
});

test("within the US, USPS's rules: military post offices, the Pacific territories and freely associated states, and mail from the Virgin Islands", () => {
  const needs = (from: string, to: string) => crossesCustomsBorder(at(from), at(to));
  for (const [from, to] of <[string, string][]>[['TX', 'AE'], ['AP', 'CA'], ['AA', 'AE'], ['TX', 'GU'], ['AS', 'CA'], ['NY', 'MP'], ['TX', 'FM'], ['MH', 'TX'], ['HI', 'PW'], ['GU', 'MP'], ['VI', 'FL']]) {
    assert.equal(needs(from, to), true, `${from} → ${to}`);
  }
  for (const [from, to] of <[string, string][]>[['TX', 'CA'], ['TX', 'PR'], ['PR', 'NY'], ['TX', 'AK'], ['CA', 'HI'], ['FL', 'VI'], ['GU', 'GU'], ['VI', 'VI']]) {
    assert.equal(needs(from, to), false, `${from} → ${to}`);
  }
  assert.match((customsBorder(at('TX'), at('AE')) as { rule: string }).rule, /DMM 703\.2\.3\.6/);
});
