// The store's one door: everything outside mock/store/ imports from here (a dependency-cruiser
// rule keeps it so). What a store is (the Store and JobQueue interfaces), the memory store and
// queue (the default), and the Redis parts that let replicas share one state.
export type {
  BalancedUpdate,
  BalanceMove,
  IdempotencyClaim,
  IdempotencyEntry,
  Kind,
  OutboxEntry,
  OutboxOf,
  PageQuery,
  PageSlice,
  RefusedBalance,
  SortOrder,
  Store,
  StoredRecord,
  StoreState,
} from './store';
export type { ClaimedJob, JobCounts, JobQueue, JobSpec, PendingJob } from './job-queue';
export { MemoryStore } from './memory-store';
export { MemoryJobQueue } from './memory-job-queue';
export type {
  BusHandler,
  ControlState,
  RedisBus,
  RedisClient,
  RedisJobQueue,
  RedisSharedState,
  RedisStore,
  RedisStoreOptions,
} from './redis';
export { redactedUrl } from './redis/redacted-url';

/**
 * The Redis parts (store, job queue, bus, shared state), loaded on the first call: a mock without
 * REDIS_URL never loads ioredis, which would cost about a fifth of its start-up.
 */
export function redisParts(): typeof import('./redis') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- this require is what defers loading ioredis
  return require('./redis') as typeof import('./redis');
}
