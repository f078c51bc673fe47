import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { carrierCatalog } from './catalog.ts';
import {
  detectCarrier,
  fedexCheckDigit,
  fedexTrackingNumber,
  gs1CheckDigit,
  isValidTrackingNumber,
  s10CheckDigit,
  syntheticTrackingNumber,
  testUpsShipper,
  testUspsMailerId,
  upsCheckDigit,
  upsTrackingNumber,
  uspsCheckDigit,
  uspsServiceTypeCodes,
  uspsTrackingNumber,
  type TrackingCarrier,
} from './tracking-numbers.ts';

/**
 * How a sample's check digit covers its positions, written out here from carriers.md 6 rather than taken from the
 * implementation, so the single-change test below predicts each outcome independently.
 * - mod10: `weights[i]` is position i's weight in a mod-10 sum (the check digit position gets 1); 0 = not covered.
 * - fedex12: the 3,1,7 / mod 11 / mod 10 rule over the `offset`…`offset + 11` digits; earlier digits are not covered.
 * `fixed` positions are pinned by the format (`1Z`, `96`), so any change there fails.
 */
type Scheme = { kind: 'mod10'; weights: number[]; fixed?: number[] } | { kind: 'fedex12'; offset: number };

const gs1Weights = (length: number, from = 0): number[] =>
  Array.from({ length }, (_, i) => (i < from ? 0 : i === length - 1 ? 1 : (length - 1 - i) % 2 === 1 ? 3 : 1));

interface Sample {
  carrier: TrackingCarrier;
  tn: string;
  scheme: Scheme;
  note?: string;
}

const ups = (tn: string): Sample => ({
  carrier: 'ups',
  tn,
  // 1Z, then the body: 1-based even positions count double; then the check digit.
  scheme: { kind: 'mod10', weights: [0, 0, ...Array.from({ length: 15 }, (_, j) => (j % 2 === 1 ? 2 : 1)), 1], fixed: [0, 1] },
});
const gs1 = (carrier: TrackingCarrier, tn: string, note?: string): Sample => ({ carrier, tn, scheme: { kind: 'mod10', weights: gs1Weights(tn.length) }, note });
const fedex12 = (tn: string): Sample => ({ carrier: 'fedex', tn, scheme: { kind: 'fedex12', offset: 0 } });

// Every worked example and every "passes" sample of carriers.md 6, except where noted.
const samples: Sample[] = [
  ups('1Z1442YY7229014688'),
  ups('1Z023E2X0214323462'),
  ups('1ZISUS010330563105'),
  ups('1Z5R89390357567127'),
  ups('1Z879E930346834440'),
  gs1('usps', '9400111206206406260787'),
  gs1('usps', '9505511069605048600624'),
  gs1('usps', '9261292700768711948021'),
  gs1('usps', '9361289878700317633795'),
  gs1('usps', '92748931507708513018050063'),
  gs1('usps', '9400111201080805483016', 'the grouped example of 6.2, "9400 1112 0108 0805 4830 16"'),
  gs1('usps', '03071790000523483741', 'not in carriers.md: a 20-digit sample from the jkeen test set'),
  fedex12('581190049992'),
  fedex12('797806677146'),
  fedex12('568838414941'),
  fedex12('797615467620'),
  fedex12('713062653486'),
  fedex12('794953535000'),
  fedex12('794953555571'),
  fedex12('128667043726'),
  fedex12('123456789012'),
  fedex12('779017972697'),
  gs1('fedex', '449044304137821'),
  gs1('fedex', '020207021381215'),
  gs1('fedex', '149331877648230'),
  gs1('fedex', '403934084723025'),
  {
    carrier: 'fedex',
    tn: '1001921334250001000300779017972697',
    scheme: { kind: 'fedex12', offset: 22 },
    note: 'carriers.md shows only the tail "…0779017972697"; the full 34 digits are the jkeen sample it comes from',
  },
  {
    carrier: 'fedex',
    tn: '61292701078443410536',
    // SmartPost: GS1 over 92 + the 19 digits, so the weights of the 19 are those of the last 19 of a 22-digit IMpb.
    scheme: { kind: 'mod10', weights: gs1Weights(22).slice(2) },
  },
  {
    carrier: 'fedex',
    tn: '9611020987654312345672',
    // 96 + SCNC + service are outside the check; GS1 over the 14 shipper and package digits.
    scheme: { kind: 'mod10', weights: gs1Weights(22, 7), fixed: [0, 1] },
    note: 'not in carriers.md, which gives no 22-digit "96" sample: the jkeen one',
  },
];

const label = (s: Sample) => `${s.carrier} ${s.tn}${s.note ? ` (${s.note})` : ''}`;

test('the check-digit functions give the worked examples', () => {
  assert.equal(upsCheckDigit('1442YY722901468'), 8);
  assert.equal(upsCheckDigit('1442yy722901468'), 8, 'letters in either case');
  assert.equal(uspsCheckDigit('940011120620640626078'), 7);
  assert.equal(gs1CheckDigit('940011120620640626078'), 7);
  assert.equal(fedexCheckDigit('79495353500'), 0);
  assert.equal(fedexCheckDigit('12345678901'), 2);
  assert.equal(gs1CheckDigit('44904430413782'), 1, 'FedEx Ground 15 is GS1 mod 10');
  assert.throws(() => upsCheckDigit('1442YY72290146'), RangeError);
  assert.throws(() => fedexCheckDigit('7949535350'), RangeError);
  assert.throws(() => uspsCheckDigit('12a4'), RangeError);
});

test('the generators build the published numbers from their parts, and check the parts', () => {
  assert.equal(upsTrackingNumber('1442YY', '72', '2901468'), '1Z1442YY7229014688');
  assert.equal(upsTrackingNumber('ISUS01', '03', '3056310'), '1ZISUS010330563105');
  assert.equal(uspsTrackingNumber('612', '927007687', '1194802'), '9261292700768711948021');
  assert.equal(fedexTrackingNumber('79495353500'), '794953535000');
  assert.throws(() => upsTrackingNumber('1442yy', '72', '2901468'), RangeError, 'shipper must be uppercase');
  assert.throws(() => upsTrackingNumber('1442Y', '72', '2901468'), RangeError);
  assert.throws(() => upsTrackingNumber('1442YY', '7', '2901468'), RangeError);
  assert.throws(() => upsTrackingNumber('1442YY', '72', '29014A8'), RangeError, 'reference is 7 digits');
  assert.throws(() => uspsTrackingNumber('612', '827007687', '1194802'), RangeError, 'a 9-digit MID starts with 9');
  assert.throws(() => uspsTrackingNumber('61', '927007687', '1194802'), RangeError);
  assert.throws(() => uspsTrackingNumber('612', '927007687', '11948020'), RangeError);
  assert.throws(() => fedexTrackingNumber('7949535350'), RangeError);
});

test('every sample passes for its carrier, and only for it', () => {
  for (const s of samples) {
    assert.ok(isValidTrackingNumber(s.carrier, s.tn), label(s));
    assert.deepEqual(detectCarrier(s.tn), [s.carrier], label(s));
  }
});

test('whitespace is ignored, and letter case for UPS', () => {
  assert.ok(isValidTrackingNumber('ups', '1z1442yy7229014688'));
  assert.ok(isValidTrackingNumber('ups', ' 1Z 144 2YY 72 2901 468 8 '));
  assert.ok(isValidTrackingNumber('usps', '9400 1112 0108 0805 4830 16'));
  assert.ok(isValidTrackingNumber('fedex', '7949 5353 5000'));
  assert.deepEqual(detectCarrier('1z 1442yy 72 2901468 8'), ['ups']);
});

test('known bad and malformed numbers fail', () => {
  const bad: [TrackingCarrier, string, string][] = [
    ['ups', '1Z12345E0205271688', 'the commonly quoted "test" number (its check digit would be 6)'],
    ['ups', '1Z1442YY722901468', 'too short'],
    ['ups', '1Z1442YY722901468A', 'the check digit is a digit'],
    ['ups', '2Z1442YY7229014688', 'not 1Z'],
    ['usps', '9000111206206406260781', 'channel AI 90, outside 91–95, though the GS1 check digit is right'],
    ['usps', '82748931507708513018050066', '26 digits without a 91–95 channel AI, though the GS1 check digit is right'],
    ['usps', '940011120620640626078', '21 digits'],
    ['usps', '61292701078443410536', 'the SmartPost sample does not pass the plain 20-digit GS1 rule'],
    ['fedex', '794644790138', 'carriers.md 6.3: circulated online, fails the check digit'],
    ['fedex', '9261292700768711948021', 'a 22-digit FedEx number here must start with 96'],
    ['fedex', '9600000000000000000001', 'jkeen invalid sample'],
    ['fedex', '1001901781990001000300617767839438', 'jkeen invalid 34-digit sample'],
    ['fedex', 'abcdefghijkl', 'not digits'],
    ['fedex', '', 'empty'],
  ];
  for (const [carrier, tn, why] of bad) assert.equal(isValidTrackingNumber(carrier, tn), false, `${carrier} ${tn}: ${why}`);
  assert.deepEqual(detectCarrier('1Z12345E0205271688'), []);
  assert.deepEqual(detectCarrier('794644790138'), []);
  assert.deepEqual(detectCarrier('not a tracking number'), []);
});

/** A UPS body character's value, as carriers.md 6.1 gives it. */
const charValue = (c: string): number => (/[0-9]/.test(c) ? Number(c) : (c.charCodeAt(0) - 3) % 10);

/**
 * Whether the check digit is guaranteed to catch changing position `i` of `tn` to `c`, from the scheme alone:
 * - mod 10 with weight w: caught unless w·Δ ≡ 0 (mod 10). GS1 weights 1 and 3 catch every change; a UPS weight-2
 *   position misses a change of ±5 in value; positions outside the check (weight 0) are never caught.
 * - FedEx 3,1,7 mod 11: a body change moves the remainder r to some r' ≠ r (11 is prime and w·Δ is not a multiple
 *   of it), and the check digit is r mod 10, so the change is missed exactly when {r, r'} = {0, 10}, which needs
 *   a check digit of 0. A change of the check digit itself is always caught.
 */
function caught(scheme: Scheme, tn: string, i: number, c: string): boolean {
  if (scheme.kind === 'mod10') {
    if (scheme.fixed?.includes(i)) return true;
    if (i === tn.length - 1) return true;
    const w = scheme.weights[i]!;
    return (w * (charValue(c) - charValue(tn[i]!))) % 10 !== 0;
  }
  const { offset } = scheme;
  if (i < offset) return false;
  if (i === tn.length - 1) return true;
  const weights = [3, 1, 7];
  const remainder = (s: string) => [...s.slice(offset, offset + 11)].reduce((sum, d, k) => sum + Number(d) * weights[k % 3]!, 0) % 11;
  const r = remainder(tn);
  const r2 = remainder(tn.slice(0, i) + c + tn.slice(i + 1));
  assert.notEqual(r, r2);
  return r % 10 !== r2 % 10;
}

test('changing any one character is caught wherever the scheme guarantees it, and only there', () => {
  // Each sample, each position, every other digit (and every other letter where UPS allows letters). Where the scheme
  // cannot catch a change (see caught()) the changed number must still pass: that pins the exact rule rather than
  // asserting something the check digit cannot deliver.
  const missed: string[] = [];
  for (const s of samples) {
    for (let i = 0; i < s.tn.length; i++) {
      const alphabet = s.carrier === 'ups' && i >= 2 && i < 17 ? '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ' : '0123456789';
      for (const c of alphabet) {
        if (c === s.tn[i]) continue;
        const altered = s.tn.slice(0, i) + c + s.tn.slice(i + 1);
        const expectCaught = caught(s.scheme, s.tn, i, c);
        assert.equal(isValidTrackingNumber(s.carrier, altered), !expectCaught, `${label(s)} → ${altered} (position ${i + 1})`);
        if (!expectCaught) missed.push(`${s.tn}@${i + 1}`);
      }
    }
  }
  // GS1-checked numbers miss nothing inside the check: only positions outside it (34-digit prefix, 96 SCNC/service).
  for (const s of samples.filter((x) => x.scheme.kind === 'mod10' && x.carrier !== 'ups' && !x.scheme.fixed)) {
    assert.ok(!missed.some((m) => m.startsWith(`${s.tn}@`)), label(s));
  }
  // FedEx 12-digit numbers whose check digit is 1–9 miss nothing; the misses are in the two samples ending in 0.
  const fedexMissed = new Set(missed.filter((m) => /^\d{12}@/.test(m)).map((m) => m.slice(0, 12)));
  assert.deepEqual([...fedexMissed].sort(), ['794953535000', '797615467620']);
});

test('synthetic numbers: valid, right shape, deterministic, and distinct across 1,000 seeds', () => {
  const seedFor = (i: number) => createHash('sha256').update(`tracking-numbers.test ${i}`).digest();
  for (const carrier of carrierCatalog) {
    // The services the simulators sell labels for: USPS's international ones number their items in the UPU's S10
    // format, not IMpb, and no simulator sells them yet.
    for (const service of carrier.services.filter((s) => s.domestic)) {
      const where = `${carrier.id} ${service.code}`;
      const shape =
        carrier.id === 'ups'
          ? new RegExp(`^1Z${testUpsShipper}${service.code}[0-9]{8}$`)
          : carrier.id === 'usps'
            ? new RegExp(`^92${uspsServiceTypeCodes[service.code]}${testUspsMailerId}[0-9]{8}$`)
            : /^[0-9]{12}$/;
      const length = { ups: 18, usps: 22, fedex: 12 }[carrier.id];
      assert.ok(carrier.id !== 'usps' || uspsServiceTypeCodes[service.code], `${where} has an STC`);

      const seen = new Set<string>();
      for (let i = 0; i < 1000; i++) {
        const seed = seedFor(i);
        const n = syntheticTrackingNumber(carrier.id, service.code, seed);
        if (i < 50) {
          assert.equal(n.length, length, `${where} ${n}`);
          assert.match(n, shape, where);
          assert.ok(isValidTrackingNumber(carrier.id, n), `${where} ${n}`);
          assert.deepEqual(detectCarrier(n), [carrier.id], `${where} ${n}`);
          assert.equal(syntheticTrackingNumber(carrier.id, service.code, Uint8Array.from(seed)), n, `${where}: same seed, same number`);
        }
        seen.add(n);
      }
      // The seeds are pseudo-random but fixed: with truly random ones, 1,000 draws from a 10^7 space (UPS, USPS)
      // collide about 5% of the time, which would make this test flaky.
      assert.equal(seen.size, 1000, `${where}: ${1000 - seen.size} collisions`);
      assert.ok([...seen].every((n) => isValidTrackingNumber(carrier.id, n)), where);
    }
  }
  assert.equal(syntheticTrackingNumber('usps', 'PRIORITY_MAIL', seedFor(0)).slice(2, 5), '055');
  assert.equal(syntheticTrackingNumber('usps', 'PRIORITY_MAIL_EXPRESS', seedFor(0)).slice(2, 5), '701');
  assert.equal(syntheticTrackingNumber('usps', 'USPS_GROUND_ADVANTAGE', seedFor(0)).slice(2, 5), '001');
});

test('synthetic numbers use every byte of the seed, and refuse bad input', () => {
  const seed = new Uint8Array(16);
  const base = syntheticTrackingNumber('fedex', 'FEDEX_GROUND', seed);
  for (const index of [0, 7, 15]) {
    const other = Uint8Array.from(seed);
    other[index] = 1;
    assert.notEqual(syntheticTrackingNumber('fedex', 'FEDEX_GROUND', other), base, `byte ${index}`);
  }
  assert.equal(syntheticTrackingNumber('ups', '03', new Uint8Array(8)), upsTrackingNumber('SHPD01', '03', '0000000'));
  assert.throws(() => syntheticTrackingNumber('fedex', 'FEDEX_GROUND', new Uint8Array(7)), RangeError);
  assert.throws(() => syntheticTrackingNumber('usps', 'MEDIA_MAIL', new Uint8Array(8)), RangeError);
  assert.throws(() => syntheticTrackingNumber('usps', 'toString', new Uint8Array(8)), RangeError);
  assert.throws(() => syntheticTrackingNumber('ups', '3', new Uint8Array(8)), RangeError);
});

test('USPS international numbers are UPU S10: the check digit of the S10 standard, valid as USPS numbers', () => {
  const seedFor = (i: number) => createHash('sha256').update(`s10 ${i}`).digest();
  // S10's own worked example, AA 47312482 9 GB, and the 10 → 0 and 11 → 5 rules.
  assert.equal(s10CheckDigit('47312482'), 9);
  assert.equal(s10CheckDigit('12345678'), 5);
  assert.equal(s10CheckDigit('00000000'), 5);
  assert.equal(s10CheckDigit('00000001'), 4);
  const kinds = { PRIORITY_MAIL_EXPRESS_INTERNATIONAL: 'EC', PRIORITY_MAIL_INTERNATIONAL: 'CP', 'FIRST-CLASS_PACKAGE_INTERNATIONAL_SERVICE': 'LX' };
  for (const [service, letters] of Object.entries(kinds)) {
    for (let i = 0; i < 50; i++) {
      const tn = syntheticTrackingNumber('usps', service, seedFor(i));
      assert.match(tn, new RegExp(`^${letters}[0-9]{9}US$`));
      assert.deepEqual(detectCarrier(tn), ['usps'], tn);
      assert.equal(isValidTrackingNumber('usps', `${tn.slice(0, 10)}${(Number(tn[10]) + 1) % 10}US`), false);
    }
  }
});
