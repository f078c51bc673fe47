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
    summary: 'Validate and normalize an address',
    description:
      'A US address is normalized to USPS style and its ZIP checked against the city and state: a misspelt city is corrected ' +
      'from the ZIP; a ZIP that belongs to another city or state makes the address invalid. An address elsewhere is checked for its ' +
      "country's forms (an ISO country code, the state's code where the country needs one, the postal code's form) and written in upper " +
      'case with its postal code spaced as the country writes it. With a live key a carrier also checks the street and number (USPS, UPS or ' +
      'FedEx in the US; FedEx abroad, in the countries it has address data for); with a test key streets are not checked. `checks` lists what was checked. An address ' +
      'found wrong is still a 200, with `valid: false` and `messages` saying why; only a request that breaks the schema is a 400. Nothing is stored.',
    body: AddressValidationRequest,
    response: Type.Ref(AddressValidation),
    responseDescription: 'The verdict and the normalized address',
    errors: [],
    readOnly: true,
    handler: (ctx, { body }) => checkAddress(ctx, body.address),
  }),
];
