// The two pure pieces of the runner: templates (saved values and built-ins in strings) and the
// partial deep match of an expectation against an answer.
import { describe, expect, it } from '@jest/globals';
import { describeDifferences, partialMatch, render, renderString, TemplateError } from '../../mock/scenarios';
import { getPath, parsePath } from '../../mock/scenarios/paths';
import { templateRefs } from '../../mock/scenarios/template';

const context = {
  quoteId: 'q-1',
  amount: 150,
  customer: { id: 'c-1', accounts: ['a-0', 'a-1', 'a-2'], beneficiaries: ['b-0'] },
  accounts: { funded: 'a-1', editable: 'a-0' },
  receivers: { hooks: { url: 'http://127.0.0.1:9/hooks/hooks' } },
};

describe('templates', () => {
  it('When a string is one template, then it takes the value itself, type included', () => {
    expect(render('{{amount}}', context)).toBe(150);
    expect(render('{{ customer.accounts }}', context)).toEqual(['a-0', 'a-1', 'a-2']);
  });

  it('When a template sits inside a longer string, then the value is written as text', () => {
    expect(renderString('/v1/operations/{{quoteId}}?x={{amount}}', context)).toBe('/v1/operations/q-1?x=150');
  });

  it('reads dotted paths with array indexes, and the built-ins', () => {
    expect(
      render(
        { a: '{{customer.accounts[1]}}', b: ['{{accounts.funded}}', '{{receivers.hooks.url}}'], c: '{{customer.beneficiaries.0}}' },
        context,
      ),
    ).toEqual({
      a: 'a-1',
      b: ['a-1', 'http://127.0.0.1:9/hooks/hooks'],
      c: 'b-0',
    });
  });

  it('leaves keys, numbers, booleans and null alone', () => {
    expect(render({ '{{quoteId}}': true, n: 1, z: null }, context)).toEqual({ '{{quoteId}}': true, n: 1, z: null });
  });

  it('When a name has no value, then it says which names are known', () => {
    expect(() => render('{{quoteid}}', context)).toThrow(TemplateError);
    expect(() => render('{{quoteid}}', context)).toThrow(
      '{{quoteid}} has no value (known names: accounts, amount, customer, quoteId, receivers)',
    );
    expect(() => render('{{customer.accounts[7]}}', context)).toThrow('{{customer.accounts[7]}} has no value');
  });

  it('lists every template of a value with where it is', () => {
    expect(templateRefs({ accountId: '{{accounts.funded}}', list: [{ id: 'x-{{op}}' }] })).toEqual([
      { expression: 'accounts.funded', at: 'accountId' },
      { expression: 'op', at: 'list[0].id' },
    ]);
  });
});

describe('paths', () => {
  it('parse names and indexes, and refuse malformed ones', () => {
    expect(parsePath('body.data[0].messageId')).toEqual(['body', 'data', 0, 'messageId']);
    expect(parsePath('headers.x-request-id')).toEqual(['headers', 'x-request-id']);
    expect(() => parsePath('body..id')).toThrow('empty name');
    expect(() => parsePath('body[x]')).toThrow('must hold an index');
    expect(() => parsePath('body.')).toThrow('ends with a dot');
  });

  it('read a value, or say it is not there', () => {
    const answer = { body: { data: [{ id: 'l-1' }] } };
    expect(getPath(answer, parsePath('body.data[0].id'))).toEqual({ found: true, value: 'l-1' });
    expect(getPath(answer, parsePath('body.data[1].id'))).toEqual({ found: false });
    expect(getPath(answer, parsePath('body.data.id'))).toEqual({ found: false });
  });
});

describe('partial deep match', () => {
  const operation = {
    id: 'op-1',
    currentState: { status: 'REQUESTED', createdAt: 'x' },
    transactions: [{ status: 'CONFIRMED', amount: { value: '150.00' } }],
    tags: [],
  };

  it('When the expectation names a subset of the keys, then the others are ignored', () => {
    expect(partialMatch({ currentState: { status: 'REQUESTED' } }, operation)).toEqual([]);
    expect(partialMatch({ transactions: [{ amount: { value: '150.00' } }], tags: [] }, operation)).toEqual([]);
  });

  it('When a value differs, then the difference names its path and both values', () => {
    const differences = partialMatch({ currentState: { status: 'COMPLETED' } }, operation, 'body');
    expect(differences).toEqual([{ path: 'body.currentState.status', expected: 'COMPLETED', actual: 'REQUESTED' }]);
    expect(describeDifferences(differences)).toBe('body.currentState.status: expected "COMPLETED", got "REQUESTED"');
  });

  it('compares types strictly: "150.00" is not 150', () => {
    expect(describeDifferences(partialMatch({ value: 150 }, { value: '150.00' }))).toBe('value: expected 150, got "150.00"');
  });

  it('When a key is missing, then it says so', () => {
    expect(describeDifferences(partialMatch({ reason: { code: 'X' } }, { id: 1 }, 'body'))).toBe(
      'body.reason: expected {"code":"X"}, but it is missing',
    );
  });

  it('matches arrays item by item and requires the same length', () => {
    expect(partialMatch([{ s: 'A' }, { s: 'B' }], [{ s: 'A', x: 1 }, { s: 'B' }])).toEqual([]);
    const shorter = partialMatch({ data: [{ s: 'A' }, { s: 'B' }] }, { data: [{ s: 'A' }] }, 'body');
    expect(describeDifferences(shorter)).toBe('body.data: expected 2 items, got 1\nbody.data[1]: expected {"s":"B"}, but it is missing');
    expect(describeDifferences(partialMatch({ data: [] }, { data: [1] }))).toBe('data: expected 0 items, got 1');
  });

  it('tells an object from an array, and null from a value', () => {
    expect(partialMatch({ a: { b: 1 } }, { a: [1] })[0]).toMatchObject({ path: 'a', note: 'expected an object' });
    expect(partialMatch({ a: [1] }, { a: { 0: 1 } })[0]).toMatchObject({ path: 'a', note: 'expected an array' });
    expect(partialMatch({ error: null }, { error: null })).toEqual([]);
    expect(partialMatch({ error: null }, { error: 'boom' })).toEqual([{ path: 'error', expected: null, actual: 'boom' }]);
  });

  it('lists at most five differences, then how many more', () => {
    const expected = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`k${i}`, i]));
    expect(describeDifferences(partialMatch(expected, {})).split('\n')).toHaveLength(6);
    expect(describeDifferences(partialMatch(expected, {}))).toContain('... and 2 more');
  });
});
