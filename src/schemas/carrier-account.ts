import { Type, type Static } from '@sinclair/typebox';
import { CarrierIdSchema } from './carrier.ts';
import { ListOf, StringEnum, timestamp, timestampOrNull } from './common.ts';
import { carrierAccount, carrierAccountCreate, ids } from './examples.ts';

const secretText = (description: string, maxLength: number) => Type.String({ minLength: 1, maxLength, description, writeOnly: true });

// The USPS mailer ids are checked by their own rules (carriers/usps/mailer-ids.ts) so the message says what is wrong.
const credentialFields = {
  client_id: secretText("The client id (API key) of the account's developer app at the carrier", 200),
  client_secret: secretText("That app's client secret (API secret)", 500),
  account_number: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'The shipper or account number labels are billed to (UPS shipper number, FedEx account number)', writeOnly: true })),
  crid: Type.Optional(Type.String({ description: "USPS only: the mailer's Customer Registration ID, named as payer and label owner", writeOnly: true })),
  mid: Type.Optional(Type.String({ description: 'USPS only: the Mailer ID whose label ranges the tracking numbers come from', writeOnly: true })),
  manifest_mid: Type.Optional(Type.String({ description: 'USPS only: the Mailer ID the SCAN forms are made under; mid when not given', writeOnly: true })),
};

export const CarrierCredentials = Type.Object(credentialFields, {
  $id: 'CarrierCredentials',
  title: 'CarrierCredentials',
  additionalProperties: false,
  description: 'Write-only: stored sealed with the server secret, never answered, never logged',
  examples: [carrierAccountCreate.credentials],
});
export type CarrierCredentials = Static<typeof CarrierCredentials>;

const description = Type.String({ maxLength: 200, description: 'What the account calls it' });

export const CarrierAccountCreate = Type.Object(
  {
    carrier: Type.Ref(CarrierIdSchema, { description: 'Whose account it is' }),
    description: Type.Optional(description),
    credentials: Type.Ref(CarrierCredentials, { description: 'How shipd signs in to the carrier as the account' }),
  },
  {
    $id: 'CarrierAccountCreate',
    title: 'CarrierAccountCreate',
    description: "The account's own credentials for a carrier, as the carrier's developer portal issued them",
    additionalProperties: false,
    examples: [carrierAccountCreate],
  },
);
export type CarrierAccountCreate = Static<typeof CarrierAccountCreate>;

export const CarrierAccountUpdate = Type.Object(
  {
    description: Type.Optional(Type.Union([description, Type.Null()], { description: 'What the account calls it; null removes it' })),
    credentials: Type.Optional(
      Type.Partial(Type.Object(credentialFields), { additionalProperties: false, description: 'Only the fields given change (a new client_secret after rotating it, say); the others are kept' }),
    ),
  },
  { $id: 'CarrierAccountUpdate', title: 'CarrierAccountUpdate', description: 'Only what is given changes', additionalProperties: false, examples: [{ credentials: { client_secret: 'N8wq2Lr5TbKc1Xm7Zs4Hd3Mf6Gp9Jy0B' } }] },
);
export type CarrierAccountUpdate = Static<typeof CarrierAccountUpdate>;

export const CarrierAccountStatus = StringEnum(['connected', 'failing'], {
  $id: 'CarrierAccountStatus',
  title: 'CarrierAccountStatus',
  description: '`failing` after a connection test the carrier refused, until a test passes or the credentials change',
});

export const CarrierAccount = Type.Object(
  {
    id: Type.String({ description: "The carrier account's id", examples: [ids.carrierAccount] }),
    object: Type.Literal('carrier_account', { description: 'Always `carrier_account`' }),
    carrier: Type.Ref(CarrierIdSchema, { description: 'Whose account it is' }),
    description: Type.Union([Type.String(), Type.Null()], { description: 'What the account calls it' }),
    account_number: Type.Union([Type.String(), Type.Null()], { description: 'The account number, all but its last 4 characters masked; null when none was given', examples: ['****B2C3'] }),
    mode: StringEnum(['test', 'live'], { description: "The keys that use it: live keys buy through a live one; a test one rehearses onboarding (test keys always use shipd's simulators)" }),
    status: Type.Ref(CarrierAccountStatus, { description: 'Whether the carrier took its credentials at the last test' }),
    last_tested_at: timestampOrNull('When POST /carrier-accounts/{id}/test last asked the carrier; null if never since the credentials were set'),
    last_test_error: Type.Union([Type.String(), Type.Null()], { description: 'What the carrier answered to the last test when it failed; null otherwise' }),
    created_at: timestamp('When it was connected'),
    updated_at: timestamp('When it last changed'),
  },
  {
    $id: 'CarrierAccount',
    title: 'CarrierAccount',
    description: "The account's own account with a carrier: its live labels are bought with it and billed by the carrier, not charged by shipd",
    additionalProperties: false,
    examples: [carrierAccount],
  },
);
export type CarrierAccount = Static<typeof CarrierAccount>;

export const CarrierAccountList = ListOf(CarrierAccount, 'CarrierAccountList', "The account's carrier accounts of the key's mode");

export const CarrierAccountIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: "The carrier account's ca_ id" }) }, { additionalProperties: false });

export const CarrierAccountListQuery = Type.Object({ carrier: Type.Optional(Type.Ref(CarrierIdSchema, { description: "Only this carrier's account" })) }, { additionalProperties: false });
