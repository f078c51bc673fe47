// The identities of a mailer that USPS's payment authorization names, and their published formats. Source:
// payments.yaml version 3.1.20 (karrioapi/karrio modules/connectors/usps/vendor/, commit
// deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a), components CRID ("a USPS-generated numeric code", 2 to 18 characters),
// MID and ManifestMID (both ^(\d{6}|\d{9})$).

export type MailerIdKind = 'crid' | 'mid';

const formats: Record<MailerIdKind, { pattern: RegExp; says: string }> = {
  crid: { pattern: /^\d{2,18}$/, says: 'must be a USPS Customer Registration ID (CRID) of 2 to 18 digits' },
  mid: { pattern: /^(\d{6}|\d{9})$/, says: 'must be a USPS Mailer ID (MID) of 6 or 9 digits' },
};

/** Why this value cannot be a CRID or MID, or undefined when it can. */
export function mailerIdProblem(kind: MailerIdKind, value: string): string | undefined {
  const format = formats[kind];
  return format.pattern.test(value) ? undefined : `${format.says} (got "${value}")`;
}
