import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lookupZip } from '../zips.ts';
import { rowZips, uspsCharts, upsGround450 } from './zone-charts.fixture.ts';
import { zoneFor } from './zones.ts';

/** A ZIP that exists in a ZIP3, or undefined when the ZIP list has none. */
function zipIn(zip3: string): string | undefined {
  for (let i = 0; i < 100; i++) {
    const zip = `${zip3}${String(i).padStart(2, '0')}`;
    if (lookupZip(zip)) return zip;
  }
  return undefined;
}

const zip3s = (range: string): string[] => {
  const [from, to = from] = range.split('-').map(Number);
  return Array.from({ length: to! - from! + 1 }, (_, i) => String(from! + i).padStart(3, '0'));
};

test('USPS zones agree with the official zone chart for at least 99% of ZIP3 pairs, origin by origin', (t) => {
  for (const [origin, chart] of Object.entries(uspsCharts)) {
    const from = zipIn(origin)!;
    let pairs = 0;
    const wrong: string[] = [];
    for (let d = 0; d < 1000; d++) {
      const zone = chart[d]!;
      const zip3 = String(d).padStart(3, '0');
      const to = zone === '.' ? undefined : (rowZips[zip3] ?? zipIn(zip3));
      if (!to) continue;
      pairs++;
      const ours = zoneFor('usps', from, to);
      if (ours?.label !== `0${zone}`) wrong.push(`${to}: chart ${zone}, ours ${ours?.label}`);
    }
    const agreement = 1 - wrong.length / pairs;
    t.diagnostic(`USPS origin ${origin}: ${pairs - wrong.length}/${pairs} ZIP3 pairs agree (${(agreement * 100).toFixed(2)}%) ${wrong.join('; ')}`);
    assert.ok(pairs >= 200, `${origin}: ${pairs} pairs`);
    assert.ok(agreement >= 0.99, `${origin}: ${wrong.join('; ')}`);
  }
});

test('USPS special zones: same ZIP3, military gateways, Puerto Rico by distance, zone 9', () => {
  // Within one ZIP3 (941 → 941).
  assert.deepEqual(zoneFor('usps', '94105', '94107'), { label: '01', index: 1 });
  // APO AE is zoned from New York, APO AA from Miami, APO AP from San Francisco (2018 charts: 100 → 091 is 1,
  // 606 → 094 is 5, 606 → 340 is 6, 606 → 962 is 8, 900 → 963 is 4).
  assert.equal(zoneFor('usps', '10001', '09102')?.label, '01');
  assert.equal(zoneFor('usps', '60601', '09403')?.label, '05');
  assert.equal(zoneFor('usps', '60601', '34001')?.label, '06');
  assert.equal(zoneFor('usps', '60601', '96201')?.label, '08');
  assert.equal(zoneFor('usps', '90001', '96303')?.label, '04');
  // Puerto Rico and the Virgin Islands by distance, not all zone 8 (2018 charts: 331 → 009 is 6, 100 → 008 is 7).
  assert.equal(zoneFor('usps', '33101', '00901')?.label, '06');
  assert.equal(zoneFor('usps', '10001', '00801')?.label, '07');
  // The Freely Associated States are zone 9; Guam and the Northern Mariana Islands are 5-digit exceptions in zone 8
  // (2018 charts: 100 → 96910 and 100 → 96950 are 8); Hawaii by distance.
  assert.equal(zoneFor('usps', '94105', '96940')?.label, '09');
  assert.equal(zoneFor('usps', '10001', '96960')?.label, '09');
  assert.equal(zoneFor('usps', '10001', '96910')?.label, '08');
  assert.equal(zoneFor('usps', '10001', '96950')?.label, '08');
  assert.equal(zoneFor('usps', '94105', '96813')?.label, '08');
  assert.equal(zoneFor('usps', '96813', '96814')?.label, '01');
  // Honolulu to Hilo: the 2018 chart of 968 zones 967 as 1.
  assert.equal(zoneFor('usps', '96813', '96720')?.label, '01');
  assert.equal(zoneFor('usps', '94105', '99999'), undefined);
});

// UPS measures its own miles: the USPS points and bands give its 2004 chart's zone for 92% of ZIP3s, never more than
// one zone off (the last assertion).
test('UPS Ground zones follow the UPS chart of origin 450 (Cincinnati)', (t) => {
  const from = '45202';
  let pairs = 0;
  const wrong: string[] = [];
  for (const [range, zone] of Object.entries(upsGround450)) {
    for (const zip3 of zip3s(range)) {
      const to = zipIn(zip3);
      if (!to || zone === null) continue;
      pairs++;
      const ours = zoneFor('ups', from, to);
      if (ours?.label !== String(zone)) wrong.push(`${to}: chart ${zone}, ours ${ours?.label}`);
      assert.ok(ours && Math.abs(ours.index - zone) <= 1, `${to}: chart ${zone}, ours ${ours?.label}`);
    }
  }
  const agreement = 1 - wrong.length / pairs;
  t.diagnostic(`UPS origin 450: ${pairs - wrong.length}/${pairs} ZIP3 pairs agree (${(agreement * 100).toFixed(2)}%)`);
  assert.ok(agreement >= 0.9, wrong.join('; '));
});

test('UPS offshore zones and the ZIPs UPS does not serve', () => {
  assert.deepEqual(zoneFor('ups', '94105', '94107'), { label: '2', index: 2 });
  // Honolulu is metro (44), Hilo rural (46); Anchorage metro, Juneau rural; Puerto Rico 45.
  assert.equal(zoneFor('ups', '94105', '96813')?.label, '44');
  assert.equal(zoneFor('ups', '94105', '96720')?.label, '46');
  assert.equal(zoneFor('ups', '99501', '10001')?.label, '44');
  assert.equal(zoneFor('ups', '10001', '99801')?.label, '46');
  assert.equal(zoneFor('ups', '10001', '00901')?.label, '45');
  // The 450 chart has no zone to military ZIPs, the Virgin Islands or Guam.
  for (const to of ['09001', '34001', '96201', '00801', '96910']) assert.equal(zoneFor('ups', '45202', to), undefined, to);
});

test('FedEx zones: miles as the Service Guide bands them, Express and Ground labels off the mainland', () => {
  assert.deepEqual(zoneFor('fedex', '94105', '94107'), { label: '2', index: 2 });
  assert.equal(zoneFor('fedex', '94105', '10001')?.label, '8');
  assert.equal(zoneFor('fedex', '94105', '90012')?.label, '4');
  // Express: Alaska metro 9, Hawaii metro 10, Alaska rural 11, Hawaii rural 12, from Alaska or Hawaii 13.
  assert.equal(zoneFor('fedex', '10001', '99501')?.label, '9');
  assert.equal(zoneFor('fedex', '10001', '96813')?.label, '10');
  assert.equal(zoneFor('fedex', '10001', '99801')?.label, '11');
  assert.equal(zoneFor('fedex', '10001', '96720')?.label, '12');
  assert.equal(zoneFor('fedex', '96813', '10001')?.label, '13');
  // Ground: to Alaska 17, within Alaska 22, from Alaska 23, to Hawaii 9, within Hawaii 14, from Hawaii 92.
  assert.equal(zoneFor('fedex', '10001', '99501', 'FEDEX_GROUND')?.label, '17');
  assert.equal(zoneFor('fedex', '99501', '99801', 'GROUND_HOME_DELIVERY')?.label, '22');
  assert.equal(zoneFor('fedex', '99501', '10001', 'FEDEX_GROUND')?.label, '23');
  assert.equal(zoneFor('fedex', '10001', '96813', 'GROUND_HOME_DELIVERY')?.label, '9');
  assert.equal(zoneFor('fedex', '96813', '96720', 'FEDEX_GROUND')?.label, '14');
  assert.equal(zoneFor('fedex', '96813', '10001', 'FEDEX_GROUND')?.label, '92');
  assert.equal(zoneFor('fedex', '10001', '96813', 'FEDEX_GROUND')?.index, 9);
  // Puerto Rico, the other territories and military ZIPs take FedEx international services only.
  for (const to of ['00901', '00801', '96910', '09001']) assert.equal(zoneFor('fedex', '10001', to), undefined, to);
});
