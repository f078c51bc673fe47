import { Type } from '@sinclair/typebox';
import { call, container, oneOf, text, transactionHeaders } from './common.ts';

// UPS Pickup API, our schemas of the requests shipd builds, from Pickup.yaml in UPS-API/api-documentation at commit
// cf813de955d5c052563d6fc387e59597a7ea816e (2026-04-15), server .../api: Pickup Rate (POST
// /shipments/{version}/pickup/{pickuptype}, PICKUPRequestWrapper), Pickup Creation (POST /pickupcreation/{version}/pickup,
// PICKUPCreationRequestWrapper), Pickup Cancel (DELETE /shipments/{version}/pickup/{CancelBy}, the PRN in the Prn
// header) and Pickup Pending Status (GET /shipments/{version}/pickup/{pickuptype}, AccountNumber header). Required
// elements, lengths and listed values are the spec's; only the elements shipd may send are listed.

/** transId and transactionSrc are `required: false` on every Pickup path. */
const headers = { transId: Type.Optional(transactionHeaders.transId), transactionSrc: Type.Optional(transactionHeaders.transactionSrc) };

/** "Valid values: - v2409". */
const version = 'v2409';

/** The shipper's account: "UPS account number", 6 to 10 characters, and its country. */
const account = container({ AccountNumber: text(10, 6), AccountCountryCode: text(2, 2) });

/** HHmm: "Hour: 0-23, Minute: 0-59". */
const hhmm = Type.String({ pattern: '^([01][0-9]|2[0-3])[0-5][0-9]$' });
/** yyyyMMdd. Creation's PickupDate says "minLength: 4, maxLength: 4" beside "Format: yyyyMMdd", as its own example (8 digits) does not keep: the format is what is checked. */
const yyyymmdd = Type.String({ pattern: '^\\d{4}(0[1-9]|1[012])(0[1-9]|[12][0-9]|3[01])$' });

const dateInfo = container({ CloseTime: hhmm, ReadyTime: hhmm, PickupDate: yyyymmdd });
const yesNo = oneOf(['Y', 'N']);
const request = container({ TransactionReference: Type.Optional(container({ CustomerContext: Type.Optional(text(512)) })) });

/** PickupRateRequest: ServiceDateOption, PickupAddress, Request and AlternateAddressIndicator are required; 03 needs PickupDateInfo. */
export const pickupRateCall = call(new RegExp(`^/api/shipments/${version}/pickup/(oncall|smart|both)$`), {
  headers: Type.Object(headers),
  body: container({
    PickupRateRequest: container({
      Request: request,
      ShipperAccount: Type.Optional(account),
      PickupAddress: container({
        AddressLine: Type.Optional(text(73)),
        City: text(50),
        StateProvince: Type.Optional(text(50)),
        PostalCode: text(8),
        CountryCode: text(2, 2),
        ResidentialIndicator: yesNo,
      }),
      AlternateAddressIndicator: yesNo,
      ServiceDateOption: oneOf(['01', '02', '03']),
      PickupDateInfo: Type.Optional(dateInfo),
    }),
  }),
});

/**
 * PickupCreationRequest for an on-call pickup paid by the shipper account (PaymentMethod 01 "then
 * ShipperAccountNumber and ShipperAccount CountryCode must be provided"). TotalWeight.Weight is "One decimal digit"
 * at a length of 6; PickupPiece.Quantity "Max per service: 999"; ContainerCode 01 package, 02 letter (03 pallets are
 * for freight only).
 */
export const pickupCreationCall = call(new RegExp(`^/api/pickupcreation/${version}/pickup$`), {
  headers: Type.Object(headers),
  body: container({
    PickupCreationRequest: container({
      Request: request,
      RatePickupIndicator: yesNo,
      Shipper: container({ Account: account }),
      PickupDateInfo: dateInfo,
      PickupAddress: container({
        CompanyName: text(27),
        ContactName: text(22),
        AddressLine: Type.Array(text(73), { minItems: 1, maxItems: 1 }),
        Room: Type.Optional(text(8)),
        Floor: Type.Optional(text(3)),
        City: text(50),
        StateProvince: Type.Optional(text(50)),
        PostalCode: Type.Optional(text(8)),
        CountryCode: text(2, 2),
        ResidentialIndicator: yesNo,
        PickupPoint: Type.Optional(text(11)),
        Phone: container({ Number: text(25), Extension: Type.Optional(text(10)) }),
      }),
      AlternateAddressIndicator: yesNo,
      PickupPiece: Type.Array(
        container({
          ServiceCode: Type.String({ pattern: '^[0-9A-Z]{3}$' }),
          Quantity: Type.String({ pattern: '^[1-9][0-9]{0,2}$' }),
          DestinationCountryCode: text(2, 2),
          ContainerCode: oneOf(['01', '02']),
        }),
        { minItems: 1 },
      ),
      TotalWeight: Type.Optional(container({ Weight: Type.String({ pattern: '^(?=.{6}$)\\d+\\.\\d$' }), UnitOfMeasurement: oneOf(['LBS', 'KGS']) })),
      OverweightIndicator: Type.Optional(yesNo),
      PaymentMethod: Type.Literal('01'),
      SpecialInstruction: Type.Optional(text(57)),
      ReferenceNumber: Type.Optional(text(35)),
    }),
  }),
});

/** Cancel by PRN: CancelBy 02 ("01 = AccountNumber, 02 = PRN"), the PRN "Required if CancelBy = prn" in the Prn header, 11 characters (PickupCancelRequest.PRN). */
export const pickupCancelCall = call(new RegExp(`^/api/shipments/${version}/pickup/02$`), {
  headers: Type.Object({ ...headers, Prn: Type.String({ minLength: 11, maxLength: 26 }) }),
});

/** Pending status: the AccountNumber header is required, "Length 6 or 10". */
export const pickupPendingCall = call(new RegExp(`^/api/shipments/${version}/pickup/(oncall|smart|both)$`), {
  headers: Type.Object({ ...headers, AccountNumber: Type.String({ pattern: '^([A-Za-z0-9]{6}|[A-Za-z0-9]{10})$' }) }),
});
