// Webhook subscriptions (seed: create body rules; ours, in the OpenAPI document: list/get/update/delete) and the
// execution-log listing with the `filters` grammar.
import { randomBytes } from 'node:crypto';
import { ServiceError } from '../errors/catalogue';
import { EXECUTION_LOG_FIELDS, FilterSyntaxError, matchesFilter, parseFilter, type FilterNode } from '../domain/filters';
import { RESOURCE_EVENTS, RESOURCE_NAMES } from '../domain/event-catalogue';
import { readPage, type PageParams } from '../domain/pagination/page';
import type { ExecutionLog, Schemas, Subscription, SubscriptionRecord } from '../domain/records';
import { RESOLVES_TO_NEVER, resolutionNeeded, resolvedProblem, urlProblem, type ResolvedAddress } from '../domain/url-policy';
import type { Deps } from './deps';
import { ownSubscription } from './ownership';

type SubscriptionCreate = Schemas['SubscriptionCreate'];
type SubscriptionUpdate = Schemas['SubscriptionUpdate'];
type SubscriptionResource = Schemas['SubscriptionResource'];

export class SubscriptionService {
  constructor(private readonly deps: Deps) {}

  async create(customerId: string, body: SubscriptionCreate): Promise<Subscription> {
    const { store, clocks, newId } = this.deps;
    const clock = await clocks.clockOf(customerId);
    await this.checkUrl(body.url);
    const includeAll = body.includeAll === true;
    // Seed: "when true the subscription covers every resource and event type and `resources` is ignored".
    const resources = includeAll ? everything() : checkedResources(body.resources ?? []);
    const at = clock.nowIso();
    const subscription: Subscription = {
      id: newId(),
      companyId: customerId,
      url: body.url,
      resources,
      allowRetry: body.allowRetry === true,
      createdAt: at,
      updatedAt: at,
    };
    const record: SubscriptionRecord = { subscription, includeAll, signingSecret: `whsec_${randomBytes(24).toString('base64')}` };
    await store.insert('subscription', customerId, subscription.id, record);
    return this.present(record);
  }

  list(customerId: string, params: PageParams) {
    const { store, codec } = this.deps;
    return readPage(
      codec,
      `subscription:${customerId}`,
      params,
      (q) => store.page('subscription', { scope: customerId, ...q }),
      (r) => this.present(r),
    );
  }

  async get(customerId: string, subscriptionId: string): Promise<Subscription> {
    return this.present(await ownSubscription(this.deps.store, customerId, subscriptionId));
  }

  async update(customerId: string, subscriptionId: string, body: SubscriptionUpdate): Promise<Subscription> {
    const { store, clocks } = this.deps;
    const clock = await clocks.clockOf(customerId);
    await ownSubscription(store, customerId, subscriptionId);
    if (body.url !== undefined) await this.checkUrl(body.url);
    const resources = body.includeAll === true ? everything() : body.resources !== undefined ? checkedResources(body.resources) : undefined;
    const updated = (await store.update('subscription', subscriptionId, (current): SubscriptionRecord => {
      const includeAll =
        body.includeAll === true ? true : body.resources !== undefined ? false : body.includeAll === false ? false : current.includeAll;
      const subscription: Subscription = {
        ...current.subscription,
        url: body.url ?? current.subscription.url,
        allowRetry: body.allowRetry ?? current.subscription.allowRetry,
        resources: resources ?? current.subscription.resources,
        updatedAt: clock.nowIso(),
      };
      return { ...current, subscription, includeAll };
    })) as SubscriptionRecord;
    return this.present(updated);
  }

  async remove(customerId: string, subscriptionId: string): Promise<void> {
    await ownSubscription(this.deps.store, customerId, subscriptionId);
    await this.deps.store.remove('subscription', subscriptionId);
  }

  async listLogs(customerId: string, subscriptionId: string, params: PageParams & { filters?: string }) {
    const { store, codec } = this.deps;
    await ownSubscription(store, customerId, subscriptionId);
    // An empty `filters` never gets here: the document's minLength 1 refuses it.
    const filter = params.filters === undefined ? undefined : parseLogFilter(params.filters);
    const where = filter ? (log: ExecutionLog) => matchesFilter(filter, log) : undefined;
    return readPage(
      codec,
      `executionLog:${subscriptionId}`,
      params,
      (q) => store.page('executionLog', { scope: subscriptionId, where, ...q }),
      (r) => r,
    );
  }

  async getLog(
    customerId: string,
    subscriptionId: string,
    logId: string,
  ): Promise<{ subscription: SubscriptionRecord; log: ExecutionLog }> {
    const subscription = await ownSubscription(this.deps.store, customerId, subscriptionId);
    const log = await this.deps.store.get('executionLog', logId);
    if (!log || log.subscriptionId !== subscriptionId) {
      throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'executionLog', id: logId }, `No execution log with id ${logId}.`);
    }
    return { subscription, log };
  }

  /** The subscription as returned: with its signing secret only when signing is on. */
  present(record: SubscriptionRecord): Subscription {
    return this.deps.config.webhookSigning ? { ...record.subscription, signingSecret: record.signingSecret } : record.subscription;
  }

  /**
   * Why a delivery to the URL must not be attempted now, or undefined to go ahead: a host name is
   * resolved again before every attempt, so a name that has come to point elsewhere since the
   * subscription was made (DNS rebinding) is refused: under every policy to a link-local,
   * unspecified or metadata address, under production to a non-public one, under development
   * plain HTTP to a public one. A URL the policy refuses outright (a subscription restored from a
   * snapshot of a mock with another policy) is refused too. An HTTPS name under development is
   * judged by the delivery's connection as it resolves it (webhooks/connect-lookup.ts): one look-up
   * an attempt, where DNS may take a second to say a name is unknown.
   */
  async deliveryRefusal(url: string): Promise<string | undefined> {
    const policy = this.deps.config.urlPolicy;
    const problem = urlProblem(url, policy);
    if (problem) return `refused: the URL ${problem}`;
    const resolution = resolutionNeeded(url, policy);
    if (resolution === undefined) return undefined;
    const addresses = await this.resolve(resolution.host);
    if (addresses === undefined) return 'host not found';
    const resolved = resolvedProblem(addresses, resolution.must);
    if (resolved === undefined) return undefined;
    if (resolved === RESOLVES_TO_NEVER) return 'refused: the URL resolves to a link-local, unspecified or cloud metadata address';
    return resolution.must === 'public'
      ? 'refused: the URL resolves to a non-public address'
      : 'refused: plain HTTP to a URL that resolves to a public address (accepted only for loopback and private receivers)';
  }

  private async checkUrl(url: string): Promise<void> {
    const policy = this.deps.config.urlPolicy;
    let problem = urlProblem(url, policy);
    const resolution = problem ? undefined : resolutionNeeded(url, policy);
    if (resolution !== undefined) problem = resolvedProblem(await this.resolve(resolution.host), resolution.must);
    if (problem) throw new ServiceError('VALIDATION_ERROR', { fields: [{ field: 'body.url', message: problem }] });
  }

  /** All the addresses of a host name; undefined when it has none or cannot be resolved. */
  private async resolve(host: string): Promise<ResolvedAddress[] | undefined> {
    try {
      const addresses = await this.deps.lookup(host);
      return addresses.length > 0 ? addresses : undefined;
      // Stryker disable next-line BlockStatement: an emptied catch returns undefined as well
    } catch {
      return undefined;
    }
  }
}

function everything(): SubscriptionResource[] {
  return RESOURCE_NAMES.map((name) => ({ name, events: [...RESOURCE_EVENTS[name]] }));
}

/** Seed: resource names unique; ours: each event must belong to the resource it is listed under. */
function checkedResources(resources: SubscriptionResource[]): SubscriptionResource[] {
  const fields: Array<{ field: string; message: string }> = [];
  const seen = new Set<string>();
  resources.forEach((resource, i) => {
    if (seen.has(resource.name))
      fields.push({ field: `body.resources.${i}.name`, message: `${resource.name} is listed twice; resource names must be unique` });
    seen.add(resource.name);
    resource.events.forEach((event, j) => {
      if (!RESOURCE_EVENTS[resource.name].includes(event)) {
        fields.push({
          field: `body.resources.${i}.events.${j}`,
          message: `${event} is not an event of ${resource.name} (${RESOURCE_EVENTS[resource.name].join(', ')})`,
        });
      }
    });
  });
  if (fields.length > 0) throw new ServiceError('VALIDATION_ERROR', { fields });
  return resources.map((r) => ({ name: r.name, events: [...new Set(r.events)] }));
}

function parseLogFilter(text: string): FilterNode {
  try {
    return parseFilter(text, EXECUTION_LOG_FIELDS);
  } catch (error) {
    // The filter parser throws only FilterSyntaxError; the rethrow guards a future other error.
    // Stryker disable next-line ConditionalExpression: equivalent, see above
    if (error instanceof FilterSyntaxError) throw new ServiceError('INVALID_FILTER', { position: error.position, reason: error.message });
    throw error;
  }
}
