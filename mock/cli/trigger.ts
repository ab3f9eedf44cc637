// `fos-mock trigger <EVENT>`: makes one webhook event happen for a customer (demo-client by
// default), like `stripe trigger`, then waits until its deliveries were attempted. It says first
// when no subscription of the customer listens for the event, and after which ones received it.
import type { Command } from 'commander';
import { controlOff, UserError } from '../scenarios/errors';
import { MockClient } from '../scenarios/http';
import { DEMO_CREDENTIALS } from '../scenarios/setup';
import { guarded, out, targetUrl, withUrlOption, type Env } from './target';
import { Actor, EVENT_TYPES, trigger, WITHOUT_CONTROL, type TriggerEvent } from './trigger-recipes';

interface Subscription {
  id: string;
  url: string;
  includeAll?: boolean;
  resources?: Array<{ name: string; events: string[] }>;
}

/** The customer's subscriptions that receive the event, every page of them; undefined when they cannot be listed. */
async function listeners(actor: Actor, event: string): Promise<Subscription[] | undefined> {
  const found: Subscription[] = [];
  let cursor: string | null | undefined;
  do {
    const query = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await actor.client.send('GET', `/v1/subscriptions?${query}`, { headers: { authorization: `Bearer ${actor.token}` } });
    if (answer.status !== 200) return undefined;
    const page = answer.body as { data: Subscription[]; meta?: { nextCursor?: string | null } };
    found.push(...page.data.filter((s) => s.includeAll || s.resources?.some((r) => r.events.includes(event))));
    cursor = page.meta?.nextCursor;
  } while (cursor);
  return found;
}

export function registerTriggerCommand(cli: Command, env: Env): void {
  withUrlOption(
    cli
      .command('trigger')
      .summary('make a webhook event happen for a customer (like `stripe trigger`)')
      .description(
        'make a webhook event happen for a customer, through the service and control APIs, so its subscribed endpoints receive it ' +
          `(like \`stripe trigger\`). Events: ${EVENT_TYPES.join(', ')}. ` +
          'ACCOUNT_CREATED (and ACCOUNT_ASSET_* once the customer has no ONBOARDING asset left) needs a fresh customer: ' +
          'one is made and its credentials printed.',
      )
      .argument('<event>', 'the event type, e.g. OPERATION_COMPLETED')
      .option('--client-id <id>', "the customer's client id", DEMO_CREDENTIALS.clientId)
      .option('--client-secret <secret>', "the customer's client secret", DEMO_CREDENTIALS.clientSecret),
  ).action(async (name: string, flags: { url?: string; clientId: string; clientSecret: string }) =>
    guarded(async () => {
      const event = name.toUpperCase() as TriggerEvent;
      if (!EVENT_TYPES.includes(event)) throw new UserError(`unknown event "${name}"; one of: ${EVENT_TYPES.join(', ')}`);
      const client = new MockClient(targetUrl(flags.url, env));
      try {
        const control = await client.hasControlApi();
        if (!control && !WITHOUT_CONTROL.has(event)) throw controlOff(client.baseUrl);
        out(`Triggering ${event} for ${flags.clientId} at ${client.baseUrl}`);
        const actor = await Actor.login(client, { clientId: flags.clientId, clientSecret: flags.clientSecret }, control, out);
        // Said before anything happens: the event is made all the same, and nobody receives it.
        const subscribed = event === 'ACCOUNT_CREATED' ? [] : await listeners(actor, event);
        if (subscribed === undefined)
          out(`The subscriptions of ${flags.clientId} could not be listed: who receives ${event} is not known.`);
        else if (subscribed.length === 0 && event !== 'ACCOUNT_CREATED')
          out(
            `No subscription of ${flags.clientId} listens for ${event}: it will happen, but nothing will be delivered. ` +
              'Subscribe an endpoint (POST /api/subscriptions) to receive it.',
          );
        const done = await trigger(event, actor);
        if (control) await actor.mock('POST', '/webhooks/idle', 200);
        out(`Trigger succeeded: ${event} for ${done.subject}.`);
        for (const note of done.notes ?? []) out(note);
        if (done.freshCustomer)
          out(
            `No subscription received ${event}, nothing was delivered: ` +
              `it happened for the fresh customer ${done.freshCustomer}, which has none yet.`,
          );
        else if (subscribed?.length)
          out(
            `Sent to ${subscribed.length} subscription${subscribed.length === 1 ? '' : 's'} of ${flags.clientId}: ` +
              `${subscribed.map((s) => s.url).join(', ')} (GET /v1/subscriptions/{id}/executionLogs shows how each attempt went).`,
          );
      } finally {
        await client.close();
      }
    }),
  );
}
