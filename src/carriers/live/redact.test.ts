import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DomesticRateRequest } from '../carrier.ts';
import { buildRateRequest as fedexRate } from '../fedex/rate.ts';
import { buildTokenRequest as fedexToken } from '../fedex/token.ts';
import { buildRateRequest as upsRate } from '../ups/rate.ts';
import { buildPaymentRequest } from '../usps/payment.ts';
import { buildTokenRequest as uspsToken } from '../usps/token.ts';
import { credentialValues, redact } from './redact.ts';

const creds = { clientId: 'cid-GVHn3DzbE7P1', clientSecret: 'sec-V2kq8Zr1TbLc', accountNumber: '740561073', crid: '56781234', mid: '927000001', manifestMid: '904128936' };
const request: DomesticRateRequest = {
  from: { street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' },
  to: { street1: '3120 M St NW', city: 'Washington', state: 'DC', zip: '20007' },
  parcels: [{ weightLb: 2 }],
  shipDate: new Date('2025-01-06T17:00:00Z'),
};

const leaks = (traced: unknown) => Object.values(creds).filter((v) => JSON.stringify(traced).includes(v));

test("every credential each carrier's requests carry is redacted by its name", () => {
  const ups = upsRate(request, creds.accountNumber);
  assert.ok(ups.ok);
  const bodies = {
    uspsPayment: buildPaymentRequest({ accountNumber: creds.accountNumber, crid: creds.crid, mid: creds.mid, manifestMid: creds.manifestMid }),
    uspsToken: uspsToken(creds),
    fedexToken: fedexToken(creds),
    fedexRate: fedexRate(request, creds.accountNumber),
    upsRate: ups.value.body,
  };
  for (const [name, body] of Object.entries(bodies)) assert.deepEqual(leaks(redact(body)), [], `${name}: ${JSON.stringify(redact(body))}`);
  assert.deepEqual(redact(bodies.uspsPayment), {
    roles: [
      { roleName: 'PAYER', CRID: '[redacted]', accountType: 'EPS', accountNumber: '[redacted]' },
      { roleName: 'LABEL_OWNER', CRID: '[redacted]', MID: '[redacted]', manifestMID: '[redacted]' },
    ],
  });
  assert.deepEqual(redact({ mid: '1', manifest_mid: '2', manifestMid: '3', pyramid: 'kept', midpoint: 'kept' }), { mid: '[redacted]', manifest_mid: '[redacted]', manifestMid: '[redacted]', pyramid: 'kept', midpoint: 'kept' });
});

test('a credential value is blanked wherever a carrier echoes it, except the ids every tracking number carries', () => {
  const secrets = credentialValues('usps', creds);
  const answer = { errors: [{ message: `Account ${creds.accountNumber} of CRID ${creds.crid} is not enrolled` }], note: `client ${creds.clientId}`, trackingNumber: `92001${creds.mid}12345678` };
  assert.deepEqual(redact(answer, secrets), { errors: [{ message: 'Account [redacted] of CRID [redacted] is not enrolled' }], note: 'client [redacted]', trackingNumber: answer.trackingNumber });
  assert.deepEqual(credentialValues('fedex', { clientId: 'abc', clientSecret: 'a-long-secret' }), ['a-long-secret'], 'values too short to blank safely are caught by name only');
  // UPS's shipper number is in every 1Z tracking number: blanking it would garble them.
  assert.deepEqual(credentialValues('ups', { clientId: 'ups-client', clientSecret: 'ups-secret', accountNumber: 'A1B2C3' }), ['ups-client', 'ups-secret']);
  assert.deepEqual(credentialValues('fedex', { clientId: 'fx-client', clientSecret: 'fx-secret', accountNumber: '740561073' }), ['fx-client', 'fx-secret', '740561073']);
});
