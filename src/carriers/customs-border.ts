import type { AnyAddress } from '../schemas/address.ts';

// When a parcel needs a customs declaration. Between countries, always. Within the US, USPS asks for a customs form
// wherever a parcel leaves or enters a place with customs of its own:
// - APO, FPO and DPO addresses (states AA, AE, AP): mail to, from or between them that weighs 16 oz or more or holds
//   goods (DMM 703.2.3.6–703.2.3.8 and 608.2.4.4; 89 FR 51976, June 21, 2024, removed the last exceptions);
// - American Samoa, Guam, the Northern Mariana Islands and the freely associated states (Micronesia, the Marshall
//   Islands, Palau): mail to or from them that weighs 16 oz or more or holds goods (DMM 608.2.4, renumbered 608.2.3
//   by Postal Bulletin 22675, effective July 13, 2025);
// - the US Virgin Islands, outside the US customs territory (the 50 states, DC and Puerto Rico, IMM 711.1): mail
//   from there; mail to them goes as domestic mail.
// A parcel a store ships holds goods, so the 16 oz limit never spares one: a declaration of `documents` is how a
// sender says it holds none.

const military = new Set(['AA', 'AE', 'AP']);
const ownCustoms: Readonly<Record<string, string>> = {
  AS: 'American Samoa',
  GU: 'Guam',
  MP: 'the Northern Mariana Islands',
  FM: 'the Federated States of Micronesia',
  MH: 'the Marshall Islands',
  PW: 'Palau',
};

type Place = { kind: 'abroad'; country: string } | { kind: 'military' } | { kind: 'own_customs'; state: string } | { kind: 'virgin_islands' } | { kind: 'customs_territory' };

/** Where an address is for customs; addresses are as shipd stores them, a US territory being country US with its state. */
function placeOf(address: AnyAddress): Place {
  const country = (address.country ?? 'US').toUpperCase();
  if (country !== 'US') return { kind: 'abroad', country };
  const state = (address.state ?? '').toUpperCase();
  if (military.has(state)) return { kind: 'military' };
  if (ownCustoms[state]) return { kind: 'own_customs', state };
  return state === 'VI' ? { kind: 'virgin_islands' } : { kind: 'customs_territory' };
}

/** Why a parcel needs a declaration: it goes abroad (or comes from there), or a USPS rule within the US asks for one. */
export type CustomsBorder = { kind: 'abroad'; country: string } | { kind: 'usps'; rule: string };

/**
 * Why a parcel from one address to the other needs a customs declaration: the country abroad at either end, or the
 * USPS rule in words a merchant can act on; undefined when the parcel crosses no customs border.
 */
export function customsBorder(from: AnyAddress, to: AnyAddress): CustomsBorder | undefined {
  const a = placeOf(from);
  const b = placeOf(to);
  if (a.kind === 'abroad' && b.kind === 'abroad') return a.country === b.country ? undefined : { kind: 'abroad', country: b.country };
  if (b.kind === 'abroad') return { kind: 'abroad', country: b.country };
  if (a.kind === 'abroad') return { kind: 'abroad', country: a.country };
  const usps = (rule: string): CustomsBorder => ({ kind: 'usps', rule });
  if (a.kind === 'military' || b.kind === 'military') {
    return usps('USPS asks for a customs form on parcels to, from or between APO, FPO and DPO addresses (DMM 703.2.3.6–703.2.3.8)');
  }
  const island = [b, a].find((p) => p.kind === 'own_customs');
  if (island && !(a.kind === 'own_customs' && b.kind === 'own_customs' && a.state === b.state)) {
    return usps(`USPS asks for a customs form on parcels to or from ${ownCustoms[island.state]}, which has customs of its own (DMM 608.2.4)`);
  }
  if (a.kind === 'virgin_islands' && b.kind !== 'virgin_islands') {
    return usps('USPS asks for a customs form on parcels from the US Virgin Islands, which lie outside the US customs territory (DMM 608.2.4)');
  }
  return undefined;
}

/** Whether a parcel from one address to the other needs a customs declaration (customsBorder says why). */
export function crossesCustomsBorder(from: AnyAddress, to: AnyAddress): boolean {
  return customsBorder(from, to) !== undefined;
}
