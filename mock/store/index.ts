// The store's one door: everything outside mock/store/ imports from here (a dependency-cruiser
// rule keeps it so). What a store is (the Store and JobQueue interfaces), the memory store and
// queue (the default), and the Redis parts that let replicas share one state.
export type {
  BalancedUpdate,
  BalanceMove,
  IdempotencyClaim,
  IdempotencyEntry,
  Kind,
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
export { RedisStore, type RedisStoreOptions } from './redis/redis-store';
export { RedisJobQueue } from './redis/job-queue';
export { RedisBus, type BusHandler } from './redis/bus';
export { RedisSharedState, type ControlState } from './redis/shared-state';
export { connectRedis, redactedUrl, type RedisClient } from './redis/connection';
export { defineScripts } from './redis/scripts';
