// Loaded into a replica (`node --import`) by a test: the replica dies (SIGKILL, no clean-up) right
// after the first operation it stores, before it can publish that operation's event: the moment
// between a write and its event that a crash must not lose.
import { RedisStore } from '../../../mock/store/redis/redis-store';

const original = Object.getOwnPropertyDescriptor(RedisStore.prototype, 'insertConsumingQuote')!.value as RedisStore['insertConsumingQuote'];
RedisStore.prototype.insertConsumingQuote = async function (this: RedisStore, ...args: Parameters<RedisStore['insertConsumingQuote']>) {
  const stored = await original.apply(this, args);
  if (stored) process.kill(process.pid, 'SIGKILL');
  return stored;
};
