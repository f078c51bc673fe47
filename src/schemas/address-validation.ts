import { Type } from '@sinclair/typebox';
import { Address } from './address.ts';
import { addressValidation } from './examples.ts';

export const AddressValidationRequest = Type.Object(
  { address: Type.Ref(Address, { description: 'The address to check, as the customer typed it' }) },
  {
    $id: 'AddressValidationRequest',
    title: 'AddressValidationRequest',
    description: 'An address to validate and normalize',
    additionalProperties: false,
    examples: [{ address: { street1: '415 mission street apt 4b', city: 'san fransisco', state: 'ca', zip: '941051804' } }],
  },
);

export const AddressValidation = Type.Object(
  {
    valid: Type.Boolean({ description: 'Whether carriers can deliver to the normalized address' }),
    address: Type.Ref(Address, {
      description: "The address normalized: in the US in USPS style (upper case, standard abbreviations, unit on street2, ZIP+4 with its dash); elsewhere in upper case, the state as its code and the postal code spaced as its country writes it",
    }),
    corrections: Type.Array(
      Type.Object(
        {
          field: Type.String({ description: 'The address field changed', examples: ['city'] }),
          from: Type.String({ description: 'Its value as sent (empty when it was not sent)' }),
          to: Type.String({ description: 'Its normalized value' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Each field changed beyond case and punctuation' },
    ),
    messages: Type.Array(
      Type.Object(
        {
          code: Type.String({
            description: 'What was found, for a program to branch on',
            examples: [
              'city_corrected', 'zip_not_found', 'zip_city_mismatch', 'zip_state_mismatch', 'state_corrected', 'unknown_state', 'missing_house_number', 'missing_street', 'undeliverable',
              'unknown_country', 'country_corrected', 'state_required', 'zip_required', 'zip_format', 'zip_not_used', 'street_not_checked',
            ],
          }),
          detail: Type.String({ description: 'The same for a person to read' }),
        },
        { additionalProperties: false },
      ),
      { description: 'What was corrected or is wrong, one message each; the reasons when `valid` is false' },
    ),
    residential: Type.Boolean({ description: 'Guessed: a company name or a business unit (STE, FL, RM…) means a business' }),
    checks: Type.Array(
      Type.Object(
        {
          check: Type.String({
            description: 'Which check, for a program to branch on: `country_code`, `state_code` and `postal_code_format` for any country; `street_format` and `zip_city_state` in the US; `carrier_street` where a live carrier checked the street and number',
            examples: ['postal_code_format'],
          }),
          detail: Type.String({ description: 'What was checked, and with what', examples: ['K1A 0A9 has the form of a postal code of Canada'] }),
        },
        { additionalProperties: false },
      ),
      { description: 'Each check that was made, whatever it found; a check not listed was not made' },
    ),
  },
  {
    $id: 'AddressValidation',
    title: 'AddressValidation',
    description: 'The verdict on an address, and the address in the form carriers expect',
    additionalProperties: false,
    examples: [addressValidation],
  },
);
