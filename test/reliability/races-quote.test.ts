// Races for one quote: many operations naming the same quote at once over real sockets; exactly
// one consumes it, every other one is refused with 409 QUOTE_ALREADY_CONSUMED.
import { describe, expect, it } from '@jest/globals';
import { createQuote, expectStatus, walkAll } from './support/api';
import { size } from './support/env';
import type { Operation } from '../../mock/domain/records';
import { api, funded, raceFile } from './support/races';

const QUOTE_RACERS = size('RELIABILITY_RACE_CONCURRENCY', 100);
const QUOTE_ROUNDS = size('RELIABILITY_RACE_ROUNDS', 3);

const stats = { races: 0, concurrentRequests: 0 };
raceFile('races-quote.test.ts', stats);

describe('races', () => {
  it(
    `${QUOTE_RACERS} concurrent operations naming one quote: exactly one succeeds, the others get 409 QUOTE_ALREADY_CONSUMED`,
    async () => {
      for (let round = 0; round < QUOTE_ROUNDS; round++) {
        const quote = await createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '10.00' });
        const bodies = Array.from({ length: QUOTE_RACERS }, (_, i) =>
          i % 2 === 0
            ? { path: '/v1/operations/deposits', body: { accountId: funded, quoteId: quote.id, fundingInstruction: { rail: 'PIX' } } }
            : { path: '/v1/operations/swaps', body: { accountId: funded, quoteId: quote.id } },
        );
        const answers = await Promise.all(bodies.map(({ path, body }) => api.post(path, body)));
        stats.races++;
        stats.concurrentRequests += answers.length;

        const winners = answers.filter((a) => a.status === 201);
        const losers = answers.filter((a) => a.status !== 201);
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(QUOTE_RACERS - 1);
        for (const loser of losers) {
          expect(loser.status).toBe(409);
          expect(loser.body.code).toBe('QUOTE_ALREADY_CONSUMED');
        }
        const winner = winners[0]!.body;
        const read = expectStatus(await api.get(`/v1/quotes/${quote.id}`), 200, 'read the quote').body;
        expect(read.status).toBe('CONSUMED');
        expect(read.operationId).toBe(winner.id);
        const consumers = (await walkAll<Operation>(api, '/v1/operations')).filter((op) => op.quote?.id === quote.id);
        expect(consumers.map((op) => op.id)).toEqual([winner.id]);
      }
    },
    20_000 + QUOTE_ROUNDS * QUOTE_RACERS * 20,
  );
});
