import { Type } from '@sinclair/typebox';
import { closed, isoDate, streetLines } from './parts.ts';

/*
 * POST /address/v1/addresses/resolve, schema Full_Schema_Validate_Address of
 * address-validation/v1/Addresses-Resource.json ("Address Validation APi", info.version 1.0.0) in
 * ShipStream/fedex-rest-php-sdk resources/models/.raw/ at commit bc94dcd2c7254f105842125a3eb671c3f614d072 (2025-10-17).
 * The document's Address has no residential flag: that is what FedEx answers, not what it is asked.
 */

/** Address: streetLines, city and postalCode required; "Maximum up to three lines", "Recommended limit per line is 35". */
const address = closed(
  {
    streetLines,
    city: Type.String({ minLength: 1 }),
    stateOrProvinceCode: Type.String({ maxLength: 2 }),
    postalCode: Type.String({ minLength: 1 }),
    countryCode: Type.String({ minLength: 2, maxLength: 2 }),
  },
  { required: ['streetLines', 'city', 'postalCode'] },
);

/** "Up to 100 of these can be submitted in a single request." */
export const fedexAddressRequest = closed(
  {
    inEffectAsOfTimestamp: isoDate,
    validateAddressControlParameters: closed({ includeResolutionTokens: Type.Boolean() }),
    addressesToValidate: Type.Array(closed({ address, clientReferenceId: Type.String() }, { required: ['address'] }), { minItems: 1, maxItems: 100 }),
  },
  { required: ['addressesToValidate'] },
);
