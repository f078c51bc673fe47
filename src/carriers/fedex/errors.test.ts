import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fedexFailure, isFedexError } from './errors.ts';
import { fixture } from './fixtures.ts';
import { buildTokenRequest, parseToken } from './token.ts';

test('the error envelope maps to our codes', () => {
  const auth = fedexFailure(401, fixture('error-auth'));
  assert.equal(auth.code, 'carrier_unavailable');
  assert.match(auth.detail, /refused the API credentials.*NOT\.AUTHORIZED\.ERROR/);
  assert.equal(fedexFailure(400, fixture('error-address')).code, 'address_invalid');
  assert.equal(fedexFailure(400, { errors: [{ code: 'SERVICETYPE.NOT.ALLOWED', message: 'no' }] }).code, 'service_unavailable');
  assert.equal(fedexFailure(400, { errors: [{ code: 'PACKAGE.WEIGHT.EXCEEDED', message: 'too heavy' }] }).code, 'parcel_too_large');
  assert.equal(fedexFailure(400, { errors: [{ code: 'ACCOUNTNUMBER.REGISTRATION.REQUIRED', message: 'x' }] }).code, 'carrier_unavailable');
  assert.equal(fedexFailure(503, { errors: [{ code: 'SERVICE.UNAVAILABLE.ERROR', message: 'down' }] }).code, 'carrier_unavailable');
  assert.equal(fedexFailure(502, undefined).code, 'carrier_unavailable');
  assert.equal(fedexFailure(400, { errors: [{ code: 'SOMETHING.ELSE', message: 'odd' }] }).code, 'carrier_error');
});

test('an answer is an error by status or by errors[] in a 200', () => {
  assert.equal(isFedexError(200, { output: {} }), false);
  assert.equal(isFedexError(200, fixture('error-address')), true);
  assert.equal(isFedexError(500, undefined), true);
});

test('the token request puts the credentials in form fields; the answer gives the token and lifetime', () => {
  assert.deepEqual(buildTokenRequest({ clientId: 'id', clientSecret: 'secret' }), { grant_type: 'client_credentials', client_id: 'id', client_secret: 'secret' });
  assert.deepEqual(parseToken({ access_token: 'abc', token_type: 'bearer', expires_in: 3599, scope: 'CXS' }), { accessToken: 'abc', expiresIn: 3599 });
  assert.deepEqual(parseToken({ access_token: 'abc', expires_in: '3599' }), { accessToken: 'abc', expiresIn: 3599 });
  assert.equal(parseToken({ errors: [] }), undefined);
});
