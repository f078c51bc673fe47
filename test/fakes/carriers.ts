// The three carrier fakes together, and the settings that point a live shipd at them with the platform's
// credentials for the carriers named.
import assert from 'node:assert/strict';
import { startFedexFake, type FedexFake } from './fedex.ts';
import { startUpsFake, upsFakeCredentials, type UpsFake } from './ups.ts';
import { fakeUspsCredentials, startUspsFake, type UspsFake } from './usps.ts';

export interface CarrierFakes {
  ups: UpsFake;
  usps: UspsFake;
  fedex: FedexFake;
  /** Every fake's base URL, and platform credentials for the carriers in `which` only. */
  env(which: ('ups' | 'usps' | 'fedex')[]): Record<string, string>;
  close(): Promise<void>;
}

export async function startCarrierFakes(): Promise<CarrierFakes> {
  const [ups, usps, fedex] = await Promise.all([startUpsFake(), startUspsFake(), startFedexFake()]);
  const creds = {
    ups: upsFakeCredentials,
    usps: fakeUspsCredentials,
    fedex: { clientId: fedex.clientId, clientSecret: fedex.clientSecret, accountNumber: fedex.accountNumber },
  };
  return {
    ups,
    usps,
    fedex,
    env(which) {
      const env: Record<string, string> = { UPS_BASE_URL: ups.url, USPS_BASE_URL: usps.url, FEDEX_BASE_URL: fedex.url };
      for (const c of which) {
        const p = c.toUpperCase();
        env[`${p}_CLIENT_ID`] = creds[c].clientId;
        env[`${p}_CLIENT_SECRET`] = creds[c].clientSecret;
        env[`${p}_ACCOUNT_NUMBER`] = creds[c].accountNumber;
      }
      if (which.includes('usps')) Object.assign(env, { USPS_CRID: fakeUspsCredentials.crid, USPS_MID: fakeUspsCredentials.mid });
      return env;
    },
    close: async () => {
      await Promise.all([ups.close(), usps.close(), fedex.close()]);
    },
  };
}

/** Connects the fake UPS account as the named account's own, through the CLI as an operator would. */
export async function connectOwnUps(server: { cli(args: string[], env?: Record<string, string>): Promise<{ code: number; stderr: string }> }, account: string): Promise<void> {
  const connected = await server.cli(['carriers', 'connect', '--account', account, '--carrier', 'ups', '--client-id', upsFakeCredentials.clientId, '--account-number', upsFakeCredentials.accountNumber], {
    SHIPD_CARRIER_CLIENT_SECRET: upsFakeCredentials.clientSecret,
  });
  assert.equal(connected.code, 0, connected.stderr);
}

/** Connects the fake USPS account as the named account's own through the CLI, with the extra flags given (e.g. --crid). */
export async function connectOwnUsps(server: { cli(args: string[], env?: Record<string, string>): Promise<{ code: number; stderr: string }> }, account: string, flags: string[]): Promise<{ code: number; stderr: string }> {
  const args = ['carriers', 'connect', '--account', account, '--carrier', 'usps', '--client-id', fakeUspsCredentials.clientId, '--account-number', fakeUspsCredentials.accountNumber, ...flags];
  return server.cli(args, { SHIPD_CARRIER_CLIENT_SECRET: fakeUspsCredentials.clientSecret });
}
