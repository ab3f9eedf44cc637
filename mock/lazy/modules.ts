// The deferred third-party modules (see deferred.ts).
/* eslint-disable @typescript-eslint/no-require-imports -- a require inside `deferred` is what defers the load */
import type * as PixUtils from 'pix-utils';
import type * as Undici from 'undici';
import type * as Esbuild from 'esbuild';
import type * as Re2js from 're2js';
import { deferred } from './deferred';

/** undici (about 50 ms): webhook deliveries and the command line's client of a running mock. */
export const undici = deferred(() => require('undici') as typeof Undici);

/**
 * pix-utils brings axios and qrcode with it (about 50 ms) for features never used here: loaded
 * on the first BR Code built or read.
 */
export const pixUtils = deferred(() => require('pix-utils') as typeof PixUtils);

/**
 * esbuild: bundles the inspector's page when no bundle was built (a clone running from source,
 * the tests). `npm run build` writes the bundle; the installed package ships it and has no esbuild.
 */
export const esbuild = deferred(() => require('esbuild') as typeof Esbuild);

/** re2js (about 20 ms): compiles and matches the regular expressions users send, on the first one. */
export const re2js = deferred(() => require('re2js') as typeof Re2js);
