// The app factory: wires the document, the store, the clock and the services into a request
// listener (the service front door) and the Express app behind it. It reads no environment and
// listens on nothing (main does), so tests start it on port 0.
import { randomUUID } from 'node:crypto';
import { promises as dns } from 'node:dns';
import type { RequestListener } from 'node:http';
import express from 'express';
import type { Logger } from 'pino';
import { loadContract, type Contract } from '../spec/contract';
import type { DemoFixtures } from '../fixtures/types';
import { createClock, type ControllableClock } from './clock';
import { defaultConfig, randomSecret, type Config, type ResolvedConfig } from './config';
import { localCluster, sharedCluster, type Cluster } from './cluster/cluster';
import { controlContract } from './control/contract';
import { docsRouter, findRenderer } from './control/docs';
import { controlSection, isControlPath } from './http/control-path';
import { localOnly } from './http/local-only';
import { faultMiddleware } from './http/fault-middleware';
import { FaultRegistry } from './http/faults';
import { controlHandlers } from './control/handlers';
import type { ControlContext } from './control/context';
import { openStateFile } from './control/state-file';
import { StateFileWriter } from './control/state-file-writer';
import { lockStateFile, type StateFileLock } from './control/state-file-lock';
import { takeSnapshot } from './control/snapshot';
import { Journal, JOURNAL_SIZE } from './http/journal';
import { createLogger, requestLog } from './http/logging';
import { controlRouter } from './control/router';
import { inspectorRouter } from './inspector/page';
import { CursorCodec } from './domain/pagination/cursor';
import { connectRefused, type HostLookup } from './domain/url-policy';
import { EventBus } from './events/event-bus';
import { EventOutbox } from './events/outbox';
import { LIVE_TOPICS, LiveFeed } from './events/live-feed';
import { liveStreams } from './control/live';
import { recordOperationTimelines } from './services/operation-timeline';
import { checkFixtures, fixtureProblems } from './services/fixture-checks';
import { FixtureSource, loadFixtures, readFixtures, referenceData } from './services/fixtures';
import { errorHandler } from './http/error-handler';
import { RateLimiter } from './http/rate-limit';
import { requestId } from './http/request-id';
import { ResponseEncoder } from './http/response-encoder';
import { assertHandlersMatchDocument, RouteTable } from './http/route-table';
import { serviceListener } from './http/service-listener';
import { unmatchedRoute } from './http/unmatched-route';
import { routeHandlers, type ServiceHandlers } from './resources/types';
import { handlers as defaultHandlers } from './resources/handlers';
import { CustomerClocks } from './jobs/customer-clocks';
import { Scheduler } from './jobs/scheduler';
import type { Deps } from './services/deps';
import { createServices, type Services } from './services';
import { MemoryJobQueue, MemoryStore, redisParts, type RedisSharedState, type RedisStore, type Store } from './store';
import { httpDelivery, type Deliver, type HttpDelivery } from './webhooks/deliver';
import { connectLookup } from './webhooks/connect-lookup';
import { WebhookDispatcher } from './webhooks/dispatcher';

/** The control API's reads of what the inspector shows (tag Inspector), and the page itself. */
const LOOK_ONLY: ReadonlySet<string | undefined> = new Set(['journal', 'state', 'deliveries', 'jobs', 'live', 'inspector']);

export interface AppOptions {
  config?: Partial<Config>;
  contract?: Contract;
  store?: Store;
  clock?: ControllableClock;
  logger?: Logger;
  /** Fixture data; by default the file named by config.fixturesPath. */
  fixtures?: DemoFixtures;
  handlers?: ServiceHandlers;
  /** Replaces the HTTP delivery of webhooks (tests of the dispatcher). */
  deliver?: Deliver;
  /** The compiled control document (spec/control-openapi.yaml) when the control API is on. */
  controlContract?: Contract;
  /** Decides fault `percent` and draws latencies from a range; Math.random by default. */
  random?: () => number;
  /** The /docs renderer's bundle; found in node_modules by default (undefined: /docs answers 501). */
  docsRenderer?: string | null;
  /** Resolves subscription host names (URL policies, and the deliveries' connections); the system resolver by default. */
  lookup?: HostLookup;
  /** Load the validators `npm run build` generated instead of compiling them (spec/contract/standalone.ts); `serve` sets it. */
  precompiled?: boolean;
}

export interface MockApp {
  /** The request listener: documented service operations at the front door, the rest through Express (control API, /docs, 404 and 405). */
  app: RequestListener;
  deps: Deps;
  services: Services;
  contract: Contract;
  logger: Logger;
  /** Faults injected into the service routes (control API). */
  faults: FaultRegistry;
  /** The last requests answered (control API). */
  journal: Journal;
  /** Every replica of this mock: this process alone in memory, all replicas on the same Redis. */
  cluster: Cluster;
  /** STATE_FILE: the file the state is kept in, and whether start-up loaded it (else it was written from the fixtures). */
  stateFile?: { path: string; loaded: boolean };
  /** The fixtures loaded now: read again from their file by every reset. */
  readonly fixtures: DemoFixtures;
  /** What changed, for the push channel (GET /_mock/live): a listener here is an inspector page open. */
  live: LiveFeed;
  /** Ends the open push streams (GET /_mock/live, an inspector page), so the HTTP server can close: call it before server.close(). */
  endStreams(): void;
  /** Stops timers and listeners and closes the webhook connections (and the Redis connections it opened); the state is left as it is. */
  close(): Promise<void>;
}

export async function createApp(options: AppOptions = {}): Promise<MockApp> {
  const given: Config = { ...defaultConfig(), ...options.config };
  const logger = options.logger ?? createLogger(given);
  // STATE_FILE: this mock's alone from here to close(); a file another mock holds stops start-up.
  const lock = given.stateFile ? await lockStateFile(given.stateFile, { logger }) : undefined;
  // REDIS_URL: the records in a Redis store, and clock, faults, journal, buckets and secret beside them.
  const redis = options.store === undefined && given.redisUrl ? await openRedis(given.redisUrl, given.redisPrefix) : undefined;
  try {
    return await assemble(options, given, logger, redis, lock);
  } catch (error) {
    await redis?.store.close();
    await lock?.release();
    throw error;
  }
}

interface RedisParts {
  url: string;
  store: RedisStore;
  shared: RedisSharedState;
  /** The Redis module's classes (loaded only for a mock on Redis). */
  classes: ReturnType<typeof redisParts>;
}

async function openRedis(url: string, prefix: string): Promise<RedisParts> {
  const classes = redisParts();
  const store = await classes.RedisStore.open({ url, prefix });
  return { url, store, shared: new classes.RedisSharedState(store.client, prefix), classes };
}

async function assemble(
  options: AppOptions,
  given: Config,
  logger: Logger,
  redis: RedisParts | undefined,
  lock: StateFileLock | undefined,
): Promise<MockApp> {
  const secret = given.secret ?? (redis ? await redis.shared.secret(randomSecret()) : randomSecret());
  const config: ResolvedConfig = { ...given, secret };
  const contract = options.contract ?? loadContract(undefined, { precompiled: options.precompiled });
  const handlers = routeHandlers(options.handlers ?? defaultHandlers);
  assertHandlersMatchDocument(contract, handlers);

  const clock = options.clock ?? createClock({ start: config.clockStart ? Date.parse(config.clockStart) : undefined });
  const store = options.store ?? redis?.store ?? new MemoryStore();
  const initial = options.fixtures ?? readFixtures(config.fixturesPath);
  // Checked before any of it is stored: a bad file stops start-up naming each bad entry.
  const checkSchema = (name: string, value: unknown) => contract.checkSchema(name, value);
  checkFixtures(initial, checkSchema, options.fixtures ? '(given to createApp)' : config.fixturesPath);
  await store.seedOnce(() => loadFixtures(store, initial));
  // The rates and asset scales the services compute with follow the fixtures a reset reloads.
  const reference = referenceData(initial);
  const fixtures = new FixtureSource(
    initial,
    options.fixtures ? undefined : config.fixturesPath,
    (next) => fixtureProblems(next, checkSchema),
    (next) => Object.assign(reference, referenceData(next)),
  );

  // Jobs kept where the state is: on Redis every replica claims from one queue (a customer's own
  // clock has a namespace of its own in it).
  const queueFor = (namespace = '') =>
    redis ? new redis.classes.RedisJobQueue(redis.store.client, config.redisPrefix, config.jobLeaseMs, namespace) : new MemoryJobQueue();
  const onJobError = (error: unknown) => logger.error({ err: error }, 'scheduled job failed');
  const scheduler = new Scheduler(clock, queueFor(), onJobError, { leaseMs: config.jobLeaseMs });
  const clocks = new CustomerClocks({
    store,
    clock,
    scheduler,
    queueFor: (customerId) => queueFor(`c:${customerId}:`),
    onError: onJobError,
    options: { leaseMs: config.jobLeaseMs },
  });
  const events = new EventBus();
  const onOutboxError = (error: unknown) => logger.error({ err: error }, 'event not published; a relay publishes it after the lease');
  const outbox = new EventOutbox({ store, bus: events, newId: randomUUID, leaseMs: config.jobLeaseMs, onError: onOutboxError });
  const deps: Deps = {
    store,
    clock,
    clocks,
    config,
    codec: new CursorCodec(config.secret),
    events,
    outbox,
    scheduler,
    reference,
    newId: randomUUID,
    lookup: options.lookup ?? ((hostname) => dns.lookup(hostname, { all: true })),
  };
  // Connections resolve with the app's resolver, refusing what the URL policy refuses (DNS rebinding).
  const connectionLookup = connectLookup(deps.lookup, (address) => connectRefused(address, config.urlPolicy));
  // A replaced delivery (tests of the dispatcher) holds no connections of ours to close.
  const delivery: HttpDelivery = options.deliver
    ? { send: options.deliver, close: () => Promise.resolve() }
    : httpDelivery(connectionLookup);
  // STATE_FILE: the state written after every change (any request that is not a read, any job's
  // event, any delivery attempt), from the snapshot of the control context made below (taken
  // only once the app is assembled).
  const stateWriter = config.stateFile
    ? new StateFileWriter(config.stateFile, {
        take: () => takeSnapshot(context as ControlContext),
        onWritten: (path, bytes) => logger.debug({ path, bytes }, 'state written'),
        onError: (error) => logger.error({ err: error, path: config.stateFile }, 'state not written'),
        lock,
      })
    : undefined;
  const changed = () => stateWriter?.changed();
  // What changed, for the inspector's push channel (GET /_mock/live).
  const feed = new LiveFeed();
  const base = createServices(deps);
  const stopTimelines = recordOperationTimelines(deps, (error) => logger.warn({ err: error }, 'operation timeline not recorded'));
  const stopStateNotices = deps.events.subscribe(() => {
    feed.notify('state', 'jobs');
    changed();
  });
  const webhooks = new WebhookDispatcher(
    {
      ...deps,
      send: delivery.send,
      refusal: (url) => base.subscriptions.deliveryRefusal(url),
      attempted: () => {
        feed.notify('deliveries', 'jobs');
        changed();
      },
    },
    contract,
    logger,
  );
  const services: Services = { ...base, webhooks };
  const faults = new FaultRegistry(randomUUID, () => clock.nowIso(), options.random, redis?.shared);
  if (redis) redis.shared.onJournalLost = (error) => logger.warn({ err: error }, 'journal entries not recorded');
  const journal = new Journal(JOURNAL_SIZE, redis?.shared);
  // A service request is news for the requests view; a control call that is not a read may have
  // changed anything. The inspector's own reads (GETs under /_mock) are no news: they would echo.
  // Each recorded request is a line of the log (at info).
  const logRequest = requestLog(logger);
  journal.onRecord = (entry) => {
    logRequest?.(entry);
    if (entry.method !== 'GET' && entry.method !== 'HEAD') changed();
    if (!isControlPath(entry.path)) feed.notify('requests');
    else if (entry.method !== 'GET') feed.notify(...LIVE_TOPICS);
  };
  const parts = {
    clock,
    clocks,
    fixtures,
    faults,
    journal,
    scheduler: deps.scheduler,
    webhooks,
    onError: (error: unknown) => logger.warn({ err: error }, 'cannot read the shared control state'),
    heal: redis
      ? async () => {
          await redis.shared.secret(config.secret);
          await store.seedOnce(() => loadFixtures(store, fixtures.current));
        }
      : undefined,
  };
  const cluster = redis
    ? await sharedCluster(parts, redis.shared, async (handle) => {
        const bus = await redis.classes.RedisBus.open({
          url: redis.url,
          prefix: config.redisPrefix,
          publisher: redis.store.client,
          handle,
          onLive: (topics) => feed.receive(topics),
          onWatching: () => feed.receiveWatching(),
          onError: (error) => logger.error({ err: error }, 'cluster message failed'),
        });
        // Every replica's changes reach every replica's push channel, and each knows when a page is open on another.
        feed.relay = (topics) => bus.publishLive(topics);
        feed.relayWatching = () => bus.publishWatching();
        return bus;
      })
    : localCluster(parts);
  const routeDeps = { services, store, clock, clocks, config, logger, encoder: new ResponseEncoder() };
  // The rate limit (off by default) acts on the service routes only, never on /_mock.
  const serviceRouteDeps = {
    ...routeDeps,
    rateLimiter: config.rateLimit ? new RateLimiter(config.rateLimit, clock, redis?.shared) : undefined,
  };

  const live = liveStreams(feed);
  const routes = new RouteTable(contract.operations.map((op) => ({ op, target: handlers[op.operationId]! })));
  const app = express();
  app.disable('x-powered-by');
  // Responses are built per request; hashing them for an ETag is wasted work.
  app.set('etag', false);
  app.use(requestId);
  // Looking does not change what is looked at: reads of the journal, the state, the deliveries,
  // the jobs, the push stream and the inspector page itself are not journaled (an open inspector
  // would otherwise fill the journal with its own reads).
  const recordRequest = journal.middleware(clock);
  app.use((req: express.Request, res: express.Response, next: express.NextFunction) =>
    (req.method === 'GET' || req.method === 'HEAD') && LOOK_ONLY.has(controlSection(req.path)) ? next() : recordRequest(req, res, next),
  );
  // A replica that has lost Redis answers 503 to everything, rather than a state it cannot vouch for.
  if (redis) {
    app.use((_req: express.Request, _res: express.Response, next: express.NextFunction) => {
      cluster.assertAvailable();
      next();
    });
  }
  app.use(
    docsRouter({
      controlApi: config.controlApi,
      renderer: options.docsRenderer === undefined ? findRenderer() : (options.docsRenderer ?? undefined),
    }),
  );
  // The control API's context; the state file imports and exports through it too.
  const control = config.controlApi || stateWriter ? (options.controlContract ?? controlContract(options.precompiled)) : undefined;
  const context: ControlContext | undefined = control && {
    deps,
    services,
    publicContract: contract,
    controlContract: control,
    fixtures,
    faults,
    journal,
    logger,
    cluster,
  };
  if (config.controlApi && control && context) {
    // Off: /_mock is not mounted, so every path under it is 404 ROUTE_NOT_FOUND like any unknown path.
    const table = routeHandlers(controlHandlers(context));
    const streams = { streamChanges: live.handler };
    assertHandlersMatchDocument(control, { ...table, ...streams });
    // Only the machine it is meant for: its Host, and the site a change comes from (local-only.ts).
    app.use(localOnly({ listenHost: config.host, allowedHosts: config.allowedHosts }));
    // The inspector page and its assets, before the control router's 404 for unknown /_mock paths.
    app.use(inspectorRouter());
    app.use(controlRouter(control, table, routeDeps, contract, streams));
  }
  // Faults act on the service routes only (the control router above answers /_mock itself);
  // the documented operations are answered by the front door, this covers the other paths.
  app.use(faultMiddleware(faults, logger, services.tokens));
  app.use(unmatchedRoute(routes));
  app.use(errorHandler(logger));

  const listener = serviceListener({
    routes,
    deps: serviceRouteDeps,
    faults,
    journal,
    clock,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    fallback: app,
    assertAvailable: redis ? () => cluster.assertAvailable() : undefined,
  });

  const stateFile = stateWriter && { path: stateWriter.path, loaded: await openStateFile(context as ControlContext, stateWriter) };
  // Events a replica left unpublished (it died between a write and its publication): a relay round every quarter lease.
  outbox.start(Math.max(10, config.jobLeaseMs / 4));

  return {
    app: listener,
    stateFile,
    deps,
    services,
    contract,
    logger,
    faults,
    journal,
    cluster,
    get fixtures() {
      return fixtures.current;
    },
    live: feed,
    endStreams: () => live.close(),
    async close() {
      live.close();
      feed.close();
      stopTimelines();
      stopStateNotices();
      await outbox.stop();
      deps.scheduler.stop();
      clocks.stop();
      services.webhooks.close();
      // The last state, once no job can change it any more.
      await stateWriter?.close().catch((error: unknown) => logger.error({ err: error, path: stateWriter.path }, 'state not written'));
      await lock?.release();
      await delivery.close();
      await journal.flush().catch(() => undefined);
      await cluster.close();
      await redis?.store.close();
    },
  };
}
