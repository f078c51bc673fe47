import { Type, type Static } from '@sinclair/typebox';
import { shipTo } from './examples.ts';

/** USPS two-letter codes of the states, DC, territories and military post offices. */
export const usStates = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI',
  'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'AS', 'GU', 'MP', 'PR', 'VI', 'AA', 'AE', 'AP',
] as const;

const line = (max: number, description: string) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description });

export const Address = Type.Object(
  {
    name: Type.Optional(line(100, 'Person to ship to or from')),
    company: Type.Optional(line(100, 'Company name')),
    street1: line(100, 'Street address'),
    street2: Type.Optional(Type.String({ maxLength: 100, description: 'Apartment, suite, unit' })),
    city: line(60, 'City'),
    state: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Two-letter USPS state or territory code', examples: ['CA'] }),
    zip: Type.String({ pattern: '^[0-9]{5}(-?[0-9]{4})?$', description: 'ZIP or ZIP+4', examples: ['94105', '94105-1804'] }),
    country: Type.Optional(Type.Literal('US', { description: 'Only US addresses are supported', default: 'US' })),
    phone: Type.Optional(Type.String({ pattern: '^[0-9+()\\-. ]{7,20}$', description: 'Phone number' })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'Email address' })),
    residential: Type.Optional(Type.Boolean({ description: 'Whether the address is a home' })),
  },
  {
    $id: 'Address',
    title: 'Address',
    description: 'A US postal address, with the person or company at it',
    additionalProperties: false,
    examples: [shipTo],
  },
);
export type Address = Static<typeof Address>;

/** Checks an address's state code against the list a schema pattern cannot hold readably. */
export function isKnownState(state: string): boolean {
  return (usStates as readonly string[]).includes(state.toUpperCase());
}
