// jose 6, the JWT library of the token service, ships ES modules only, which jest's default
// loader cannot require (decision 0023). `npm run build` bundles it into one CommonJS file beside
// this module's compiled copy, and the package loads that; a clone run from source loads jose
// itself (ts-jest and tsx transform it).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as Jose from 'jose';

/** Where `npm run build` writes the bundle (scripts/build-jose.ts). */
export const BUILT_JOSE = join(__dirname, 'jose.cjs');

// eslint-disable-next-line @typescript-eslint/no-require-imports -- which file is loaded is decided at run time
export const jose = require(existsSync(BUILT_JOSE) ? BUILT_JOSE : 'jose') as typeof Jose;
