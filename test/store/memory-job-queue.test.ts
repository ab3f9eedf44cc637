// The memory job queue: the shared JobQueue contract (job-queue-contract.ts) on MemoryJobQueue.
import { MemoryJobQueue } from '../../mock/store';
import { jobQueueContract } from './job-queue-contract';

jobQueueContract('MemoryJobQueue', () => Promise.resolve(new MemoryJobQueue()));
