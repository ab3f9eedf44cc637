// The filterable fields of webhook execution logs, for the `filters` parameter of the execution-log listing.
import { EVENT_TYPES } from '../event-catalogue';
import type { FieldTable } from './fields';

/** The event types, from the one catalogue of them. */
export const WEBHOOK_EVENT_TYPES = EVENT_TYPES;

export const EXECUTION_LOG_STATUSES = ['SUCCESS', 'FAILED'] as const;

export const EXECUTION_LOG_FIELDS = {
  status: { type: 'enum', values: EXECUTION_LOG_STATUSES },
  eventType: { type: 'enum', values: WEBHOOK_EVENT_TYPES },
  httpStatus: { type: 'integer' },
  messageId: { type: 'string' },
  retryAttempts: { type: 'integer' },
  createdAt: { type: 'date-time' },
} as const satisfies FieldTable;
