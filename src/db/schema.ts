import type { Mode } from '../domain/api-key-format.ts';

// Times are RFC 3339 UTC strings of fixed width, so they compare and sort as text on both databases.
// JSON values are stored as text for the same reason: one schema for SQLite and PostgreSQL.

export interface AccountsTable {
  id: string;
  name: string;
  plan: 'api' | 'basic';
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  mode: Mode;
  name: string | null;
  prefix: string;
  last4: string;
  created_at: string;
  revoked_at: string | null;
}

export interface ApiKeySecretsTable {
  hash: string;
  key_id: string;
  created_at: string;
  /** null while the secret is current; set when the key is rolled. */
  expires_at: string | null;
}

/** One row, bumped by every change to keys, so caches in other processes know to forget. */
export interface KeyRevisionTable {
  id: number;
  revision: number;
}

export interface PaymentMethodsTable {
  account_id: string;
  mode: Mode;
  payment_method: string;
  created_at: string;
}

export interface LocationsTable {
  id: string;
  account_id: string;
  name: string;
  address: string;
  is_default: number;
  created_at: string;
  updated_at: string;
}

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  api_key_secrets: ApiKeySecretsTable;
  key_revision: KeyRevisionTable;
  payment_methods: PaymentMethodsTable;
  locations: LocationsTable;
}
