#!/usr/bin/env node
// Runs the TypeScript sources directly: there is no build step to forget before `npx shipd`.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
