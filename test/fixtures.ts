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
