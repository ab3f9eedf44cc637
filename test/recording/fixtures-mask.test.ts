// `fixtures pull --mask` and Brazilian tax documents: a masked CPF or CNPJ is a new number with
// valid check digits, so a client that validates them accepts the masked fixtures. The check here
// is the textbook one (Receita Federal's weight tables written out), not the mask's own code.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { masker, maskRecord, withCheckDigits } from '../../mock/cli/fixtures-mask';

const WEIGHTS = {
  CPF: [
    [10, 9, 8, 7, 6, 5, 4, 3, 2],
    [11, 10, 9, 8, 7, 6, 5, 4, 3, 2],
  ],
  CNPJ: [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ],
};

/** Whether a CPF's or CNPJ's two last digits are the ones its other characters call for (punctuation ignored). */
function validTaxId(value: string, type: 'CPF' | 'CNPJ'): boolean {
  const chars = value.replace(/[.\-/]/g, '');
  const [first, second] = WEIGHTS[type];
  if (chars.length !== second!.length + 1) return false;
  const digit = (weights: number[]) => {
    const sum = weights.reduce((total, weight, i) => total + (chars.charCodeAt(i) - 48) * weight, 0);
    return sum % 11 < 2 ? 0 : 11 - (sum % 11);
  };
  return chars.at(-2) === String(digit(first!)) && chars.at(-1) === String(digit(second!));
}

const mask = masker('fos-mock');

describe('masked tax documents', () => {
  it('numbers from outside are valid as they are: the demo fixtures and the Receita Federal example of an alphanumeric CNPJ', () => {
    const known: Array<[string, 'CPF' | 'CNPJ']> = [
      ['74311606000184', 'CNPJ'],
      ['61538623000107', 'CNPJ'],
      ['30396400973', 'CPF'],
      ['91113355484', 'CPF'],
      ['12.ABC.345/01DE-35', 'CNPJ'],
    ];
    for (const [value, type] of known) {
      expect(validTaxId(value, type)).toBe(true);
      expect(withCheckDigits(value, type)).toBe(value);
    }
    // The check this test makes can fail: one digit changed is refused.
    expect(validTaxId('30396400974', 'CPF')).toBe(false);
    expect(validTaxId('12.ABC.345/01DE-36', 'CNPJ')).toBe(false);
  });

  it('a masked owner, UBO and document update carry valid CPF and CNPJ numbers, punctuation where it was', () => {
    const owner = {
      legalName: 'Moraes, Moreira e Moraes',
      taxId: { value: '74.311.606/0001-84', type: 'CNPJ' },
      ubos: [{ name: 'Helena Costa', taxId: { value: '303.964.009-73', type: 'CPF' } }],
      update: { identificationDocument: { value: '91113355484', type: 'CPF' } },
    };
    const masked = maskRecord(owner, mask);
    expect(masked.taxId.value).toMatch(/^\d\d\.\d{3}\.\d{3}\/\d{4}-\d\d$/);
    expect(masked.taxId.value).not.toBe(owner.taxId.value);
    expect(validTaxId(masked.taxId.value, 'CNPJ')).toBe(true);
    expect(masked.ubos[0]!.taxId.value).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d\d$/);
    expect(validTaxId(masked.ubos[0]!.taxId.value, 'CPF')).toBe(true);
    expect(validTaxId(masked.update.identificationDocument.value, 'CPF')).toBe(true);
    // Masked alike everywhere: the same number masks to the same number.
    expect(maskRecord(owner, mask)).toEqual(masked);
  });

  it('any CPF or CNPJ masks to a valid one, an alphanumeric CNPJ keeping its letters as capitals', () => {
    const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
    const cnpjBase = fc.stringMatching(/^[0-9A-Z]{12}$/);
    fc.assert(
      fc.property(digits(11), (cpf) => validTaxId(withCheckDigits(mask(cpf), 'CPF'), 'CPF')),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(cnpjBase, digits(2), (base, check) => {
        const masked = withCheckDigits(mask(`${base}${check}`), 'CNPJ');
        return /^[0-9A-Z]{12}[0-9]{2}$/.test(masked) && validTaxId(masked, 'CNPJ');
      }),
      { numRuns: 300 },
    );
  });

  it("another document, or a value not of its type's shape, is masked character by character as before", () => {
    expect(maskRecord({ taxId: { value: '12.345.678-9', type: 'RG' } }, mask).taxId.value).toBe(mask('12.345.678-9'));
    expect(maskRecord({ taxId: { value: '1234567890', type: 'CPF' } }, mask).taxId.value).toBe(mask('1234567890'));
    expect(maskRecord({ taxId: { value: 'ABC.DEF.GHI-JK', type: 'CPF' } }, mask).taxId.value).toBe(mask('ABC.DEF.GHI-JK'));
    // An open value set: any type the data names, an object's own property names included.
    for (const type of ['constructor', '__proto__', 'toString', 7, null])
      expect(maskRecord({ taxId: { value: '303.964.009-73', type } }, mask).taxId.value).toBe(mask('303.964.009-73'));
  });
});
