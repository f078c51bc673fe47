import type { AbroadPurchase } from '../../src/carriers/abroad.ts';
import type { Address, AnyAddress } from '../../src/schemas/address.ts';
import type { Customs } from '../../src/schemas/customs.ts';

// Shipments abroad every carrier's international contract test builds: recipients in ten countries as their
// posts write them (with and without states and postal codes), declarations of each kind.

export const merchant: Address = {
  name: 'Ada Lovelace', company: 'Analytical Engines', street1: '415 Mission St', street2: 'Floor 5', city: 'San Francisco', state: 'CA', zip: '94105-1804', phone: '+1 (415) 555-0100', email: 'ada@example.com',
};

export const recipientsAbroad: Record<string, AnyAddress> = {
  CA: { name: 'Grace Tremblay', street1: '24 Sussex Dr', city: 'Ottawa', state: 'ON', zip: 'K1M 1M4', country: 'CA', phone: '+1 613 555 0199' },
  MX: { name: 'Frida Kahlo', street1: 'Londres 247', street2: 'Del Carmen, Coyoacán', city: 'Ciudad de México', state: 'CMX', zip: '04100', country: 'MX', phone: '+52 55 5554 5999' },
  GB: { name: 'Alan Turing', company: 'Bletchley Park Trust', street1: 'The Mansion, Bletchley Park', city: 'Milton Keynes', zip: 'MK3 6EB', country: 'GB', phone: '+44 1908 640404', email: 'alan@example.co.uk' },
  DE: { name: 'Emmy Noether', street1: 'Bunsenstraße 3-5', city: 'Göttingen', zip: '37073', country: 'DE', phone: '+49 551 39 21000' },
  FR: { name: 'Marie Curie', street1: '11 Rue Pierre et Marie Curie', city: 'Paris', zip: '75005', country: 'FR', phone: '+33 1 42 34 67 00' },
  AU: { name: 'Ruby Payne-Scott', street1: '1 Macquarie St', city: 'Sydney', state: 'NSW', zip: '2000', country: 'AU', phone: '+61 2 9230 2000' },
  JP: { name: 'Hideki Yukawa', street1: '1-1 Chiyoda', city: 'Chiyoda-ku, Tokyo', zip: '100-0001', country: 'JP', phone: '+81 3 3213 1111' },
  BR: { name: 'Cesar Lattes', street1: 'Av. Paulista 1578', city: 'São Paulo', state: 'SP', zip: '01310-200', country: 'BR', phone: '+55 11 3149 5959' },
  IN: { name: 'C. V. Raman', street1: '12 MG Road', city: 'Bengaluru', state: 'KA', zip: '560001', country: 'IN', phone: '+91 80 2221 4000' },
  HK: { name: 'Charles Kao', street1: '1 Queen\'s Road Central', city: 'Hong Kong', country: 'HK', phone: '+852 2822 1111' },
};

const mug = { description: 'Stoneware coffee mug', quantity: 2, unit_value: { amount: '18.50', currency: 'USD' }, weight: { value: 0.9, unit: 'lb' as const }, hs_tariff_number: '691200', origin_country: 'US', sku: 'MUG-1' };
const scarf = { description: 'Hand-knitted merino wool scarf, charcoal grey, 180 cm long with fringes', quantity: 1, unit_value: { amount: '45.00', currency: 'USD' }, weight: { value: 250, unit: 'g' as const }, hs_tariff_number: '6117100000', origin_country: 'PE' };
const header = { non_delivery: 'return' as const, signer: 'Ada Lovelace', certify: true as const };

export const declarations: Record<string, Customs> = {
  merchandise: { ...header, contents_type: 'merchandise', incoterm: 'DAP', items: [mug, scarf] },
  ddp: { ...header, contents_type: 'merchandise', incoterm: 'DDP', invoice_number: 'INV-1042', eel_pfc: 'NOEEI 30.37(a)', items: [mug] },
  gift: { ...header, contents_type: 'gift', non_delivery: 'abandon', items: [scarf] },
  itn: { ...header, contents_type: 'merchandise', aes_itn: 'X20261123123456', items: [{ ...mug, quantity: 200, unit_value: { amount: '15.00', currency: 'USD' } }] },
  documents: { ...header, contents_type: 'documents', items: [{ description: 'Signed contracts', quantity: 1, unit_value: { amount: '0', currency: 'USD' }, weight: { value: 4, unit: 'oz' }, hs_tariff_number: '490700', origin_country: 'US' }] },
  other: { ...header, contents_type: 'other', contents_explanation: 'Replacement parts under warranty', items: [{ ...mug, description: 'Replacement ceramic lid' }] },
  euros: { ...header, contents_type: 'sample', items: [{ ...mug, unit_value: { amount: '12.00', currency: 'EUR' } }] },
};

/** Every recipient with every declaration, each with a parcel that holds what it declares. */
export function* abroadCases(services: readonly string[]): Generator<{ request: AbroadPurchase; what: string }> {
  let n = 0;
  for (const service of services)
    for (const [country, to] of Object.entries(recipientsAbroad))
      for (const [kind, customs] of Object.entries(declarations)) {
        const labelFormat = (['pdf', 'zpl', 'png'] as const)[n % 3]!;
        const request: AbroadPurchase = {
          from: merchant, to, customs, service, labelFormat, idempotencyKey: `abroad-${n}`,
          parcels: [{ weightLb: 6.5, dimensionsIn: { length: 12, width: 10, height: 6 } }],
          shipDate: new Date('2026-11-30T12:00:00Z'),
          ...(n % 2 ? { reference: 'ORD-1043' } : {}),
        };
        n++;
        yield { request, what: `${service} to ${country} with ${kind} (${labelFormat})` };
      }
}
