import { Type } from '@sinclair/typebox';
import { UspsState } from './common.ts';

// Locations v3 `GET /locations/v3/post-office-locations`. Source: locations.yaml version 3.5.6 (karrioapi/karrio
// modules/connectors/usps/vendor/, commit e1754707ebcba368deb2be62c72eabbcd4d31723, read 2026-11-28), operation
// get-post-office-location: its declared query parameters (components/parameters StreetAddress … limitParam) as the
// query string carries them. The arrays (postOfficeType and the services) are `style: form, explode: false`, so one
// parameter holding values separated by commas; radius and limit are integers of 1 to 100, offset one of 0 or more.

const list = (values: readonly string[]) => Type.String({ pattern: `^(${values.join('|')})(,(${values.join('|')}))*$` });
/** An integer; the ranges of radius and limit are judged in postOfficeLocationsQueryFaults. */
const integer = Type.String({ pattern: '^\\d+$' });
const decimal = Type.String({ pattern: '^-?\\d+(\\.\\d+)?$' });
const positive = Type.String({ pattern: '^(?!0+(\\.0+)?$)\\d+(\\.\\d+)?$' });

export const postOfficeTypes = ['CONTRACT_POSTAL_UNIT', 'POST_OFFICE', 'SELF_SERVICE_KIOSK', 'VILLAGE_POST_OFFICE'] as const;
export const pickupServices = ['PICKUP_ACCOUNTABLE_MAIL', 'PICKUP_HOLD_MAIL', 'PICKUP_NOTICE_LEFT_MAIL', 'PICKUP_PARCEL_LOCKER', 'HOLD_FOR_PICKUP'] as const;

export const PostOfficeLocationsQuery = Type.Object(
  {
    streetAddress: Type.Optional(Type.String()),
    secondaryAddress: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    state: Type.Optional(UspsState),
    urbanization: Type.Optional(Type.String()),
    // The spec's pattern is "^\d{5}", anchored at the start only.
    ZIPCode: Type.Optional(Type.String({ pattern: '^\\d{5}' })),
    ZIPPlus4: Type.Optional(Type.String({ pattern: '^\\d{4}' })),
    LAT: Type.Optional(decimal),
    LONG: Type.Optional(decimal),
    postOfficeType: Type.Optional(list(postOfficeTypes)),
    mailingService: Type.Optional(
      list(['CARRIER_SERVICES', 'GENERAL_DELIVERY', 'GLOBAL_EXPRESS_GUARANTEED', 'LABEL_BROKER', 'LABEL_BROKER_SELF-SERVICE_KIOSK', 'PRIORITY_MAIL_INTERNATIONAL', 'PO_BOX', 'SELF-SERVICE_KIOSK', 'USPS_CONNECT_LOCAL']),
    ),
    businessService: Type.Optional(
      list(['BULK_MAIL_ACCEPTANCE', 'BUSINESS_REPLY_MAIL_ACCOUNT_BALANCE', 'BULK_MAIL_ACCOUNT_BALANCE', 'BULK_MAIL_NEW_PERMIT', 'BUSINESS_REPLY_MAIL_NEW_PERMIT', 'CALL_REFERRAL']),
    ),
    passportService: Type.Optional(list(['PASSPORT_APPOINTMENT', 'PASSPORT_PHOTO', 'PASSPORT_WALK-IN'])),
    pickupService: Type.Optional(list(pickupServices)),
    financialService: Type.Optional(list(['BURIAL_FLAG', 'DUCK_STAMP', 'GIFT_CARDS', 'GREETING_CARDS', 'MONEY_ORDER_DOMESTIC', 'MONEY_ORDER_INQUIRY'])),
    hours: Type.Optional(Type.Union(['WEEKDAY_AFTER_5', 'SATURDAY_HOURS', 'SUNDAY_HOURS', '24-HOUR_FACILITIES'].map((h) => Type.Literal(h)))),
    radius: Type.Optional(integer),
    length: Type.Optional(positive),
    width: Type.Optional(positive),
    height: Type.Optional(positive),
    offset: Type.Optional(integer),
    limit: Type.Optional(integer),
  },
  { additionalProperties: false },
);

/**
 * What the operation's words add to the parameters: "A complete query consists of one of the following: Complete
 * domestic address, City/State Pair, ZIP Code, Latitude/Longitude pair"; radius and limit within 1 to 100 (their
 * minimum and maximum); and "If requesting PICKUP_PARCEL_LOCKER then the length, width and height parameters are
 * always required".
 */
export function postOfficeLocationsQueryFaults(query: Record<string, string | undefined>): string[] {
  const faults: string[] = [];
  const complete = (query.streetAddress && query.city && query.state && query.ZIPCode) || (query.city && query.state) || query.ZIPCode || (query.LAT && query.LONG);
  if (!complete) faults.push('a complete query needs a domestic address, a city and state, a ZIPCode, or LAT and LONG');
  for (const name of ['radius', 'limit'] as const) {
    const n = query[name] === undefined ? undefined : Number(query[name]);
    if (n !== undefined && (n < 1 || n > 100)) faults.push(`/${name} must be between 1 and 100`);
  }
  const lockers = query.pickupService?.split(',').includes('PICKUP_PARCEL_LOCKER');
  if (lockers && !(query.length && query.width && query.height)) faults.push('length, width and height are required with PICKUP_PARCEL_LOCKER');
  return faults;
}
