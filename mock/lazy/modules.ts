// The deferred third-party modules (see deferred.ts).
/* eslint-disable @typescript-eslint/no-require-imports -- a require inside `deferred` is what defers the load */
import type * as PixUtils from 'pix-utils';
import type * as Undici from 'undici';
import { deferred } from './deferred';

/** undici (about 50 ms): webhook deliveries and the command line's client of a running mock. */
export const undici = deferred(() => require('undici') as typeof Undici);

/**
 * pix-utils brings axios and qrcode with it (about 50 ms) for features never used here: loaded
 * on the first BR Code built or read.
 */
export const pixUtils = deferred(() => require('pix-utils') as typeof PixUtils);
