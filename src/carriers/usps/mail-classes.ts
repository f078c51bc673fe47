/**
 * Our outbound service codes → the USPS return mail class that carries the same service back. Only classes both
 * the Labels API (domestic-labels.yaml 3.9.13, BaseReturnsPackageDescription.mailClass) and the Shipping Options
 * API (shipping-options.yaml 3.1.29, DomesticPackageDescription.mailClass) accept, so a return can be both quoted
 * and bought. A service missing here has no USPS return class.
 */
export const returnClasses: Readonly<Record<string, string>> = {
  USPS_GROUND_ADVANTAGE: 'USPS_GROUND_ADVANTAGE_RETURN_SERVICE',
  PRIORITY_MAIL: 'PRIORITY_MAIL_RETURN_SERVICE',
  PRIORITY_MAIL_EXPRESS: 'PRIORITY_MAIL_EXPRESS_RETURN_SERVICE',
};

export function returnClassOf(service: string): string | undefined {
  return Object.hasOwn(returnClasses, service) ? returnClasses[service] : undefined;
}

/** The outbound service code a return mail class is quoted under. */
export function serviceOfReturnClass(mailClass: string): string | undefined {
  return Object.entries(returnClasses).find(([, ret]) => ret === mailClass)?.[0];
}
