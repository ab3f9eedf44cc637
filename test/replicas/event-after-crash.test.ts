// A write and the event it causes survive a crash together (the outbox): a replica killed right
// after it stored a deposit, before it could publish OPERATION_REQUESTED, leaves the event in the
// outbox, and the replica still alive delivers it once its lease has passed. The victim loads a
// hook (support/die-after-operation-write.ts) that SIGKILLs it the moment its first operation
// is stored.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { projectPath } from '../../spec/project-root';
import { describeWithRedis } from '../support/redis-suite';
import { serviceClient, startReplicas, type Replicas, type ServiceClient } from '../support/replicas';
import { until } from '../support/waits';

const START_MS = 300_000;
const VICTIM = 0;

describeWithRedis('a replica killed between storing a deposit and publishing its event', (redis) => {
  let replicas: Replicas;
  let receiver: Receiver;
  let victim: ServiceClient;
  let survivor: ServiceClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    replicas = await startReplicas(2, {
      redisUrl: redis().url,
      // A short lease: the survivor relays what the victim left after 1 s of real time.
      env: { JOB_LEASE_MS: '1000', AUTO_SETTLE_MS: 'off' },
      importsFor: (i) => (i === VICTIM ? [projectPath('test', 'replicas', 'support', 'die-after-operation-write.ts')] : []),
    });
    [victim, survivor] = replicas.urls.map((url) => serviceClient(url)) as [ServiceClient, ServiceClient];
  }, START_MS);

  afterAll(async () => {
    victim?.close();
    survivor?.close();
    await replicas?.stopAll();
    await receiver?.close();
  }, START_MS);

  it('the deposit is stored, and its OPERATION_REQUESTED is delivered once by the replica still alive', async () => {
    const customer = await survivor.customer();
    const onSurvivor = survivor.as(await survivor.token(customer.clientId, customer.clientSecret));
    const subscription = await onSurvivor.post('/api/subscriptions', {
      url: receiver.url,
      allowRetry: true,
      resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }],
    });
    expect(subscription.status).toBe(201);
    const accountId = customer.accounts[0];
    const quote = await onSurvivor.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '12.34' });
    expect(quote.status).toBe(201);

    const onVictim = victim.as(await victim.token(customer.clientId, customer.clientSecret));
    const deposit = { accountId, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } };
    // The victim dies with the request unanswered.
    await expect(onVictim.post('/v1/operations/deposits', deposit)).rejects.toThrow();
    await until(
      'the victim to have exited',
      () => replicas.running(VICTIM),
      (running) => !running,
    );

    const listed = await onSurvivor.get('/v1/operations');
    expect(listed.status).toBe(200);
    const stored = listed.body.data as Array<{ id: string; currentState: { status: string } }>;
    expect(stored.map((op) => op.currentState.status)).toEqual(['REQUESTED']);
    const operationId = stored[0]!.id;

    const requested = () =>
      receiver.received.filter((d) => d.headers['x-event-type'] === 'OPERATION_REQUESTED' && JSON.parse(d.body).data.id === operationId);
    await until('OPERATION_REQUESTED of the stored deposit to arrive', requested, (found) => found.length > 0);
    await survivor.control('POST', '/webhooks/idle');
    expect(requested()).toHaveLength(1);
  });
});
