/** Where the API lives under the host; label links are built from it. */
export const apiBase = '/api/integrations/v1';
