import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { carrierCatalog } from './catalog.ts';
import { detectCarrier, fedexCheckDigit, isValidTrackingNumber, syntheticTrackingNumber, upsCheckDigit, uspsCheckDigit } from './tracking-numbers.ts';

// Every sample below is from carriers.md section 6, where each was checked against real numbers.
const samples = {
  ups: ['1Z1442YY7229014688', '1Z023E2X0214323462', '1ZISUS010330563105', '1Z5R89390357567127', '1Z879E930346834440'],
  usps: ['9400111206206406260787', '9505511069605048600624', '9261292700768711948021', '9361289878700317633795', '92748931507708513018050063'],
  fedex: ['581190049992', '797806677146', '568838414941', '797615467620', '713062653486', '794953535000', '794953555571', '128667043726', '123456789012', '449044304137821', '020207021381215', '149331877648230', '403934084723025'],
} as const;

test('the worked examples give their check digits', () => {
  assert.equal(upsCheckDigit('1442YY722901468'), 8);
  assert.equal(uspsCheckDigit('940011120620640626078'), 7);
  assert.equal(fedexCheckDigit('79495353500'), 0);
});

test('every published sample passes, for its carrier', () => {
  for (const [carrier, list] of Object.entries(samples)) {
    for (const n of list) assert.ok(isValidTrackingNumber(carrier as keyof typeof samples, n), `${carrier} ${n}`);
  }
  assert.ok(isValidTrackingNumber('ups', '1z1442yy7229014688'), 'UPS numbers are case-insensitive');
  assert.ok(isValidTrackingNumber('usps', '9400 1112 0620 6406 2607 87'), 'spaces are ignored');
});

test('known bad numbers fail', () => {
  assert.equal(isValidTrackingNumber('ups', '1Z12345E0205271688'), false);
  assert.equal(isValidTrackingNumber('ups', '1Z1442YY722901468'), false, 'too short');
  assert.equal(isValidTrackingNumber('usps', '9900111206206406260787'), false, 'AI outside 91–95');
  assert.equal(isValidTrackingNumber('fedex', 'abcdefghijkl'), false);
});

test('changing any one digit breaks the check digit, wherever the scheme can tell', () => {
  for (const [carrier, list] of Object.entries(samples)) {
    for (const n of list) {
      for (let i = 0; i < n.length; i++) {
        if (!/[0-9]/.test(n[i]!) || (carrier === 'ups' && i < 2)) continue;
        for (const d of '0123456789') {
          if (d === n[i]) continue;
          const altered = n.slice(0, i) + d + n.slice(i + 1);
          // UPS doubles even positions, so a change of 5 there leaves the sum the same mod 10.
          if (carrier === 'ups' && i < 17 && (i - 1) % 2 === 0 && Math.abs(Number(d) - Number(n[i])) === 5) continue;
          // A weight-7 position changed by 11/gcd steps cannot occur for one digit; but (sum mod 11) mod 10 folds
          // remainders 0 and 10 together, so a FedEx 12-digit change that moves the remainder between them passes.
          if (carrier === 'fedex' && n.length === 12) {
            const before = [...n.slice(0, 11)].reduce((s, c, k) => s + Number(c) * [3, 1, 7][k % 3]!, 0) % 11;
            const after = [...altered.slice(0, 11)].reduce((s, c, k) => s + Number(c) * [3, 1, 7][k % 3]!, 0) % 11;
            if (i === 11 || (before % 10 === after % 10 && before !== after)) continue;
          }
          assert.equal(isValidTrackingNumber(carrier as keyof typeof samples, altered), false, `${carrier} ${altered} (from ${n})`);
        }
      }
    }
  }
});

test('synthetic numbers are valid, of the right shape, deterministic, and distinct', () => {
  for (const carrier of carrierCatalog) {
    for (const service of carrier.services) {
      const seed = randomBytes(16);
      const n = syntheticTrackingNumber(carrier.id, service.code, seed);
      assert.ok(isValidTrackingNumber(carrier.id, n), `${carrier.id} ${service.code} ${n}`);
      assert.equal(n, syntheticTrackingNumber(carrier.id, service.code, seed));
      if (carrier.id === 'ups') assert.match(n, new RegExp(`^1ZSHPD01${service.code}[0-9]{7}[0-9]$`));
      if (carrier.id === 'usps') assert.match(n, /^92[0-9]{20}$/);
      if (carrier.id === 'fedex') assert.match(n, /^[0-9]{12}$/);
    }
    const seen = new Set(Array.from({ length: 1000 }, () => syntheticTrackingNumber(carrier.id, carrier.services[0]!.code, randomBytes(16))));
    // 10^7 UPS and USPS serials: 1,000 draws collide with probability about 5%, so allow one.
    assert.ok(seen.size >= 999, `${carrier.id}: ${seen.size} distinct of 1000`);
  }
  assert.equal(syntheticTrackingNumber('usps', 'PRIORITY_MAIL', randomBytes(8)).slice(2, 5), '055');
});

test('a bare number is told apart by its format', () => {
  assert.deepEqual(detectCarrier('1Z1442YY7229014688'), ['ups']);
  assert.deepEqual(detectCarrier('794953535000'), ['fedex']);
  assert.ok(detectCarrier('9400111206206406260787').includes('usps'));
  assert.deepEqual(detectCarrier('not a number'), []);
});
