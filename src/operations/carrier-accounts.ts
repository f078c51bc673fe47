import { Type } from '@sinclair/typebox';
import { createCarrierAccount, deleteCarrierAccount, getCarrierAccount, listCarrierAccountsOf, refusedTestSecret, testCarrierAccount, updateCarrierAccount } from '../domain/carrier-accounts/account-connections.ts';
import { CarrierAccount, CarrierAccountCreate, CarrierAccountIdParams, CarrierAccountList, CarrierAccountListQuery, CarrierAccountUpdate } from '../schemas/carrier-account.ts';
import { defineOperation } from './operation.ts';

const tag = 'Carrier accounts';
const all = <T>(data: T[]) => ({ object: 'list' as const, data, has_more: false, next_cursor: null });
const scope =
  "Any key of the account may manage its carrier accounts; a key sees and changes those of its own mode only (a test key's are the account's test-mode ones). ";

export const carrierAccountOperations = [
  defineOperation({
    id: 'createCarrierAccount',
    method: 'POST',
    path: '/carrier-accounts',
    tag,
    summary: "Connect the account's own carrier account",
    description:
      "Stores the account's own credentials for a carrier, sealed with the server's secret; they are never answered or logged again. From then on the " +
      "account's live keys buy that carrier's labels with them, billed by the carrier to that account rather than charged by shipd. " +
      'Nothing is asked of the carrier here: POST /carrier-accounts/{id}/test signs in with them. One account per carrier and mode: a second is 409 ' +
      '`carrier_account_exists` (change the first with PATCH). USPS mailer ids (crid, mid, manifest_mid) are checked by their published formats. ' +
      scope,
    body: CarrierAccountCreate,
    response: Type.Ref(CarrierAccount),
    responseDescription: 'The carrier account, without its credentials (the account number masked)',
    successStatus: 201,
    errors: ['carrier_account_exists'],
    idempotent: true,
    handler: (ctx, { body }) => createCarrierAccount(ctx, body),
  }),
  defineOperation({
    id: 'listCarrierAccounts',
    method: 'GET',
    path: '/carrier-accounts',
    tag,
    summary: "List the account's carrier accounts",
    description: `At most one per carrier, oldest first, without credentials (the account number masked). ${scope}Changes nothing.`,
    query: CarrierAccountListQuery,
    response: Type.Ref(CarrierAccountList),
    responseDescription: 'The carrier accounts',
    errors: [],
    readOnly: true,
    handler: async (ctx, { query }) => all(await listCarrierAccountsOf(ctx, query)),
  }),
  defineOperation({
    id: 'getCarrierAccount',
    method: 'GET',
    path: '/carrier-accounts/:id',
    tag,
    summary: 'Get a carrier account',
    description: `Its status and what its last connection test found, without credentials (the account number masked). 404 for an id that is not the account's in the key's mode. Changes nothing.`,
    params: CarrierAccountIdParams,
    response: Type.Ref(CarrierAccount),
    responseDescription: 'The carrier account',
    errors: ['not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getCarrierAccount(ctx, params.id),
  }),
  defineOperation({
    id: 'updateCarrierAccount',
    method: 'PATCH',
    path: '/carrier-accounts/:id',
    tag,
    summary: 'Change a carrier account',
    description:
      'Changes its description, or some of its credentials (a rotated client_secret alone, say: the fields not given are kept). New credentials are ' +
      'untested: the status goes back to `connected` and `last_tested_at` to null until the next test.',
    params: CarrierAccountIdParams,
    body: CarrierAccountUpdate,
    response: Type.Ref(CarrierAccount),
    responseDescription: 'The carrier account',
    errors: ['not_found'],
    handler: (ctx, { params, body }) => updateCarrierAccount(ctx, params.id, body),
  }),
  defineOperation({
    id: 'deleteCarrierAccount',
    method: 'DELETE',
    path: '/carrier-accounts/:id',
    tag,
    summary: 'Disconnect a carrier account',
    description:
      "Forgets the credentials. Live keys then buy that carrier's labels with the platform's account, charged as postage, where the server has one. " +
      'Labels already bought with it stay good with the carrier, but shipd can no longer void or track them with its credentials.',
    params: CarrierAccountIdParams,
    response: Type.Ref(CarrierAccount),
    responseDescription: 'The carrier account removed',
    errors: ['not_found'],
    handler: (ctx, { params }) => deleteCarrierAccount(ctx, params.id),
  }),
  defineOperation({
    id: 'testCarrierAccount',
    method: 'POST',
    path: '/carrier-accounts/:id/test',
    tag,
    summary: 'Test a carrier account',
    description:
      "With a live key, signs in to the carrier with the account's credentials and rates a sample 2 lb parcel (Austin to San Francisco); nothing is " +
      'bought. Passed: the account is `connected`. Refused by the carrier: it is `failing` and the answer is 422 `carrier_account_failing` ' +
      "saying what the carrier answered. A carrier that is down or slow says nothing of the credentials: 502 `carrier_error` or 504 `carrier_timeout`, status unchanged. " +
      `With a test key the test is simulated: it passes, unless the client_secret is \`${refusedTestSecret}\`, which the simulated carrier refuses.`,
    params: CarrierAccountIdParams,
    response: Type.Ref(CarrierAccount),
    responseDescription: 'The carrier account, tested',
    errors: ['not_found', 'carrier_account_failing', 'carrier_error', 'carrier_timeout'],
    handler: (ctx, { params }) => testCarrierAccount(ctx, params.id),
  }),
];
