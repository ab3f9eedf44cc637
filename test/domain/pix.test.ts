import { describe, expect, it } from '@jest/globals';
import { isDynamicPix, hasError, parsePix } from 'pix-utils';
import {
  BR_CODE_URL_PREFIX,
  FALLBACK_MERCHANT_CITY,
  FALLBACK_MERCHANT_NAME,
  buildDepositBrCode,
  isValidBrCode,
  normaliseBrCodeText,
  parseDepositBrCode,
} from '../../mock/domain/pix';

const operationId = '3f2c9a1e-7b4d-4c8e-9a0f-1d2e3f4a5b6c';
const url = `${BR_CODE_URL_PREFIX}3f2c9a1e7b4d4c8e9a0f1d2e3f4a5b6c`;

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), written bit by bit. */
function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Top-level EMV tags (id -> value) of a payload, read independently of pix-utils. */
function emvTags(payload: string): Map<string, string> {
  const tags = new Map<string, string>();
  let i = 0;
  while (i < payload.length) {
    const id = payload.slice(i, i + 2);
    const length = Number(payload.slice(i + 2, i + 4));
    tags.set(id, payload.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  expect(i).toBe(payload.length);
  return tags;
}

describe('crc16CcittFalse (the test helper itself)', () => {
  it('matches the standard check value of "123456789"', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
  });
});

describe('buildDepositBrCode', () => {
  const payload = buildDepositBrCode({ operationId, merchantName: 'Acme Pagamentos Ltda', merchantCity: 'Sao Paulo' });

  it('parses with pix-utils as a dynamic PIX with the URL, merchant name and city', () => {
    const parsed = parsePix(payload);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(isDynamicPix(parsed)).toBe(true);
    expect(parsed).toMatchObject({
      type: 'DYNAMIC',
      url,
      merchantName: 'ACME PAGAMENTOS LTDA',
      merchantCity: 'SAO PAULO',
      countryCode: 'BR',
      transactionCurrency: '986',
      merchantCategoryCode: '0000',
    });
    expect(parseDepositBrCode(payload)).toEqual({ url, merchantName: 'ACME PAGAMENTOS LTDA', merchantCity: 'SAO PAULO' });
  });

  it('ends with a CRC16-CCITT-FALSE over everything before the checksum', () => {
    expect(payload).toMatch(/6304[0-9A-F]{4}$/);
    expect(payload.slice(-4)).toBe(crc16CcittFalse(payload.slice(0, -4)));
    expect(isValidBrCode(payload)).toBe(true);
  });

  it('is a well-formed one-time dynamic BR Code, read without pix-utils', () => {
    const tags = emvTags(payload);
    expect(tags.get('00')).toBe('01');
    expect(tags.get('01')).toBe('12');
    expect(tags.get('26')).toBe(`0014br.gov.bcb.pix25${String(url.length).padStart(2, '0')}${url}`);
    expect(tags.get('58')).toBe('BR');
    expect(tags.get('62')).toBe('0503***');
    expect(tags.has('54')).toBe(false);
    expect([...tags.keys()].at(-1)).toBe('63');
    expect(payload).toMatch(/^[\x20-\x7e]+$/);
  });

  it('is deterministic from its input and differs per operation', () => {
    const input = { operationId, merchantName: 'Acme Pagamentos Ltda', merchantCity: 'Sao Paulo' };
    expect(buildDepositBrCode(input)).toBe(payload);
    expect(buildDepositBrCode({ ...input, operationId: operationId.toUpperCase() })).toBe(payload);
    expect(buildDepositBrCode({ ...input, operationId: '00000000-0000-4000-8000-000000000000' })).not.toBe(payload);
  });

  it('rejects an operation id that is not a uuid', () => {
    expect(() => buildDepositBrCode({ operationId: 'op-1', merchantName: 'A', merchantCity: 'B' })).toThrow(TypeError);
  });

  it('normalises accented and long names and cities and stays valid', () => {
    const accented = buildDepositBrCode({
      operationId,
      merchantName: 'Comércio de Açúcar & Café São João S/A — Filial',
      merchantCity: 'São José dos Campos',
    });
    expect(isValidBrCode(accented)).toBe(true);
    expect(accented.slice(-4)).toBe(crc16CcittFalse(accented.slice(0, -4)));
    expect(accented).toMatch(/^[\x20-\x7e]+$/);
    const parsed = parseDepositBrCode(accented);
    expect(parsed).toEqual({ url, merchantName: 'COMERCIO DE ACUCAR CAFE S', merchantCity: 'SAO JOSE DOS CA' });
    expect(parsed?.merchantName).toHaveLength(25);
    expect(parsed?.merchantCity).toHaveLength(15);
  });

  it('falls back when nothing of a name or city survives normalisation', () => {
    const parsed = parseDepositBrCode(buildDepositBrCode({ operationId, merchantName: '株式会社', merchantCity: '  ' }));
    expect(parsed).toMatchObject({ merchantName: FALLBACK_MERCHANT_NAME, merchantCity: FALLBACK_MERCHANT_CITY });
  });
});

describe('normaliseBrCodeText', () => {
  it.each([
    ['Ação Ltda.', 25, 'ACAO LTDA'],
    ['  Straße  Nº 1 ', 25, 'STRASSE NO 1'],
    ['Abcdefghijklmn opq', 15, 'ABCDEFGHIJKLMN'],
    ['', 15, ''],
  ])('%j (max %d) -> %j', (text, max, expected) => {
    expect(normaliseBrCodeText(text, max)).toBe(expected);
  });
});

describe('isValidBrCode', () => {
  const payload = buildDepositBrCode({ operationId, merchantName: 'Acme', merchantCity: 'Recife' });

  it('rejects the payload with any single character changed', () => {
    for (let i = 0; i < payload.length; i++) {
      const replacement = payload[i] === 'A' ? 'B' : 'A';
      const changed = payload.slice(0, i) + replacement + payload.slice(i + 1);
      expect({ i, valid: isValidBrCode(changed) }).toEqual({ i, valid: false });
    }
  });

  it('rejects a wrong checksum, a truncated payload and non-PIX text', () => {
    const wrongCrc = payload.slice(0, -4) + (payload.slice(-4) === '0000' ? '0001' : '0000');
    expect(isValidBrCode(wrongCrc)).toBe(false);
    expect(isValidBrCode(payload.slice(0, -1))).toBe(false);
    expect(isValidBrCode('')).toBe(false);
    expect(isValidBrCode('hello')).toBe(false);
    expect(parseDepositBrCode(wrongCrc)).toBeNull();
  });

  it('returns false (pix-utils would throw) for a broken account template with a correct CRC', () => {
    let broken = '0002012610' + '0014br.gov' + '5204000053039865802BR5904ACME6006RECIFE62070503***6304';
    broken += crc16CcittFalse(broken);
    expect(() => parsePix(broken)).toThrow(TypeError);
    expect(isValidBrCode(broken)).toBe(false);
    expect(parseDepositBrCode(broken)).toBeNull();
  });

  it('accepts a valid static PIX (but parseDepositBrCode wants a dynamic one)', () => {
    const readme =
      '00020126650014br.gov.bcb.pix0119nubank@thalesog.com0220Gerado por Pix-Utils' +
      '52040000530398654041.005802BR5914Thales Ogliari6015SAO MIGUEL DO O62070503***6304059A';
    expect(isValidBrCode(readme)).toBe(true);
    expect(parseDepositBrCode(readme)).toBeNull();
  });
});
