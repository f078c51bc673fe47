import { Type } from '@sinclair/typebox';
import { closed, isoDate, strings } from './parts.ts';

/*
 * POST /track/v1/trackingnumbers, schema Full_Schema_Tracking_Numbers of track/v1/TrackingNumbers-Resource.json
 * ("Basic Integrated Visibility", info.version 1.0.0) in ShipStream/fedex-rest-php-sdk resources/models/.raw/ at
 * commit bc94dcd2c7254f105842125a3eb671c3f614d072 (2025-10-17).
 */

const trackingNumberInfo = closed(
  {
    trackingNumber: Type.String({ minLength: 1 }),
    carrierCode: strings([
      'FDXE', 'FDXG', 'FXSP', 'FXFR', 'FDXC', 'FXCC', 'FEDEX_CARGO', 'FEDEX_CUSTOM_CRITICAL', 'FEDEX_EXPRESS', 'FEDEX_FREIGHT',
      'FEDEX_GROUND', 'FEDEX_OFFICE', 'FEDEX_KINKOS', 'FX', 'FDFR', 'FDEG', 'FXK', 'FDC', 'FDCC',
    ]),
    trackingNumberUniqueId: Type.String(),
  },
  { required: ['trackingNumber'] },
);

/** "At least one occurrence of TrackingInfo is required. Maximum limit is 30." */
export const fedexTrackRequest = closed(
  {
    includeDetailedScans: Type.Boolean(),
    trackingInfo: Type.Array(closed({ trackingNumberInfo, shipDateBegin: isoDate, shipDateEnd: isoDate }, { required: ['trackingNumberInfo'] }), { minItems: 1, maxItems: 30 }),
  },
  { required: ['includeDetailedScans', 'trackingInfo'] },
);

/*
 * POST /track/v1/trackingdocuments, schema Full_Schema_SPOD of track/v1/TrackingDocuments-Resource.json (same source
 * and commit): trackDocumentDetail (documentType required: SIGNATURE_PROOF_OF_DELIVERY, BILL_OF_LADING or
 * FREIGHT_BILLING_DOCUMENT; documentFormat PDF or PNG, "key sensitive") and trackDocumentSpecification ("At least one
 * … Maximum limit is 30"), each a trackingNumberInfo with optional ship dates and the account number the freight
 * documents need.
 */
export const fedexTrackDocumentsRequest = closed(
  {
    trackDocumentDetail: closed(
      { documentType: strings(['SIGNATURE_PROOF_OF_DELIVERY', 'BILL_OF_LADING', 'FREIGHT_BILLING_DOCUMENT']), documentFormat: strings(['PDF', 'PNG']) },
      { required: ['documentType'] },
    ),
    trackDocumentSpecification: Type.Array(closed({ trackingNumberInfo, shipDateBegin: isoDate, shipDateEnd: isoDate, accountNumber: Type.String() }, { required: ['trackingNumberInfo'] }), {
      minItems: 1,
      maxItems: 30,
    }),
  },
  { required: ['trackDocumentDetail', 'trackDocumentSpecification'] },
);
