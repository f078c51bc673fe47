import { readFileSync } from 'node:fs';

/** shipd's one version, package.json's: the OpenAPI document, the MCP server and GET / all say this one. */
export const shipdVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
