import { Type } from '@sinclair/typebox';
import { accountNumber, closed, dimensions, isoDate, packageSpecialServices, packagingTypes, pickupTypes, serviceTypes, specialServices, streetLines, strings, weight } from './parts.ts';

/*
 * POST /ship/v1/shipments (schema Full_Schema_Ship) and PUT /ship/v1/shipments/cancel (Full_Schema_Cancel_Shipment)
 * of ship/v1/Shipment-Resource.json ("Ship API", info.version 1.0.0) in ShipStream/fedex-rest-php-sdk
 * resources/models/.raw/ at commit bc94dcd2c7254f105842125a3eb671c3f614d072 (2025-10-17); the label stock rule is the
 * API Reference Guide's "Label Stock Types" table (see parts.ts).
 */

/** The countries whose state and phone FedEx holds to US rules: "the United States and Canada, and Puerto Rico". */
const northAmerica = ['US', 'CA', 'PR'];

/**
 * PartyAddress_2: city, countryCode and streetLines required; city at most 35, postal code 10 ("Optional for non
 * postal-aware countries"); the state has "a two-character … limit" in the US, Canada and Puerto Rico.
 */
const partyAddress = closed(
  {
    streetLines,
    city: Type.String({ minLength: 1, maxLength: 35 }),
    stateOrProvinceCode: Type.String({ minLength: 1 }),
    postalCode: Type.String({ minLength: 1, maxLength: 10 }),
    countryCode: Type.String({ minLength: 2, maxLength: 2 }),
    residential: Type.Boolean(),
  },
  {
    required: ['city', 'countryCode', 'streetLines'],
    if: { properties: { countryCode: { enum: northAmerica } } },
    then: { properties: { stateOrProvinceCode: { maxLength: 2 } } },
  },
);

/**
 * PartyContact: phoneNumber required, "Minimum length is 10 and supports maximum of 15 for certain countries", and
 * "For US and CA, a phone number must have exactly 10 digits, plus an optional leading country code of '1' or
 * '+1'" (the rule is on the party, which knows the country); personName at most 70, companyName 35, emailAddress
 * 80, phoneExtension 6. "You can provide either companyName or personName": one of them is needed.
 */
const partyContact = closed(
  {
    personName: Type.String({ minLength: 1, maxLength: 70 }),
    companyName: Type.String({ minLength: 1, maxLength: 35 }),
    phoneNumber: Type.String({ pattern: '^\\+?[0-9]{10,15}$' }),
    phoneExtension: Type.String({ maxLength: 6 }),
    emailAddress: Type.String({ maxLength: 80 }),
  },
  { required: ['phoneNumber'], anyOf: [{ required: ['personName'] }, { required: ['companyName'] }] },
);

const northAmericanPhone = {
  if: { properties: { address: { properties: { countryCode: { enum: ['US', 'CA'] } } } } },
  then: { properties: { contact: { properties: { phoneNumber: { pattern: '^(\\+?1)?[0-9]{10}$' } } } } },
};
const party = closed({ address: partyAddress, contact: partyContact }, { required: ['address', 'contact'], ...northAmericanPhone });
const recipient = closed({ address: partyAddress, contact: partyContact, deliveryInstructions: Type.String() }, { required: ['address', 'contact'], ...northAmericanPhone });

/** Money and Customs_Money: an amount and its currency code. */
const money = closed({ amount: Type.Number(), currency: Type.String({ minLength: 3, maxLength: 3 }) }, { required: ['amount', 'currency'] });

/**
 * Commodity: description required, at most 450 ("Maximum allowed 450 characters"); countryOfManufacture "required
 * for International shipments", at most 4; weight in Weight_4, whose units are KG only ("The package and commodity
 * weight unit should be the same"); quantity and numberOfPieces at most 9,999.
 */
const commodity = closed(
  {
    description: Type.String({ minLength: 1, maxLength: 450 }),
    name: Type.String(),
    countryOfManufacture: Type.String({ minLength: 2, maxLength: 4 }),
    harmonizedCode: Type.String({ minLength: 1 }),
    quantity: Type.Integer({ minimum: 1 }),
    quantityUnits: Type.String({ minLength: 1 }),
    numberOfPieces: Type.Integer({ minimum: 1, maximum: 9999 }),
    unitPrice: money,
    customsValue: money,
    weight: closed({ units: strings(['KG']), value: Type.Number({ exclusiveMinimum: 0 }) }, { required: ['units', 'value'] }),
    partNumber: Type.String(),
    purpose: strings(['BUSINESS', 'CONSUMER']),
  },
  { required: ['description'] },
);

/**
 * CustomsClearanceDetail: commercialInvoice and commodities required ("Maximum upto 999"); dutiesPayment's
 * paymentType; exportDetail.exportComplianceStatement "the ITN … AES XYYYYMMDDNNNNNN" or the FTR exemption as a
 * predefined value ("NO_EEI_30_37_A").
 */
const customsClearanceDetail = closed(
  {
    dutiesPayment: closed({ paymentType: strings(['SENDER', 'RECIPIENT', 'THIRD_PARTY', 'COLLECT']) }, { required: ['paymentType'] }),
    isDocumentOnly: Type.Boolean(),
    commercialInvoice: closed({
      shipmentPurpose: strings(['GIFT', 'NOT_SOLD', 'PERSONAL_EFFECTS', 'REPAIR_AND_RETURN', 'SAMPLE', 'SOLD']),
      termsOfSale: Type.String({ minLength: 3, maxLength: 3 }),
      declarationStatement: Type.String({ maxLength: 554 }),
      comments: Type.Array(Type.String()),
      specialInstructions: Type.String(),
      originatorName: Type.String(),
    }),
    commodities: Type.Array(commodity, { minItems: 1, maxItems: 999 }),
    totalCustomsValue: money,
    exportDetail: closed({ exportComplianceStatement: Type.String({ pattern: '^(AES ?X[0-9]{14}|NO_EEI_[0-9A-Z_]+)$' }) }),
  },
  { required: ['commercialInvoice', 'commodities'] },
);

/**
 * ShippingDocumentSpecification, for the commercial invoice: shippingDocumentTypes and commercialInvoiceDetail's
 * documentFormat (docType PDF, stockType PAPER_LETTER, the only values listed).
 */
const shippingDocumentSpecification = closed(
  {
    shippingDocumentTypes: Type.Array(strings(['CERTIFICATE_OF_ORIGIN', 'COMMERCIAL_INVOICE', 'CUSTOM_PACKAGE_DOCUMENT', 'CUSTOM_SHIPMENT_DOCUMENT', 'CUSTOMER_SPECIFIED_LABELS', 'EXPORT_DECLARATION', 'GENERAL_AGENCY_AGREEMENT', 'LABEL', 'USMCA_CERTIFICATION_OF_ORIGIN', 'OP_900', 'PENDING_SHIPMENT_EMAIL_NOTIFICATION', 'PRO_FORMA_INVOICE', 'RETURN_INSTRUCTIONS', 'USMCA_COMMERCIAL_INVOICE_CERTIFICATION_OF_ORIGIN']), { minItems: 1 }),
    commercialInvoiceDetail: closed({ documentFormat: closed({ docType: strings(['PDF']), stockType: strings(['PAPER_LETTER']), locale: Type.String() }) }),
  },
  { if: { properties: { shippingDocumentTypes: { contains: { const: 'COMMERCIAL_INVOICE' } } } }, then: { required: ['commercialInvoiceDetail'] } },
);

/** ETDDetail: the documents sent electronically when ELECTRONIC_TRADE_DOCUMENTS is asked. */
const etdDetail = { etdDetail: closed({ requestedDocumentTypes: Type.Array(Type.String(), { minItems: 1 }) }) };

/**
 * A shipment to another country (shipd ships from the US): customsClearanceDetail with each commodity's country
 * of manufacture, quantity, value and weight; commodity and package weights in one unit, KG.
 */
const abroadRules = {
  if: { properties: { recipients: { contains: { properties: { address: { properties: { countryCode: { not: { const: 'US' } } } } } } } } },
  then: {
    required: ['customsClearanceDetail'],
    properties: {
      customsClearanceDetail: { properties: { commodities: { items: { required: ['countryOfManufacture', 'quantity', 'quantityUnits', 'customsValue', 'weight'] } } } },
      requestedPackageLineItems: { items: { properties: { weight: { properties: { units: { const: 'KG' } } } } } },
    },
  },
};

export const imageTypes = ['ZPLII', 'EPL2', 'PDF', 'PNG'] as const;
export const labelStockTypes = [
  'PAPER_4X6', 'STOCK_4X675', 'PAPER_4X675', 'PAPER_4X8', 'PAPER_4X9', 'PAPER_7X475', 'PAPER_85X11_BOTTOM_HALF_LABEL',
  'PAPER_85X11_TOP_HALF_LABEL', 'PAPER_LETTER', 'STOCK_4X675_LEADING_DOC_TAB', 'STOCK_4X8', 'STOCK_4X9_LEADING_DOC_TAB',
  'STOCK_4X6', 'STOCK_4X675_TRAILING_DOC_TAB', 'STOCK_4X9_TRAILING_DOC_TAB', 'STOCK_4X9', 'STOCK_4X85_TRAILING_DOC_TAB',
  'STOCK_4X105_TRAILING_DOC_TAB',
] as const;

/** LabelSpecification; thermal images (ZPLII, EPL2) print on STOCK_* rolls and PDF/PNG on PAPER_* sheets. */
const labelSpecification = closed(
  {
    imageType: strings(imageTypes),
    labelStockType: strings(labelStockTypes),
    labelFormatType: strings(['COMMON2D', 'LABEL_DATA_ONLY']),
    labelOrder: strings(['SHIPPING_LABEL_FIRST', 'SHIPPING_LABEL_LAST']),
    labelRotation: strings(['LEFT', 'RIGHT', 'UPSIDE_DOWN', 'NONE']),
    labelPrintingOrientation: strings(['BOTTOM_EDGE_OF_TEXT_FIRST', 'TOP_EDGE_OF_TEXT_FIRST']),
    // "Valid values are 203 & 300 … 300 DPI resolution is only allowed for ZPLII image type."
    resolution: Type.Union([Type.Literal(203), Type.Literal(300)]),
  },
  {
    required: ['imageType', 'labelStockType'],
    allOf: [
      { if: { required: ['resolution'], properties: { resolution: { const: 300 } } }, then: { properties: { imageType: { const: 'ZPLII' } } } },
      { if: { required: ['imageType'], properties: { imageType: { enum: ['ZPLII', 'EPL2'] } } }, then: { properties: { labelStockType: { pattern: '^STOCK_' } } } },
      { if: { required: ['imageType'], properties: { imageType: { enum: ['PDF', 'PNG'] } } }, then: { properties: { labelStockType: { pattern: '^PAPER_' } } } },
    ],
  },
);

/**
 * CustomerReference_1: "Maximum length for value ... CUSTOMER_REFERENCE - 40(Express), 30(Ground) DEPARTMENT_NUMBER - 30
 * INVOICE_NUMBER - 30 P_O_NUMBER - 30 ... RMA_ASSOCIATION - 20". The 30 of Ground is checked against the service in
 * the request below.
 */
const customerReference = closed(
  {
    customerReferenceType: strings(['CUSTOMER_REFERENCE', 'DEPARTMENT_NUMBER', 'INVOICE_NUMBER', 'P_O_NUMBER', 'INTRACOUNTRY_REGULATORY_REFERENCE', 'RMA_ASSOCIATION']),
    value: Type.String({ minLength: 1, maxLength: 40 }),
  },
  {
    required: ['customerReferenceType', 'value'],
    allOf: [
      { if: { required: ['customerReferenceType'], properties: { customerReferenceType: { not: { const: 'CUSTOMER_REFERENCE' } } } }, then: { properties: { value: { maxLength: 30 } } } },
      { if: { required: ['customerReferenceType'], properties: { customerReferenceType: { const: 'RMA_ASSOCIATION' } } }, then: { properties: { value: { maxLength: 20 } } } },
    ],
  },
);

/** Money of the ship document: an amount with "Maximum limit is 5 digits before decimal", and a currency code. */
const declaredValue = closed({ amount: Type.Number({ minimum: 0, exclusiveMaximum: 100_000 }), currency: Type.String({ minLength: 3, maxLength: 3 }) }, { required: ['amount', 'currency'] });

/** BatteryDetail of the ship document (the rate document names these fields otherwise). */
const batteryDetail = closed({
  batteryPackingType: strings(['CONTAINED_IN_EQUIPMENT', 'PACKED_WITH_EQUIPMENT']),
  batteryRegulatoryType: strings(['IATA_SECTION_II']),
  batteryMaterialType: strings(['LITHIUM_METAL', 'LITHIUM_ION']),
});

/**
 * RequestedPackageLineItem: weight required; itemDescription at most 50; sequenceNumber "a unique identifier of each
 * requested package" (unique across the items, and 1 for the master, the fake checks); groupPackageCount "the
 * number of identical package(s)".
 */
const packageLineItem = closed(
  {
    sequenceNumber: Type.Integer({ minimum: 1 }),
    weight,
    dimensions,
    customerReferences: Type.Array(customerReference),
    itemDescription: Type.String({ maxLength: 50 }),
    groupPackageCount: Type.Integer({ minimum: 1 }),
    declaredValue,
    packageSpecialServices: packageSpecialServices(batteryDetail),
  },
  { required: ['weight'] },
);

/** ReturnShipmentDetail.returnType of the ship document: "Valid Values : PENDING, PRINT_RETURN_LABEL". */
export const shipReturnTypes = ['PENDING', 'PRINT_RETURN_LABEL'] as const;

const returnDetailFields = {
  rma: closed({ reason: Type.String() }),
  returnAssociationDetail: closed({ trackingNumber: Type.String({ minLength: 1 }), shipDatestamp: isoDate }, { required: ['trackingNumber'] }),
};

const groundServices = ['FEDEX_GROUND', 'GROUND_HOME_DELIVERY', 'SMART_POST'];

/**
 * processingOptionType (AsynchronousProcessingOptionType_1) of a multiple-piece shipment bought in one call: "Value or
 * element is not needed when groupPackageCount is less than or equal to 40", "Must provide element with value
 * ALLOW_ASYNCHRONOUS when groupPackageCount is greater than 40" (held against the shipment's totalPackageCount and
 * each line item's groupPackageCount; the fake checks the line items' sum).
 */
export const synchronousPackages = 40;
const asynchronousRule = {
  if: {
    required: ['requestedShipment'],
    properties: {
      requestedShipment: {
        anyOf: [
          { required: ['totalPackageCount'], properties: { totalPackageCount: { minimum: synchronousPackages + 1 } } },
          { required: ['requestedPackageLineItems'], properties: { requestedPackageLineItems: { contains: { required: ['groupPackageCount'], properties: { groupPackageCount: { minimum: synchronousPackages + 1 } } } } } },
        ],
      },
    },
  },
  then: { required: ['processingOptionType'], properties: { processingOptionType: { const: 'ALLOW_ASYNCHRONOUS' } } },
};

export const fedexShipRequest = closed(
  {
    labelResponseOptions: strings(['URL_ONLY', 'LABEL']),
    processingOptionType: strings(['SYNCHRONOUS_ONLY', 'ALLOW_ASYNCHRONOUS']),
    mergeLabelDocOption: strings(['NONE', 'LABELS_AND_DOCS', 'LABELS_ONLY']),
    accountNumber,
    oneLabelAtATime: Type.Boolean(),
    requestedShipment: closed(
      {
        shipDatestamp: isoDate,
        shipper: party,
        recipients: Type.Array(recipient, { minItems: 1 }),
        pickupType: strings(pickupTypes),
        serviceType: strings(serviceTypes),
        packagingType: strings(packagingTypes),
        totalWeight: Type.Number(),
        // "must be equal to the sum of all the individual declaredValues" (the fake checks the sum).
        totalDeclaredValue: declaredValue,
        shippingChargesPayment: closed({ paymentType: strings(['SENDER', 'RECIPIENT', 'THIRD_PARTY', 'COLLECT']) }, { required: ['paymentType'] }),
        shipmentSpecialServices: specialServices(shipReturnTypes, returnDetailFields, [], etdDetail),
        customsClearanceDetail,
        shippingDocumentSpecification,
        labelSpecification,
        blockInsightVisibility: Type.Boolean(),
        rateRequestType: Type.Array(strings(['LIST', 'NONE', 'PREFERRED', 'INCENTIVE', 'ACCOUNT', 'RETAIL'])),
        preferredCurrency: Type.String({ minLength: 3, maxLength: 3 }),
        // "For an MPS, this is the total number of packages in the shipment" (the fake checks it against the line items).
        totalPackageCount: Type.Integer({ minimum: 1 }),
        // "Single piece requests will have one RequestedPackageLineItem. Multiple piece requests will have multiple
        // RequestedPackageLineItems. Maximum occurrences is 30."
        requestedPackageLineItems: Type.Array(packageLineItem, { minItems: 1, maxItems: 30 }),
      },
      {
        required: ['labelSpecification', 'packagingType', 'pickupType', 'recipients', 'requestedPackageLineItems', 'serviceType', 'shipper', 'shippingChargesPayment', 'totalWeight'],
        allOf: [
          {
            if: { required: ['serviceType'], properties: { serviceType: { enum: groundServices } } },
            then: { properties: { requestedPackageLineItems: { items: { properties: { customerReferences: { items: { properties: { value: { maxLength: 30 } } } } } } } } },
          },
          abroadRules,
        ],
      },
    ),
  },
  { required: ['accountNumber', 'labelResponseOptions', 'requestedShipment'], ...asynchronousRule },
);

/** Full_Schema_Cancel_Shipment. */
export const fedexCancelRequest = closed(
  {
    accountNumber,
    emailShipment: Type.Boolean(),
    senderCountryCode: Type.String({ minLength: 2, maxLength: 2 }),
    deletionControl: strings(['DELETE_ALL_PACKAGES']),
    trackingNumber: Type.String({ minLength: 1 }),
  },
  { required: ['accountNumber', 'trackingNumber'] },
);
