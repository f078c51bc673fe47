import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domesticServices } from '../catalog.ts';
import { optionPriceCents } from './prices/option-prices.ts';

test("UPS's standard signature is $7.70 on every domestic UPS service, whatever the zone; its adult signature has no price", () => {
  for (const s of domesticServices('ups')) {
    for (const zone of ['2', '5', '8']) assert.deepEqual(optionPriceCents('ups', s.code, 'signature:standard', zone), { cents: 770, listCents: 770 }, `${s.code} zone ${zone}`);
    assert.equal(optionPriceCents('ups', s.code, 'signature:adult', '5'), undefined, s.code);
  }
});

test('options the published lists give no amount for stay unpriced, so test mode refuses them rather than guess', () => {
  for (const ask of ['saturday_delivery', 'dry_ice', 'alcohol:consumer', 'carbon_neutral'] as const) assert.equal(optionPriceCents('ups', '01', ask, '5'), undefined, `UPS ${ask}`);
  assert.equal(optionPriceCents('fedex', 'FEDEX_GROUND', 'dry_ice', '5'), undefined, 'FedEx Ground dry ice');
  assert.deepEqual(optionPriceCents('fedex', 'FEDEX_2_DAY', 'dry_ice', '5'), { cents: 850, listCents: 850 });
  for (const ask of ['alcohol:consumer', 'alcohol:licensee', 'hazmat:lithium_ion_in_equipment', 'hazmat:lithium_metal_in_equipment'] as const) {
    assert.equal(optionPriceCents('fedex', 'FEDEX_GROUND', ask, '5'), undefined, `FedEx ${ask}`);
  }
  assert.deepEqual(optionPriceCents('fedex', 'FEDEX_GROUND', 'hazmat:limited_quantity', '5'), { cents: 0, listCents: 0 }, 'limited quantity by Ground is free');
  assert.equal(optionPriceCents('usps', 'PRIORITY_MAIL_EXPRESS', 'signature:standard', '5'), undefined, "USPS's 981 Signature Requested");
  assert.equal(optionPriceCents('usps', 'USPS_GROUND_ADVANTAGE', 'dry_ice', '5'), undefined);
});
