import { Type } from '@sinclair/typebox';
import { checkAddress } from '../domain/addresses/address-check.ts';
import { AddressValidation, AddressValidationRequest } from '../schemas/address-validation.ts';
import { defineOperation } from './operation.ts';

export const addressOperations = [
  defineOperation({
    id: 'validateAddress',
    method: 'POST',
    path: '/addresses/validate',
    tag: 'Addresses',
    summary: 'Validate and normalize a US address',
    description:
      'Normalizes to USPS style and checks that the ZIP exists and agrees with the city and state. A misspelt city is corrected ' +
      'from the ZIP; a ZIP that belongs to another city or state makes the address invalid. An address found wrong is still a 200, with ' +
      '`valid: false` and `messages` saying why; only a request that breaks the schema is a 400. Nothing is stored.',
    body: AddressValidationRequest,
    response: Type.Ref(AddressValidation),
    responseDescription: 'The verdict and the normalized address',
    errors: [],
    readOnly: true,
    handler: (ctx, { body }) => checkAddress(ctx, body.address),
  }),
];
