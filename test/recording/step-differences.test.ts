// What `--compare-with` counts as a difference between two answers to one step, and what it leaves
// aside: values that differ between targets (ids, times, amounts), and the items of an empty list.
import { describe, expect, it } from '@jest/globals';
import { stepDifferences } from '../../mock/scenarios/compare';
import type { HttpAnswer } from '../../mock/scenarios/http';

const answer = (status: number, body: unknown): HttpAnswer => ({ status, headers: {}, body });

describe('the differences of one step between two targets', () => {
  it('When only ids, times and amounts differ, then there is no difference', () => {
    const a = answer(200, {
      id: 'a1',
      createdAt: '2026-01-01T00:00:00Z',
      amount: { value: '10.00' },
      currentState: { status: 'REQUESTED' },
    });
    const b = answer(200, {
      id: 'b2',
      createdAt: '2026-05-05T10:00:00Z',
      amount: { value: '99.10' },
      currentState: { status: 'REQUESTED' },
    });
    expect(stepDifferences({ answer: a }, { answer: b })).toEqual([]);
  });

  it('When a whole object is missing on one side, then it is named once, at its top', () => {
    const a = answer(200, { id: 'a', fees: { total: { value: '1.00', asset: 'BRL' } } });
    const b = answer(200, { id: 'b' });
    expect(stepDifferences({ answer: a }, { answer: b })).toEqual([{ kind: 'field', path: 'body.fees', a: 'object', b: 'absent' }]);
  });

  it("When a list is empty on one side, then its items' fields are not compared", () => {
    const a = answer(200, { data: [{ id: 'x', status: 'CONFIRMED' }] });
    const b = answer(200, { data: [] });
    expect(stepDifferences({ answer: a }, { answer: b })).toEqual([]);
  });

  it("When the states of a list's items differ, then the state difference lists them in order", () => {
    const a = answer(200, { transactions: [{ status: 'CONFIRMED' }, { status: 'CONFIRMED' }] });
    const b = answer(200, { transactions: [{ status: 'CONFIRMED' }, { status: 'REVERSED' }] });
    expect(stepDifferences({ answer: a }, { answer: b })).toEqual([
      { kind: 'state', path: 'body.transactions[].status', a: 'CONFIRMED, CONFIRMED', b: 'CONFIRMED, REVERSED' },
    ]);
  });

  it('When the status and the error code differ, then both are named, and the reason code as a state', () => {
    const a = answer(422, { code: 'QUOTE_EXPIRED', message: 'expired' });
    const b = answer(409, { code: 'QUOTE_ALREADY_CONSUMED', message: 'used' });
    expect(stepDifferences({ answer: a }, { answer: b })).toEqual([
      { kind: 'status', path: 'status', a: '422', b: '409' },
      { kind: 'code', path: 'body.code', a: 'QUOTE_EXPIRED', b: 'QUOTE_ALREADY_CONSUMED' },
    ]);
    const failedA = answer(200, { currentState: { status: 'FAILED', reason: { code: 'INSUFFICIENT_BALANCE' } } });
    const failedB = answer(200, { currentState: { status: 'FAILED', reason: { code: 'PAYMENT_NOT_RECEIVED' } } });
    expect(stepDifferences({ answer: failedA }, { answer: failedB })).toEqual([
      { kind: 'state', path: 'body.currentState.reason.code', a: 'INSUFFICIENT_BALANCE', b: 'PAYMENT_NOT_RECEIVED' },
    ]);
  });

  it('When a receiver got other events on each side, then the events differ', () => {
    expect(
      stepDifferences({ events: ['OPERATION_REQUESTED', 'OPERATION_COMPLETED'] }, { events: ['OPERATION_REQUESTED', 'OPERATION_FAILED'] }),
    ).toEqual([
      {
        kind: 'events',
        path: 'events',
        a: '[OPERATION_REQUESTED, OPERATION_COMPLETED]',
        b: '[OPERATION_REQUESTED, OPERATION_FAILED]',
      },
    ]);
  });
});
