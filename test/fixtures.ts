import { idempotencyTtlMs } from '../src/domain/core/idempotency.ts';
import type { LabelData } from '../src/labels/label-data.ts';

/** Request bodies the tests share. */
export const sanFrancisco = { name: 'Ada Lovelace', street1: '415 Mission St', city: 'San Francisco', state: 'CA', zip: '94105' };
export const austin = { name: 'Warehouse', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' };

export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    order_number: '1042',
    ship_to: sanFrancisco,
    ship_from: austin,
    items: [{ sku: 'MUG-1', name: 'Mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' } }],
    parcel: { weight: { value: 2, unit: 'lb' }, dimensions: { length: 10, width: 8, height: 4, unit: 'in' } },
    ...overrides,
  };
}

/** An order to Toronto with a customs declaration built from its line item: USPS and FedEx rate it in test mode. */
export function torontoOrderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return orderBody({
    ship_to: { name: 'Jean Tremblay', street1: '100 Queen St W', city: 'Toronto', state: 'ON', zip: 'M5H 2N2', country: 'CA', phone: '+1 416 555 0142' },
    items: [{ sku: 'MUG-1', name: 'Ceramic mug', quantity: 2, unit_price: { amount: '12.50', currency: 'USD' }, weight: { value: 12, unit: 'oz' } }],
    customs: {
      contents_type: 'merchandise',
      non_delivery: 'return',
      signer: 'Grace Hopper',
      certify: true,
      items: [{ sku: 'MUG-1', hs_tariff_number: '6912.00', origin_country: 'US' }],
    },
    ...overrides,
  });
}

/** What the label tests draw: one label of each carrier, with a ZIP+4 and a second address line. */
export const labelBase = {
  from: { name: 'Warehouse', street1: '1100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  to: { name: 'Ada Lovelace', street1: '415 Mission St', street2: 'Apt 4', city: 'San Francisco', state: 'CA', zip: '94105-1804' },
  weightLb: 2.4,
  dimensionsIn: { length: 10, width: 8, height: 4 },
  shipDate: '2026-11-23',
  zone: '8',
  references: ['1042'],
  isReturn: false,
  sample: true,
};

export const sampleLabels: LabelData[] = [
  { ...labelBase, carrier: 'ups', serviceCode: '03', serviceName: 'UPS Ground', trackingNumber: '1Z1442YY7229014688' },
  { ...labelBase, carrier: 'usps', serviceCode: 'USPS_GROUND_ADVANTAGE', serviceName: 'USPS Ground Advantage', trackingNumber: '9400111206206406260787' },
  { ...labelBase, carrier: 'fedex', serviceCode: 'FEDEX_2_DAY', serviceName: 'FedEx 2Day', trackingNumber: '794953535000' },
];

/** A stored answer of an idempotency key, as the purchase and order routes leave one, expiring at `expires`. */
export function storedIdempotencyKey(owner: string, idemKey: string, expires: Date, now: Date) {
  return {
    owner_key_id: owner,
    method: 'POST',
    path: '/api/integrations/v1/orders',
    idem_key: idemKey,
    fingerprint: 'f',
    status: 'done' as const,
    response_status: 201,
    response_type: 'application/json',
    response_body: '{}',
    locked_until: now.toISOString(),
    created_at: new Date(expires.getTime() - idempotencyTtlMs).toISOString(),
    expires_at: expires.toISOString(),
  };
}
