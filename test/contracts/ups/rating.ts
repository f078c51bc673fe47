import { Type, type TProperties } from '@sinclair/typebox';
import { accountNumber, addressLines, call, container, deliveryConfirmation, dryIceRegulationSets, dryIceWeight, indicator, oneOf, optionIndicators, text } from './common.ts';

// UPS Rating API, our schema of the requests shipd builds, from Rating.yaml in UPS-API/api-documentation at commit
// 66148b9223b2daf9ec87f449aa482c39b4bd3a4e (2026-07-21): path /rating/{version}/{requestoption} (server .../api),
// body RATERequestWrapper. Required elements, lengths and listed values are the spec's.

/** "Valid values: - v2409"; the deprecated path lists v1 … v2205, which shipd does not use. */
export const ratingVersions = ['v2409'] as const;
export const rateRequestOptions = ['Rate', 'Shop', 'Ratetimeintransit', 'Shoptimeintransit'] as const;

/** Shipment.Service.Code, domestic and international values. */
export const ratingServiceCodes = ['01', '02', '03', '12', '13', '14', '59', '75', '07', '08', '11', '54', '65', '96', '71'] as const;
/** Package.PackagingType.Code. */
export const ratingPackagingCodes = ['00', '01', '02', '03', '04', '21', '24', '25', '30', '2a', '2b', '2c'] as const;
/** ShipmentServiceOptions.ReturnService.Code. */
export const ratingReturnServiceCodes = ['3', '5', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20'] as const;

/** Rating's addresses: StateProvinceCode is 2 characters here (5 in Shipping); ShipFrom's AddressLine is optional. */
const address = (extra: TProperties = {}, linesRequired = true) =>
  container({
    AddressLine: linesRequired ? addressLines(35) : Type.Optional(addressLines(35)),
    City: Type.Optional(text(30)),
    StateProvinceCode: Type.Optional(text(2, 2)),
    PostalCode: Type.Optional(text(9)),
    CountryCode: text(2, 2),
    ...extra,
  });

const party = (addr: ReturnType<typeof address>, extra: TProperties = {}) =>
  container({ Name: Type.Optional(text(35)), AttentionName: Type.Optional(text(35)), Address: addr, ...extra });

/** UnitOfMeasurement: in Rating the Description is required ("Text description of the code"). */
const unit = (codes: readonly string[]) => container({ Code: oneOf(codes), Description: text(35) });

const pkg = container({
  PackagingType: Type.Optional(container({ Code: oneOf(ratingPackagingCodes), Description: Type.Optional(text(35)) })),
  Dimensions: Type.Optional(
    container({
      UnitOfMeasurement: unit(['IN', 'CM']),
      // "6 digits in length with 2 digits of significance after the decimal point"
      Length: Type.String({ maxLength: 9, pattern: '^\\d{1,6}(\\.\\d{1,2})?$' }),
      Width: Type.String({ maxLength: 9, pattern: '^\\d{1,6}(\\.\\d{1,2})?$' }),
      Height: Type.String({ maxLength: 9, pattern: '^\\d{1,6}(\\.\\d{1,2})?$' }),
    }),
  ),
  PackageWeight: Type.Optional(container({ UnitOfMeasurement: unit(['LBS', 'KGS', 'OZS']), Weight: Type.String({ minLength: 1, maxLength: 6, pattern: '^\\d+(\\.\\d+)?$' }) })),
  // "AdditionalHandlingIndicator … Empty Tag."
  AdditionalHandlingIndicator: Type.Optional(indicator),
  // PackageServiceOptions_DeclaredValue: CurrencyCode and MonetaryValue required, the code 3 characters, the value a
  // string of exactly 8 ("minLength: 8, maxLength: 8"), an amount ("Absolute maximum value is 21474836.47").
  // PackageServiceOptions_DryIce: RegulationSet and DryIceWeight required; DryIceWeight_UnitOfMeasurement requires
  // Code ("00 - KG … 01 - LB", at most 2 characters) and Description (1 to 20).
  PackageServiceOptions: Type.Optional(
    container({
      DeliveryConfirmation: Type.Optional(deliveryConfirmation()),
      DeclaredValue: Type.Optional(container({ CurrencyCode: text(3, 3), MonetaryValue: Type.String({ minLength: 8, maxLength: 8, pattern: '^\\d+(\\.\\d{1,2})?$' }) })),
      DryIce: Type.Optional(
        container({
          RegulationSet: oneOf(dryIceRegulationSets),
          DryIceWeight: container({ UnitOfMeasurement: container({ Code: oneOf(['00', '01']), Description: text(20) }), Weight: dryIceWeight }),
          MedicalUseIndicator: Type.Optional(indicator),
          AuditRequired: Type.Optional(indicator),
        }),
      ),
    }),
  ),
});

/**
 * A UPS Access Point hold: ShipmentIndicationType (an array), Code "01 - Hold for Pickup at UPS Access Point", "02 - UPS
 * Access Point™ Delivery", 2 characters; AlternateDeliveryAddress "Required for the following ShipmentIndicationType
 * values: 01 … 02", its Address required, Name of no stated length; the Address requires CountryCode only,
 * StateProvinceCode 2 characters here, and POBoxIndicator is "Not valid with Shipment Indication Types 01, 02".
 */
const shipmentIndicationType = Type.Array(container({ Code: oneOf(['01', '02']), Description: Type.Optional(text(50)) }), { minItems: 1 });
const alternateDeliveryAddress = container({
  Name: Type.Optional(Type.String()),
  Address: container({
    AddressLine: Type.Optional(addressLines(35)),
    City: Type.Optional(text(30)),
    StateProvinceCode: Type.Optional(text(2, 2)),
    PostalCode: Type.Optional(text(9)),
    CountryCode: text(2, 2),
    ResidentialAddressIndicator: Type.Optional(indicator),
    POBoxIndicator: Type.Optional(indicator),
  }),
});
const accessPointRules = {
  if: { required: ['ShipmentIndicationType'], properties: { ShipmentIndicationType: { contains: { properties: { Code: { enum: ['01', '02'] } } } } } },
  then: { required: ['AlternateDeliveryAddress'], properties: { AlternateDeliveryAddress: { properties: { Address: { not: { required: ['POBoxIndicator'] } } } } } },
};

export const rateRequestBody = container({
  RateRequest: container({
    Request: container({
      SubVersion: Type.Optional(text(4, 4)),
      TransactionReference: Type.Optional(container({ CustomerContext: Type.Optional(text(512)) })),
    }),
    Shipment: container({
      Shipper: party(address(), { ShipperNumber: Type.Optional(accountNumber) }),
      ShipTo: party(address({ ResidentialAddressIndicator: Type.Optional(indicator) })),
      ShipFrom: Type.Optional(party(address({}, false))),
      AlternateDeliveryAddress: Type.Optional(alternateDeliveryAddress),
      ShipmentIndicationType: Type.Optional(shipmentIndicationType),
      PaymentDetails: Type.Optional(
        container({
          ShipmentCharge: Type.Array(container({ Type: oneOf(['01', '02']), BillShipper: Type.Optional(container({ AccountNumber: accountNumber })) }), { minItems: 1 }),
        }),
      ),
      Service: Type.Optional(container({ Code: oneOf(ratingServiceCodes), Description: Type.Optional(text(35)) })),
      NumOfPieces: Type.Optional(Type.String()),
      // "Package … maximum: 200".
      Package: Type.Array(pkg, { minItems: 1, maxItems: 200 }),
      ShipmentServiceOptions: Type.Optional(
        container({ ReturnService: Type.Optional(container({ Code: oneOf(ratingReturnServiceCodes), Description: Type.Optional(text(50)) })), ...optionIndicators }),
      ),
      ShipmentRatingOptions: Type.Optional(container({ NegotiatedRatesIndicator: Type.Optional(indicator) })),
      // "Required for international shipments when using request option "ratetimeintransit" or "shoptimeintransit""
      // (the rule is on rateCall, which knows the path); MonetaryValue "from 1 to 99999999".
      InvoiceLineTotal: Type.Optional(container({ CurrencyCode: text(3, 3), MonetaryValue: Type.String({ pattern: '^[1-9][0-9]{0,7}$' }) })),
      DeliveryTimeInformation: Type.Optional(
        container({
          PackageBillType: oneOf(['02', '03', '04', '07']),
          Pickup: Type.Optional(container({ Date: Type.String({ pattern: '^\\d{8}$' }), Time: Type.Optional(Type.String({ pattern: '^\\d{4}(\\d{2})?$' })) })),
        }),
      ),
    }, accessPointRules),
  }),
});

const shipFrom = (country: object) => ({ properties: { RateRequest: { properties: { Shipment: { required: ['ShipFrom'], properties: { ShipFrom: { properties: { Address: { required: ['CountryCode'], properties: { CountryCode: country } } } } } } } } } });
const shipTo = (country: object) => ({ properties: { RateRequest: { properties: { Shipment: { properties: { ShipTo: { properties: { Address: { required: ['CountryCode'], properties: { CountryCode: country } } } } } } } } } });

/**
 * The whole call: `additionalinfo=timeintransit` is the only query the spec defines. A rate with time in transit to
 * another country (shipd ships from the US) needs InvoiceLineTotal, and so does one from Puerto Rico, a country of its
 * own to UPS (PR), to the US (Rating.yaml at UPS-API/api-documentation e6f36df4: "Required for international
 * shipments when using request option … shoptimeintransit").
 */
export const rateCall = Type.Intersect([
  call(new RegExp(`^/api/rating/(${ratingVersions.join('|')})/(${rateRequestOptions.join('|')})$`), {
    query: container({ additionalinfo: Type.Optional(Type.Literal('timeintransit')) }),
    body: rateRequestBody,
  }),
  Type.Unsafe({
    if: { properties: { path: { pattern: 'timeintransit$' }, body: shipTo({ not: { const: 'US' } }) } },
    then: { properties: { body: { properties: { RateRequest: { properties: { Shipment: { required: ['InvoiceLineTotal'] } } } } } } },
  }),
  Type.Unsafe({
    if: { properties: { path: { pattern: 'timeintransit$' }, body: shipFrom({ const: 'PR' }) } },
    then: { properties: { body: { properties: { RateRequest: { properties: { Shipment: { required: ['InvoiceLineTotal'] } } } } } } },
  }),
]);
