import { Type, type TProperties } from '@sinclair/typebox';
import { accountNumber, addressLines, call, container, deliveryConfirmation, dryIceRegulationSets, dryIceWeight, indicator, oneOf, optionIndicators, phone, text } from './common.ts';

// UPS Shipping API (ship, void, label recovery), our schema of the requests shipd builds, from Shipping.yaml in
// UPS-API/api-documentation at commit 66148b9223b2daf9ec87f449aa482c39b4bd3a4e (2026-07-21): paths
// /shipments/{version}/ship (SHIPRequestWrapper), /shipments/{version}/void/cancel/{shipmentidentificationnumber}
// and /labels/{version}/recovery (LABELRECOVERYRequestWrapper), server .../api.

/** Ship: "Valid values: - v2409" (v1 … v2205 are the deprecated path's). Void: "v3 (Valid only for Roadie Shipments)", v2409. */
export const shipVersions = ['v2409'] as const;
/**
 * Label Recovery's version: "v1 original features … v1701 includes support for CODTurn-inPage … V1903"; v2603 is
 * for Roadie labels only. The spec writes V1903 with a capital; every other UPS path version is lower case.
 */
export const labelRecoveryVersions = ['v1', 'v1701', 'v1903', 'V1903'] as const;

/** Shipment.Service.Code. */
export const shipServiceCodes = [
  '01', '02', '03', '07', '08', '11', '12', '13', '14', '17', '54', '59', '65', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7',
  '70', '71', '72', '74', '75', '82', '83', '84', '85', '86', '96', 'C6', 'C7', 'C8', 'T0', 'T1',
] as const;
/** "The following Services are not available to return shipment: 13, 59, 82, 83, 84, 85, 86, C6, C7, C8". */
export const servicesWithoutReturns = ['13', '59', '82', '83', '84', '85', '86', 'C6', 'C7', 'C8'] as const;
/** Shipment.ReturnService.Code: 9 is UPS Print Return Label (PRL). */
export const shipReturnServiceCodes = ['2', '3', '5', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20'] as const;
/** Package.Packaging.Code. */
export const shipPackagingCodes = [
  '01', '02', '03', '04', '21', '24', '25', '30', '2a', '2b', '2c', '56', '57', '58', '59', '60', '61', '62', '63', '64', '65', '66', '67',
] as const;
/** LabelImageFormat.Code: "For shipments without return service the valid value is GIF, ZPL, EPL and SPL. For shipments with PRL return service, the valid values are EPL, ZPL, SPL and GIF." */
export const shipLabelFormats = ['GIF', 'ZPL', 'EPL', 'SPL'] as const;
/** Request.SubVersion "Supported values". */
const shipSubVersions = ['1601', '1607', '1701', '1707', '1801', '1807', '2108', '2205'] as const;

const address = (state: number, extra: TProperties = {}) =>
  container({
    AddressLine: addressLines(35),
    City: text(30),
    StateProvinceCode: Type.Optional(text(state)),
    // US and PR: "5 or 9 digits"; ShipFrom allows the "-" separator.
    PostalCode: Type.Optional(Type.String({ pattern: '^(\\d{5}(-?\\d{4})?|[A-Za-z0-9 ]{1,9})$' })),
    CountryCode: text(2, 2),
    ...extra,
  });

const party = (extra: TProperties, addressExtra: TProperties = {}) =>
  container({
    Name: text(35),
    AttentionName: Type.Optional(text(35)),
    Phone: Type.Optional(phone),
    EMailAddress: Type.Optional(text(50)),
    Address: address(5, addressExtra),
    ...extra,
  });

/** Shipping's UnitOfMeasurement: Description is optional here, up to 35 characters. */
const unit = (codes: readonly string[]) => container({ Code: oneOf(codes), Description: Type.Optional(text(35)) });

const pkg = container({
  Description: Type.Optional(text(35)),
  Packaging: container({ Code: oneOf(shipPackagingCodes), Description: Type.Optional(text(35)) }),
  Dimensions: Type.Optional(
    container({
      UnitOfMeasurement: unit(['IN', 'CM', '00', '01']),
      // maxLength 3: whole units ("Valid values are 0 to 108 IN").
      Length: Type.String({ minLength: 1, maxLength: 3, pattern: '^\\d+$' }),
      Width: Type.String({ minLength: 1, maxLength: 3, pattern: '^\\d+$' }),
      Height: Type.String({ minLength: 1, maxLength: 3, pattern: '^\\d+$' }),
    }),
  ),
  PackageWeight: Type.Optional(container({ UnitOfMeasurement: unit(['LBS', 'KGS', 'OZS']), Weight: Type.String({ minLength: 1, maxLength: 5, pattern: '^\\d+(\\.\\d+)?$' }) })),
  // "Additional Handling Required. The presence indicates additional handling is required".
  AdditionalHandlingIndicator: Type.Optional(indicator),
  // PackageServiceOptions_DeclaredValue: CurrencyCode (3) and MonetaryValue (1 to 19) required; Type.Code 01 (EVS)
  // or 02 (DVS), "Defaults to 01". DeliveryConfirmation: DCISType required, DCISNumber 1 to 11. DryIce: RegulationSet
  // and DryIceWeight required; DryIceWeight_UnitOfMeasurement's Code required ("The following values are valid : 00,
  // 01, KG, KGS, LBS"), its Description optional here.
  PackageServiceOptions: Type.Optional(
    container({
      DeliveryConfirmation: Type.Optional(deliveryConfirmation({ DCISNumber: Type.Optional(text(11)) })),
      DryIce: Type.Optional(
        container({
          RegulationSet: oneOf(dryIceRegulationSets),
          DryIceWeight: container({ UnitOfMeasurement: container({ Code: oneOf(['00', '01', 'KG', 'KGS', 'LBS']), Description: Type.Optional(text(20)) }), Weight: dryIceWeight }),
          MedicalUseIndicator: Type.Optional(indicator),
        }),
      ),
      DeclaredValue: Type.Optional(
        container({
          Type: Type.Optional(container({ Code: oneOf(['01', '02']), Description: Type.Optional(text(50)) })),
          CurrencyCode: text(3, 3),
          MonetaryValue: Type.String({ minLength: 1, maxLength: 19, pattern: '^\\d+(\\.\\d{1,2})?$' }),
        }),
      ),
    }),
  ),
  // Package_ReferenceNumber: "maximum: 5" occurrences, Value 1 to 35.
  ReferenceNumber: Type.Optional(Type.Array(container({ Code: Type.Optional(text(2)), Value: text(35) }), { maxItems: 5 })),
});

/**
 * A return (ReturnService present): "ShipFrom … Required for return shipment", Package Description "Required for
 * shipment with return service", some services not available, "US/PR origin return movements are limited to only
 * one package", and DeliveryConfirmation "Valid for forward shipments only". Written as if/then so a forward shipment
 * is not held to them.
 */
const returnRules = {
  if: { required: ['ReturnService'] },
  then: {
    required: ['ShipFrom'],
    properties: {
      Service: { properties: { Code: { not: { enum: [...servicesWithoutReturns] } } } },
      Package: {
        maxItems: 1,
        items: { required: ['Description'], properties: { PackageServiceOptions: { not: { required: ['DeliveryConfirmation'] } } } },
      },
    },
  },
};

/**
 * Shipment.InvoiceLineTotal: "Required for forward shipments whose origin is the US and destination is Puerto Rico or
 * Canada"; MonetaryValue "from 1 to 99999999".
 */
export const invoiceLineTotal = container({ CurrencyCode: text(3, 3), MonetaryValue: Type.String({ pattern: '^[1-9][0-9]{0,7}$' }) });

/** TermsOfShipment: the incoterms its description lists. */
export const termsOfShipment = ['CFR', 'CIF', 'CIP', 'CPT', 'DAF', 'DDP', 'DAP', 'DEQ', 'DES', 'EXW', 'FAS', 'FCA', 'FOB'] as const;
/** FormType: 01 Invoice, 03 CO, 04 USMCA, 05 Partial Invoice, 06 Packinglist, 07 Customer Generated, 08 Air Freight Packing List, 09 CN22, 10 Premium Care, 11 EEI. */
const formTypes = ['01', '03', '04', '05', '06', '07', '08', '09', '10', '11'] as const;

/**
 * InternationalForms.Product: Description "at least once and … a maximum of 3 times", 35 each; Unit.Number "Must be
 * numeric", at most 7; Unit.Value "greater than zero … up to 6 decimal places", at most 19; CommodityCode "6-to-15
 * alphanumeric"; PartNumber "Required for Invoice forms"; OriginCountryCode 2 letters.
 */
const product = container({
  Description: Type.Array(text(35), { minItems: 1, maxItems: 3 }),
  Unit: Type.Optional(
    container({
      Number: Type.String({ pattern: '^[0-9]{1,7}$' }),
      UnitOfMeasurement: container({ Code: text(3), Description: Type.Optional(text(3)) }),
      Value: Type.String({ maxLength: 19, pattern: '^(?=.*[1-9])[0-9]+(\\.[0-9]{1,6})?$' }),
    }),
  ),
  CommodityCode: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{6,15}$' })),
  PartNumber: Type.Optional(text(35)),
  OriginCountryCode: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
});

/** Contacts.SoldTo, "Required if Invoice or USMCA (International Form) is requested": Name, AttentionName and Address required. */
const soldTo = container({
  Name: text(35),
  AttentionName: text(35),
  Phone: Type.Optional(phone),
  EMailAddress: Type.Optional(text(50)),
  Address: container({
    AddressLine: addressLines(35),
    City: text(30),
    StateProvinceCode: Type.Optional(text(5)),
    PostalCode: Type.Optional(text(9)),
    CountryCode: text(2, 2),
  }),
});

/**
 * ShipmentServiceOptions.InternationalForms: FormType and Product required. An invoice (FormType 01) needs its
 * InvoiceNumber, InvoiceDate ("Format is yyyyMMdd"), ReasonForExport, CurrencyCode and SoldTo ("Required for Invoice
 * forms"), and each Product its Unit and PartNumber; written as if/then so other forms are not held to them.
 */
export const internationalForms = container(
  {
    FormType: Type.Array(oneOf(formTypes), { minItems: 1, maxItems: 6 }),
    Contacts: Type.Optional(container({ SoldTo: Type.Optional(soldTo) })),
    Product: Type.Array(product, { minItems: 1, maxItems: 50 }),
    InvoiceNumber: Type.Optional(text(35)),
    InvoiceDate: Type.Optional(Type.String({ pattern: '^\\d{8}$' })),
    PurchaseOrderNumber: Type.Optional(text(35)),
    TermsOfShipment: Type.Optional(oneOf(termsOfShipment)),
    ReasonForExport: Type.Optional(text(20)),
    Comments: Type.Optional(text(150)),
    DeclarationStatement: Type.Optional(text(550)),
    CurrencyCode: Type.Optional(text(3, 3)),
    OverridePaperlessIndicator: Type.Optional(indicator),
  },
  {
    if: { properties: { FormType: { contains: { const: '01' } } } },
    then: {
      required: ['InvoiceNumber', 'InvoiceDate', 'ReasonForExport', 'CurrencyCode', 'Contacts'],
      properties: { Contacts: { required: ['SoldTo'] }, Product: { items: { required: ['Unit', 'PartNumber'] } } },
    },
  },
);

/**
 * A shipment to another country (shipd ships from the US, so ShipTo outside the US): ShipTo AttentionName and Phone
 * "Required … when ShipTo country or territory is different than ShipFrom", Shipment.Description required, and a
 * Canadian destination needs InvoiceLineTotal. Canada's postal code "must be 6 alphanumeric characters whose
 * format is A#A#A#"; elsewhere "no more than 9 alphanumeric characters".
 */
const abroadRules = {
  if: { required: ['ShipTo'], properties: { ShipTo: { required: ['Address'], properties: { Address: { required: ['CountryCode'], properties: { CountryCode: { not: { const: 'US' } } } } } } } },
  then: {
    required: ['Description'],
    properties: {
      ShipTo: { required: ['AttentionName', 'Phone'], properties: { Address: { properties: { PostalCode: { pattern: '^[A-Za-z0-9]{1,9}$' } } } } },
    },
    allOf: [
      {
        if: { properties: { ShipTo: { properties: { Address: { properties: { CountryCode: { const: 'CA' } } } } } } },
        then: { required: ['InvoiceLineTotal'], properties: { ShipTo: { properties: { Address: { required: ['PostalCode', 'StateProvinceCode'], properties: { PostalCode: { pattern: '^[A-Z][0-9][A-Z][0-9][A-Z][0-9]$' } } } } } } },
      },
    ],
  },
};

/**
 * Puerto Rico is a country of its own to UPS (PR): ShipTo AttentionName and Phone are required whenever ShipTo's
 * country differs from ShipFrom's, so from Puerto Rico to the US too, and a forward shipment (no ReturnService)
 * from the US to Puerto Rico requires InvoiceLineTotal. Shipping.yaml at UPS-API/api-documentation e6f36df4.
 */
const countryOfParty = (party: string, code: string) => ({ required: [party], properties: { [party]: { required: ['Address'], properties: { Address: { required: ['CountryCode'], properties: { CountryCode: { const: code } } } } } } });
const puertoRicoRules = {
  allOf: [
    { if: { allOf: [countryOfParty('ShipFrom', 'PR'), countryOfParty('ShipTo', 'US')] }, then: { properties: { ShipTo: { required: ['AttentionName', 'Phone'] } } } },
    { if: { allOf: [countryOfParty('ShipFrom', 'US'), countryOfParty('ShipTo', 'PR'), { not: { required: ['ReturnService'] } }] }, then: { required: ['InvoiceLineTotal'] } },
  ],
};

/**
 * References: the Package's ReferenceNumber is "Valid if the origin/destination pair is US/US or PR/PR", the
 * Shipment's (Shipment_ReferenceNumber, Code of 2) "Valid if the origin/destination pair is not US/US or PR/PR".
 */
const sameUpsCountry = { anyOf: [{ allOf: [countryOfParty('ShipFrom', 'US'), countryOfParty('ShipTo', 'US')] }, { allOf: [countryOfParty('ShipFrom', 'PR'), countryOfParty('ShipTo', 'PR')] }] };
const inUsOrPuertoRico = (party: string) => ({ anyOf: [countryOfParty(party, 'US'), countryOfParty(party, 'PR')] });
const usOrPuertoRicoPair = { allOf: [inUsOrPuertoRico('ShipFrom'), inUsOrPuertoRico('ShipTo')] };
const referenceRules = {
  allOf: [
    // PackageServiceOptions.DeliveryConfirmation: "Valid for US50/PR to US50/PR packages without return service"; the
    // Shipment's is the one for other pairs (Appendix "Delivery Confirmation Origin-Destination Pairs").
    { if: { not: usOrPuertoRicoPair }, then: { properties: { Package: { items: { properties: { PackageServiceOptions: { not: { required: ['DeliveryConfirmation'] } } } } } } } },
    { if: sameUpsCountry, then: { not: { required: ['ReferenceNumber'] } } },
    { if: { not: sameUpsCountry }, then: { properties: { Package: { items: { not: { required: ['ReferenceNumber'] } } } } } },
  ],
};

/**
 * A UPS Access Point hold (Shipment_ShipmentIndicationType, an array): Code "01 - Hold for Pickup at UPS Access Point",
 * "02 - UPS Access Point™ Delivery", 2 characters. AlternateDeliveryAddress, "(UPS Access Point Address) required if
 * ShipmentIndicationType is 01 or 02": Name, AttentionName and Address required, 35 characters each name,
 * UPSAccessPointID exactly 9; its Address requires AddressLine, City and CountryCode, StateProvinceCode "Required for
 * US, Canada", PostalCode "If … US or Puerto Rico, 5 or 9 digits are required. The character - may be used".
 */
const shipmentIndicationType = Type.Array(container({ Code: oneOf(['01', '02']), Description: Type.Optional(text(50)) }), { minItems: 1 });
const alternateDeliveryAddress = container(
  {
    Name: text(35),
    AttentionName: text(35),
    UPSAccessPointID: Type.Optional(text(9, 9)),
    Address: container({
      AddressLine: addressLines(35),
      City: text(30),
      StateProvinceCode: Type.Optional(text(5)),
      PostalCode: Type.Optional(text(9)),
      CountryCode: text(2, 2),
    }),
  },
  {
    if: { properties: { Address: { properties: { CountryCode: { enum: ['US', 'PR', 'CA'] } } } } },
    then: { properties: { Address: { required: ['StateProvinceCode', 'PostalCode'] } } },
    else: {},
    allOf: [
      {
        if: { properties: { Address: { properties: { CountryCode: { enum: ['US', 'PR'] } } } } },
        then: { properties: { Address: { properties: { PostalCode: { pattern: '^\\d{5}(-?\\d{4})?$' } } } } },
      },
    ],
  },
);
const accessPointRules = {
  if: { required: ['ShipmentIndicationType'], properties: { ShipmentIndicationType: { contains: { properties: { Code: { enum: ['01', '02'] } } } } } },
  then: { required: ['AlternateDeliveryAddress'] },
};

const shipment = container({
  Description: Type.Optional(text(50)),
  ReferenceNumber: Type.Optional(Type.Array(container({ Code: Type.Optional(text(2, 2)), Value: text(35) }))),
  ReturnService: Type.Optional(container({ Code: oneOf(shipReturnServiceCodes), Description: Type.Optional(text(35)) })),
  Shipper: party({ ShipperNumber: accountNumber }),
  ShipTo: party({}, { ResidentialAddressIndicator: Type.Optional(indicator) }),
  AlternateDeliveryAddress: Type.Optional(alternateDeliveryAddress),
  ShipFrom: Type.Optional(party({})),
  PaymentInformation: container({
    ShipmentCharge: Type.Array(container({ Type: oneOf(['01', '02', '03']), BillShipper: Type.Optional(container({ AccountNumber: accountNumber })) }), { minItems: 1 }),
  }),
  Service: container({ Code: oneOf(shipServiceCodes), Description: Type.Optional(text(35)) }),
  // "Package … maximum: 200".
  Package: Type.Array(pkg, { minItems: 1, maxItems: 200 }),
  InvoiceLineTotal: Type.Optional(invoiceLineTotal),
  ShipmentServiceOptions: Type.Optional(container({ InternationalForms: Type.Optional(internationalForms), ...optionIndicators })),
  ShipmentRatingOptions: Type.Optional(container({ NegotiatedRatesIndicator: Type.Optional(indicator) })),
  // ShipmentRequest_Shipment.ShipmentDate: "up to 7 days in the future with current date as day zero. Format: YYYYMMDD", 8 characters.
  ShipmentDate: Type.Optional(Type.String({ pattern: '^\\d{8}$' })),
  ShipmentIndicationType: Type.Optional(shipmentIndicationType),
}, { allOf: [returnRules, abroadRules, puertoRicoRules, referenceRules, accessPointRules] });

export const shipRequestBody = container({
  ShipmentRequest: container({
    Request: container({
      RequestOption: oneOf(['validate', 'nonvalidate']),
      SubVersion: Type.Optional(oneOf(shipSubVersions)),
      TransactionReference: Type.Optional(container({ CustomerContext: Type.Optional(text(512)) })),
    }),
    Shipment: shipment,
    // "Required for shipment without return service or shipments with PRL return service"; LabelStockSize is
    // marked required by the spec (its prose says it matters for thermal labels only).
    LabelSpecification: container({
      LabelImageFormat: container({ Code: oneOf(shipLabelFormats), Description: Type.Optional(text(35)) }),
      HTTPUserAgent: Type.Optional(text(64)),
      LabelStockSize: container({ Height: oneOf(['6', '8']), Width: Type.Literal('4') }),
    }),
  }),
});

export const shipCall = call(new RegExp(`^/api/shipments/(${shipVersions.join('|')})/ship$`), {
  query: container({ additionaladdressvalidation: Type.Optional(Type.Literal('city')) }),
  body: shipRequestBody,
});

/** A package's or shipment's 1Z: "Alpha-numeric. Must pass 1Z rules. Must be upper case. Length 18". */
const oneZ = '1Z[0-9A-Z]{16}';

/**
 * Void: no body; the shipment identification number is a 1Z (oneZ). The `trackingnumber` query voids single
 * packages: "You may have up to 20 different tracking numbers listed. If more than one tracking number, pass this value
 * as: trackingnumber= ["1Z…","1Z…"] with a coma separating each number" (its example's numbers elided), each a 1Z;
 * "Package level Void is not applicable for return service".
 */
export const voidCall = call(new RegExp(`^/api/shipments/(${shipVersions.join('|')})/void/cancel/${oneZ}$`), {
  query: container({
    trackingnumber: Type.Optional(Type.String({ pattern: `^(${oneZ}|\\[\\s*"${oneZ}"(\\s*,\\s*"${oneZ}"){0,19}\\s*\\])$` })),
  }),
});

/**
 * Label recovery. The spec also marks TrackingNumbers and ReferenceValues required, but describes both as Roadie
 * only ("mandatory for only Roadie shipments", which need version v2603); shipd recovers 1Z labels by TrackingNumber.
 * LabelImageFormat.Code says minLength 4 while every value it lists (GIF, PDF, ZPL, EPL, SPL) has 3 letters.
 */
export const labelRecoveryBody = container({
  LabelRecoveryRequest: container({
    Request: container({
      SubVersion: Type.Optional(oneOf(['1701', '1707', '1903'])),
      RequestOption: Type.Optional(Type.String()),
      TransactionReference: Type.Optional(container({ CustomerContext: Type.Optional(text(512, 5)) })),
    }),
    LabelSpecification: Type.Optional(
      container({
        HTTPUserAgent: Type.Optional(text(64)),
        LabelImageFormat: Type.Optional(container({ Code: oneOf(['GIF', 'PDF', 'ZPL', 'EPL', 'SPL']), Description: Type.Optional(text(35)) })),
        LabelStockSize: Type.Optional(container({ Height: oneOf(['6', '8']), Width: Type.Literal('4') })),
      }),
    ),
    TrackingNumber: text(18),
  }),
});

export const labelRecoveryCall = call(new RegExp(`^/api/labels/(${labelRecoveryVersions.join('|')})/recovery$`), {
  body: labelRecoveryBody,
});
