import type { ServerResponse } from 'node:http';
import { labelPdf } from './label-files.ts';
import { sendJson } from './server.ts';

// The fake FedEx's Ground End of Day Close (ground-eod-close/v1 ShipmentCloseAPI-Resource.json, commit
// e97206763684cce58dba6682a5d125b1c864318b): PUT /ship/v1/endofday/ closes every Ground shipment of the account
// shipped on closeDate and not cancelled or closed before, and answers SHPCResponseVO with a MANIFEST closeDocument
// (one PDF part, Base64) when asked for one. A closeDate that is not a real date is refused with the spec's example
// error, AVAILABILITY.SHIP.DATE.INVALID.

/** What the close needs to know of a shipment the fake sold. */
export interface ClosableShipment {
  master: string;
  pieces: string[];
  cancelled: boolean;
  serviceType?: string;
  shipDate?: string;
  closedOn?: string;
}

export interface EndOfDayFake {
  /** Every close made: its date and the tracking numbers it closed. */
  closes: { closeDate: string; trackingNumbers: string[] }[];
  /** The next close is refused with this error (a 400 in FedEx's envelope). */
  refuseNext: { code: string; message: string } | null;
}

const groundServices = new Set(['FEDEX_GROUND', 'GROUND_HOME_DELIVERY']);

export function endOfDayRoute(shipments: () => Iterable<ClosableShipment>) {
  const state: EndOfDayFake = { closes: [], refuseNext: null };

  function answer(body: Record<string, unknown>, res: ServerResponse): void {
    const bad = (code: string, message: string) => sendJson(res, 400, { transactionId: 'fake-txn', errors: [{ code, message }] });
    if (state.refuseNext) {
      const { code, message } = state.refuseNext;
      state.refuseNext = null;
      return bad(code, message);
    }
    const closeDate = String(body.closeDate);
    if (Number.isNaN(Date.parse(`${closeDate}T00:00:00Z`)) || new Date(`${closeDate}T00:00:00Z`).toISOString().slice(0, 10) !== closeDate) {
      return bad('AVAILABILITY.SHIP.DATE.INVALID', 'Ship date is invalid.');
    }
    const closing = [...new Set(shipments())].filter((s) => !s.cancelled && !s.closedOn && s.shipDate === closeDate && groundServices.has(s.serviceType ?? ''));
    for (const s of closing) s.closedOn = closeDate;
    const trackingNumbers = closing.flatMap((s) => s.pieces);
    state.closes.push({ closeDate, trackingNumbers });
    const types = ((body.closeDocumentSpecification as { closeDocumentTypes?: string[] } | undefined)?.closeDocumentTypes ?? []) as string[];
    const closeDocuments = types.includes('MANIFEST')
      ? [
          {
            type: 'MANIFEST',
            shippingCycle: `${closeDate.replace(/-/g, '')}${String(state.closes.length).padStart(8, '0')}`,
            shippingDocumentDisposition: 'RETURNED',
            resolution: 200,
            copiesToPrint: 1,
            parts: [{ documentPartSequenceNumber: 1, image: labelPdf(`FedEx MANIFEST ${closeDate}`).toString('base64') }],
          },
        ]
      : [];
    sendJson(res, 200, { transactionId: 'fake-txn', output: { alerts: [], closeDocuments } });
  }

  return { state, answer };
}
