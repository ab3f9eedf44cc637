// The Redis parts as one module. mock/store/index.ts loads it on first use (`redisParts()`), so a
// mock without REDIS_URL never loads ioredis (about a fifth of `serve`'s start-up).
export { RedisStore, type RedisStoreOptions } from './redis-store';
export { RedisJobQueue } from './job-queue';
export { RedisBus, type BusHandler } from './bus';
export { RedisSharedState, type ControlState } from './shared-state';
export { connectRedis, type RedisClient } from './connection';
export { defineScripts } from './scripts';
