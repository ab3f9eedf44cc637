// sliceSorted over a fixed sorted array: the first page in either order, NEXT and PREVIOUS from a
// key, last and short pages, a cursor past the end, an empty list, and a slot filter.
import { describe, expect, it } from '@jest/globals';
import { arrayKeys, sliceSorted } from '../../../mock/shared';

describe('slicing a fixed sorted list', () => {
  const five = arrayKeys(5); // keys 1..5 at slots 0..4

  it('the first ascending page starts at the smallest key and knows more follow', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING' })).toEqual({ slots: [0, 1], hasBefore: false, hasAfter: true });
  });

  it('the first descending page starts at the largest key', () => {
    expect(sliceSorted(five, { limit: 2, order: 'DESCENDING' })).toEqual({ slots: [4, 3], hasBefore: false, hasAfter: true });
  });

  it('NEXT from a key starts strictly after it, along the order', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING', from: { key: 2, direction: 'NEXT' } })).toEqual({
      slots: [2, 3],
      hasBefore: true,
      hasAfter: true,
    });
    expect(sliceSorted(five, { limit: 2, order: 'DESCENDING', from: { key: 4, direction: 'NEXT' } })).toEqual({
      slots: [2, 1],
      hasBefore: true,
      hasAfter: true,
    });
  });

  it('PREVIOUS from a key returns the items just before it, still in page order', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING', from: { key: 4, direction: 'PREVIOUS' } })).toEqual({
      slots: [1, 2],
      hasBefore: true,
      hasAfter: true,
    });
    expect(sliceSorted(five, { limit: 2, order: 'DESCENDING', from: { key: 2, direction: 'PREVIOUS' } })).toEqual({
      slots: [3, 2],
      hasBefore: true,
      hasAfter: true,
    });
  });

  it('the last page knows nothing follows', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING', from: { key: 3, direction: 'NEXT' } })).toEqual({
      slots: [3, 4],
      hasBefore: true,
      hasAfter: false,
    });
  });

  it('a short last page holds what is left', () => {
    expect(sliceSorted(five, { limit: 3, order: 'DESCENDING', from: { key: 3, direction: 'NEXT' } })).toEqual({
      slots: [1, 0],
      hasBefore: true,
      hasAfter: false,
    });
  });

  it('a cursor past the end gives an empty page that can still go back', () => {
    expect(sliceSorted(five, { limit: 2, order: 'ASCENDING', from: { key: 5, direction: 'NEXT' } })).toEqual({
      slots: [],
      hasBefore: true,
      hasAfter: false,
    });
  });

  it('an empty list gives an empty page with nothing before or after', () => {
    expect(sliceSorted(arrayKeys(0), { limit: 10, order: 'DESCENDING' })).toEqual({ slots: [], hasBefore: false, hasAfter: false });
  });

  it('a filter skips items and is taken into account for hasBefore and hasAfter', () => {
    const even = (slot: number) => (slot + 1) % 2 === 0; // keys 2 and 4
    expect(sliceSorted(five, { limit: 1, order: 'ASCENDING', matchesSlot: even })).toEqual({
      slots: [1],
      hasBefore: false,
      hasAfter: true,
    });
    expect(sliceSorted(five, { limit: 1, order: 'ASCENDING', from: { key: 2, direction: 'NEXT' }, matchesSlot: even })).toEqual({
      slots: [3],
      hasBefore: true,
      hasAfter: false,
    });
  });
});
