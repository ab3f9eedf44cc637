// `fos-mock trigger <EVENT>`: makes one webhook event happen for a customer (demo-client by
// default), like `stripe trigger`, then waits until its deliveries were attempted and says
// which of the customer's subscriptions listen for it.
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

async function listeners(actor: Actor, event: string): Promise<Subscription[]> {
  const answer = await actor.client.send('GET', '/v1/subscriptions?limit=100', { headers: { authorization: `Bearer ${actor.token}` } });
  if (answer.status !== 200) return [];
  const subscriptions = (answer.body as { data: Subscription[] }).data;
  return subscriptions.filter((s) => s.includeAll || s.resources?.some((r) => r.events.includes(event)));
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
        const done = await trigger(event, actor);
        if (control) await actor.mock('POST', '/webhooks/idle', 200);
        out(`Trigger succeeded: ${event} for ${done.subject}.`);
        for (const note of done.notes ?? []) out(note);
        if (event !== 'ACCOUNT_CREATED' && !done.notes) {
          const subscribed = await listeners(actor, event);
          out(
            subscribed.length === 0
              ? `No subscription of ${flags.clientId} listens for ${event}: subscribe an endpoint (POST /api/subscriptions) to receive it.`
              : `Sent to ${subscribed.length} subscription${subscribed.length === 1 ? '' : 's'} of ${flags.clientId}: ` +
                  `${subscribed.map((s) => s.url).join(', ')} (GET /v1/subscriptions/{id}/executionLogs shows how each attempt went).`,
          );
        }
      } finally {
        await client.close();
      }
    }),
  );
}
