import { Type } from '@sinclair/typebox';
import { closed, strings } from './parts.ts';

/*
 * POST /oauth/token, form body (application/x-www-form-urlencoded), schema FullSchema of
 * authorization/v1/APIAuthorization-Resource.json ("API Authorization", info.version 1.0) in
 * ShipStream/fedex-rest-php-sdk resources/models/.raw/ at commit bc94dcd2c7254f105842125a3eb671c3f614d072 (2025-10-17).
 * grant_type's values are those its description lists.
 */
export const fedexTokenForm = closed(
  {
    grant_type: strings(['client_credentials', 'csp_credentials', 'client_pc_credentials']),
    client_id: Type.String({ minLength: 1 }),
    client_secret: Type.String({ minLength: 1 }),
    child_Key: Type.String({ minLength: 1 }),
    child_secret: Type.String({ minLength: 1 }),
  },
  { required: ['client_id', 'client_secret', 'grant_type'] },
);
