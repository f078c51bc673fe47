import { createHash } from 'node:crypto';
import type { CarrierId } from '../../config.ts';

const digits = '0123456789';
const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function draw(seed: Buffer, from: number, count: number, alphabet: string): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[seed[from + i]! % alphabet.length];
  return out;
}

/**
 * A pickup confirmation in the carrier's own style, the same for the same reference (so a retried schedule gets the
 * first one back): UPS a pickup request number of 11 letters and digits starting with 2 (`2929602E9CP`); USPS `WTC`
 * and 9 digits (`WTC123456789`); FedEx its dispatch location's 4 letters and a 4-digit number (`NQAA3001`).
 */
export function pickupConfirmation(carrier: CarrierId, reference: string): string {
  const seed = createHash('sha256').update(`pickup:${carrier}:${reference}`).digest();
  switch (carrier) {
    case 'ups':
      return '2' + draw(seed, 0, 10, digits + letters);
    case 'usps':
      return 'WTC' + draw(seed, 0, 9, digits);
    case 'fedex':
      return draw(seed, 0, 4, letters) + draw(seed, 4, 4, digits);
  }
}
