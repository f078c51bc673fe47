import { Type, type Static } from '@sinclair/typebox';
import { shipTo, shipToAbroad } from './examples.ts';

/**
 * USPS two-letter codes of the states, DC, territories, freely associated states and military post offices: every
 * place an address of country US can be.
 */
export const usStates = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI',
  'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'AS', 'GU', 'MP', 'PR', 'VI', 'FM', 'MH', 'PW', 'AA',
  'AE', 'AP',
] as const;

const line = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });

const usState = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Two-letter USPS state or territory code' });
const usZip = Type.String({ pattern: '^[0-9]{5}(-?[0-9]{4})?$', description: 'ZIP or ZIP+4' });

/**
 * What an address in the US needs beyond any address: the Address schema applies it when `country` is US (in any case) or left out
 * (JSON Schema if/then), and code that validates with TypeBox's own checker, which skips if/then, applies it itself.
 */
export const UsAddressParts = Type.Object({ state: usState, zip: usZip });

export const Address = Type.Object(
  {
    name: Type.Optional(line(100, 'Person to ship to or from')),
    company: Type.Optional(line(100, 'Company name')),
    street1: line(100, 'Street address'),
    street2: Type.Optional(Type.String({ maxLength: 100, description: 'Apartment, suite, unit' })),
    city: line(60, 'City'),
    state: Type.Optional(
      line(50, 'State, province or region. In the US the two-letter USPS code of the state, territory or military post office (AA, AE, AP). ' +
        'Required in the US, Canada, Australia, Mexico, Brazil and India, as the ISO 3166-2 code (ON, NSW, CMX, SP, MH) or its name; optional elsewhere'),
    ),
    zip: Type.Optional(
      Type.String({
        maxLength: 12,
        pattern: '^[A-Za-z0-9][A-Za-z0-9 -]*$',
        description: "Postal code in its country's format: a ZIP or ZIP+4 in the US (94105, 94105-1804), SW1A 1AA, K1A 0B1, 100-0001. Required where the country has postal codes, left out where it has none",
        examples: ['94105', '94105-1804', 'K1A 0B1'],
      }),
    ),
    country: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2}$',
        default: 'US',
        description:
          'ISO 3166-1 alpha-2 country code. US territories (PR, VI, GU, AS, MP), the freely associated states (FM, MH, PW) and military post offices are US addresses with that state code; sent as a country, such a code becomes US and the state',
        examples: ['US', 'CA'],
      }),
    ),
    phone: Type.Optional(Type.String({ pattern: '^[0-9+()\\-. ]{7,20}$', description: "Phone number; required of a recipient abroad, as UPS and FedEx need it for customs clearance" })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'Email address' })),
    residential: Type.Optional(Type.Boolean({ description: 'Whether the address is a home' })),
  },
  {
    $id: 'Address',
    title: 'Address',
    description: "A postal address in any country, with the person or company at it; `state` and `zip` as its country has them",
    additionalProperties: false,
    if: { type: 'object', properties: { country: { type: 'string', pattern: '^[Uu][Ss]$' } } },
    then: { type: 'object', required: ['state', 'zip'], properties: { state: usState, zip: usZip } },
    examples: [shipTo, shipToAbroad],
  },
);
/** An address anywhere, as a client may send it: `state` and `zip` only where its country has them. */
export type AnyAddress = Static<typeof Address>;
/** An address with a state and a postal code, as every US address has: what carriers are handed. */
export type Address = AnyAddress & { state: string; zip: string };

/** Checks an address's state code against the list a schema pattern cannot hold readably. */
export function isKnownState(state: string): boolean {
  return (usStates as readonly string[]).includes(state.toUpperCase());
}
