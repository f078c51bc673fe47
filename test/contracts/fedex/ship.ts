import { Type } from '@sinclair/typebox';
import { accountNumber, closed, dimensions, isoDate, packagingTypes, pickupTypes, serviceTypes, specialServices, streetLines, strings, weight } from './parts.ts';

/*
 * POST /ship/v1/shipments (schema Full_Schema_Ship) and PUT /ship/v1/shipments/cancel (Full_Schema_Cancel_Shipment)
 * of ship/v1/Shipment-Resource.json ("Ship API", info.version 1.0.0) in ShipStream/fedex-rest-php-sdk
 * resources/models/.raw/ at commit bc94dcd2c7254f105842125a3eb671c3f614d072 (2025-10-17); the label stock rule is the
 * API Reference Guide's "Label Stock Types" table (see parts.ts).
 */

/** PartyAddress_2: city, countryCode and streetLines required; city at most 35, postal code 10, state 2. */
const partyAddress = closed(
  {
    streetLines,
    city: Type.String({ minLength: 1, maxLength: 35 }),
    stateOrProvinceCode: Type.String({ maxLength: 2 }),
    postalCode: Type.String({ minLength: 1, maxLength: 10 }),
    countryCode: Type.String({ minLength: 2, maxLength: 2 }),
    residential: Type.Boolean(),
  },
  { required: ['city', 'countryCode', 'streetLines'] },
);

/**
 * PartyContact: phoneNumber required, "For US and CA, a phone number must have exactly 10 digits, plus an optional
 * leading country code of '1' or '+1'" (every party shipd sends is in the US); personName at most 70, companyName
 * 35, emailAddress 80, phoneExtension 6. "You can provide either companyName or personName": one of them is needed.
 */
const partyContact = closed(
  {
    personName: Type.String({ minLength: 1, maxLength: 70 }),
    companyName: Type.String({ minLength: 1, maxLength: 35 }),
    phoneNumber: Type.String({ pattern: '^(\\+?1)?[0-9]{10}$' }),
    phoneExtension: Type.String({ maxLength: 6 }),
    emailAddress: Type.String({ maxLength: 80 }),
  },
  { required: ['phoneNumber'], anyOf: [{ required: ['personName'] }, { required: ['companyName'] }] },
);

const party = closed({ address: partyAddress, contact: partyContact }, { required: ['address', 'contact'] });
const recipient = closed({ address: partyAddress, contact: partyContact, deliveryInstructions: Type.String() }, { required: ['address', 'contact'] });

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
    resolution: Type.Integer(),
  },
  {
    required: ['imageType', 'labelStockType'],
    allOf: [
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

/** RequestedPackageLineItem: weight required; "Maximum occurrences is 30"; itemDescription at most 50. */
const packageLineItem = closed(
  {
    sequenceNumber: Type.Integer({ minimum: 1 }),
    weight,
    dimensions,
    customerReferences: Type.Array(customerReference),
    itemDescription: Type.String({ maxLength: 50 }),
    groupPackageCount: Type.Integer({ minimum: 1 }),
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

export const fedexShipRequest = closed(
  {
    labelResponseOptions: strings(['URL_ONLY', 'LABEL']),
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
        shippingChargesPayment: closed({ paymentType: strings(['SENDER', 'RECIPIENT', 'THIRD_PARTY', 'COLLECT']) }, { required: ['paymentType'] }),
        shipmentSpecialServices: specialServices(shipReturnTypes, returnDetailFields),
        labelSpecification,
        blockInsightVisibility: Type.Boolean(),
        rateRequestType: Type.Array(strings(['LIST', 'NONE', 'PREFERRED', 'INCENTIVE', 'ACCOUNT', 'RETAIL'])),
        preferredCurrency: Type.String({ minLength: 3, maxLength: 3 }),
        totalPackageCount: Type.Integer({ minimum: 1 }),
        requestedPackageLineItems: Type.Array(packageLineItem, { minItems: 1, maxItems: 30 }),
      },
      {
        required: ['labelSpecification', 'packagingType', 'pickupType', 'recipients', 'requestedPackageLineItems', 'serviceType', 'shipper', 'shippingChargesPayment', 'totalWeight'],
        if: { required: ['serviceType'], properties: { serviceType: { enum: groundServices } } },
        then: { properties: { requestedPackageLineItems: { items: { properties: { customerReferences: { items: { properties: { value: { maxLength: 30 } } } } } } } } },
      },
    ),
  },
  { required: ['accountNumber', 'labelResponseOptions', 'requestedShipment'] },
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
