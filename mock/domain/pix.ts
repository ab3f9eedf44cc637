// PIX dynamic QR code ("BR Code", the "copia e cola" text) for deposit funding instructions.
//
// Built with pix-utils (v2). Only its pure functions are used: createDynamicPix, parsePix,
// hasError, isDynamicPix. Never call `fetchPayload` / `fetchRecPayload` / `toImage` on its
// objects: the first two fetch the payload URL over the network (axios), the last renders a PNG.
//
// Things pix-utils does NOT do for us (read from node_modules/pix-utils/dist/main):
// - createDynamicPix checks `merchantName.length > 25` / `merchantCity.length > 15` on the raw
//   input *before* its own normalisation (NFD, strip accents, upper case), so long names are
//   an error, not truncated; and characters NFD cannot reduce to ASCII would make the EMV
//   length fields (UTF-16 code units) disagree with the bytes the CRC covers. We normalise to
//   upper-case ASCII letters, digits and single spaces, truncated, before calling it.
// - A dynamic QR from pix-utils carries no amount (tag 54 is emitted for static codes only);
//   the amount of a dynamic charge lives in the payload behind the URL. So we take no amount.
// - The URL length is not checked; the merchant account template (tag 26) has a two-digit
//   length, which leaves at most 77 characters for the URL. Ours is always 57 (the prefix and
//   32 hex digits; test/domain/pix-inputs.test.ts checks it), so no check is needed here.
// - parsePix verifies the CRC16 (computeCRC over the text up to and including "6304", compared
//   with tag 63) but THROWS a TypeError, instead of returning its error object, on some
//   malformed nested templates whose CRC is right (e.g. a broken tag 26). isValidBrCode catches.
import type * as PixUtils from 'pix-utils';
import { pixUtils } from '../lazy/modules';

/** Host and path prefix of the (fictitious, never fetched) dynamic payload location. */
export const BR_CODE_URL_PREFIX = 'pix.fos-mock.local/qr/v2/';
export const MERCHANT_NAME_MAX = 25;
export const MERCHANT_CITY_MAX = 15;
/** Used when a name or city has no character left after normalisation (e.g. only CJK text). */
export const FALLBACK_MERCHANT_NAME = 'FOS MOCK';
export const FALLBACK_MERCHANT_CITY = 'SAO PAULO';

export interface DepositBrCodeInput {
  /** The deposit operation's id (a uuid); the payload URL is derived from it. */
  operationId: string;
  merchantName: string;
  merchantCity: string;
}

export interface ParsedDepositBrCode {
  url: string;
  merchantName: string;
  merchantCity: string;
}

/**
 * Upper-case ASCII letters, digits and single spaces, at most `max` characters:
 * accents are removed ("São João" -> "SAO JOAO"), every other character becomes a space.
 * Truncation happens after normalisation, so the limits hold for what is actually encoded.
 */
export function normaliseBrCodeText(text: string, max: number): string {
  return text
    .normalize('NFKD') // compatibility decomposition: "º" -> "o", "ﬁ" -> "fi", then accents split off
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .slice(0, max)
    .trimEnd();
}

/** The payload URL for an operation: the prefix plus the uuid's 32 hex digits, lower case. */
export function depositBrCodeUrl(operationId: string): string {
  const hex = operationId.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) {
    throw new TypeError(`operationId must be a uuid, got ${JSON.stringify(operationId)}`);
  }
  return BR_CODE_URL_PREFIX + hex;
}

/** The "copia e cola" text of a one-time dynamic PIX QR code for a deposit. Deterministic. */
export function buildDepositBrCode(input: DepositBrCodeInput): string {
  const url = depositBrCodeUrl(input.operationId);
  const { createDynamicPix, hasError } = pixUtils();
  const pix = createDynamicPix({
    merchantName: normaliseBrCodeText(input.merchantName, MERCHANT_NAME_MAX) || FALLBACK_MERCHANT_NAME,
    merchantCity: normaliseBrCodeText(input.merchantCity, MERCHANT_CITY_MAX) || FALLBACK_MERCHANT_CITY,
    url,
    oneTime: true, // tag 01 = "12": the code may be paid once (one deposit operation)
  });
  // Stryker disable next-line ConditionalExpression,StringLiteral: unreachable, name <= 25 and city <= 15 are pix-utils' only input rules
  if (hasError(pix)) throw new Error(`pix-utils rejected the BR Code input: ${pix.message}`);
  return pix.toBRCode();
}

function parseSafely(payload: string): ReturnType<typeof PixUtils.parsePix> | undefined {
  try {
    return pixUtils().parsePix(payload);
    // Stryker disable next-line BlockStatement: an empty catch falls through to the same undefined
  } catch {
    return undefined; // see the header: parsePix throws on some malformed templates
  }
}

// An empty text and a non-string (from JavaScript callers) need no guard: parsePix reports the
// first as an error and throws on the second, which parseSafely turns into undefined.
/** True when pix-utils parses the text as a PIX BR Code (static or dynamic) with a valid CRC16. */
export function isValidBrCode(payload: string): boolean {
  const parsed = parseSafely(payload);
  return parsed !== undefined && !pixUtils().hasError(parsed);
}

/** The fields of a valid dynamic BR Code, or null when the text is not one. */
export function parseDepositBrCode(payload: string): ParsedDepositBrCode | null {
  const parsed = parseSafely(payload);
  if (parsed === undefined || pixUtils().hasError(parsed) || !pixUtils().isDynamicPix(parsed)) return null;
  return { url: parsed.url, merchantName: parsed.merchantName, merchantCity: parsed.merchantCity };
}
