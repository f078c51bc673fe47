import { Type } from '@sinclair/typebox';
import { accountNumber, closed, isoDate, strings } from './parts.ts';

// Ground End of Day Close, `PUT /ship/v1/endofday/`. Source: Ship EndofDayClose API 1.0.0 in
// ShipStream/fedex-rest-php-sdk resources/models/.raw/ground-eod-close/v1/ShipmentCloseAPI-Resource.json (commit
// e97206763684cce58dba6682a5d125b1c864318b), FullSchema_GEOD_PUT with CloseDocumentSpecification, Op950Detail and
// Version. The document marks no field required; its MinimumSamplePayload-Put-GroundClose names the four a close
// sends (closeReqType, groundServiceCategory, accountNumber, closeDate), so those are required here. trackingNumber
// and reprintOption are "only applicable for reprint EndofDay", so a close refuses them.

const measure = closed({ value: Type.String(), units: strings(['CM', 'IN']) });

const op950Detail = closed({
  format: closed({
    topOfPageOffset: measure,
    imageType: strings(['DIB', 'DOC', 'DPL', 'EPL2', 'GIF', 'PDF', 'PNG', 'RTF', 'TEXT', 'ZPLII']),
    stockType: Type.String(),
    locale: Type.String(),
  }),
});

export const fedexEndOfDayRequest = closed(
  {
    closeReqType: strings(['GCDR']),
    accountNumber,
    groundServiceCategory: strings(['GROUND']),
    closeDate: isoDate,
    closeDocumentSpecification: closed({ closeDocumentTypes: Type.Array(strings(['MANIFEST', 'OP_950'])), op950Detail }),
    version: closed({ major: Type.Integer(), minor: Type.Integer(), patch: Type.Integer() }),
  },
  { required: ['closeReqType', 'groundServiceCategory', 'accountNumber', 'closeDate'] },
);
