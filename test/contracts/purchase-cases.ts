import type { ParcelSpec, DomesticPurchaseRequest } from '../../src/carriers/carrier.ts';
import type { LabelFormat } from '../../src/labels/label-data.ts';
import type { Address } from '../../src/schemas/address.ts';

export interface PurchaseCase {
  request: DomesticPurchaseRequest;
  /** What the case is, for a failure message: direction, service, format, parcel and the two addresses. */
  what: string;
}

/**
 * Every purchase a contract test checks: each service in each label format, each parcel, between every two of the
 * addresses, outbound and return; every other case carries an order reference. `boxSets` adds shipments of several
 * boxes, each set in the same way.
 */
export function* purchaseCases(o: {
  services: readonly string[];
  parcels: Readonly<Record<string, ParcelSpec>>;
  addresses: Readonly<Record<string, Address>>;
  shipDate: Date;
  reference: string;
  boxSets?: Readonly<Record<string, readonly ParcelSpec[]>>;
}): Generator<PurchaseCase> {
  const formats: LabelFormat[] = ['pdf', 'png', 'zpl'];
  let n = 0;
  const shipments: [string, ParcelSpec[]][] = [
    ...Object.entries(o.parcels).map(([name, parcel]): [string, ParcelSpec[]] => [name, [parcel]]),
    ...Object.entries(o.boxSets ?? {}).map(([name, boxes]): [string, ParcelSpec[]] => [name, [...boxes]]),
  ];
  for (const service of o.services)
    for (const labelFormat of formats)
      for (const [parcelName, parcels] of shipments)
        for (const [fromName, from] of Object.entries(o.addresses))
          for (const [toName, to] of Object.entries(o.addresses))
            for (const isReturn of [false, true]) {
              const request: DomesticPurchaseRequest = {
                from, to, parcels, shipDate: o.shipDate, service, labelFormat, isReturn, quotedCents: 1000, idempotencyKey: `k-${n}`,
                ...(n % 2 ? { reference: o.reference } : {}),
              };
              n++;
              yield { request, what: `${isReturn ? 'return' : 'outbound'} ${service} ${labelFormat} ${parcelName} from ${fromName} to ${toName}` };
            }
}
