// The filterable fields of webhook execution logs, for the `filters` parameter of the execution-log listing.
import type { FieldTable } from './fields';

export const WEBHOOK_EVENT_TYPES = [
  'ACCOUNT_CREATED',
  'ACCOUNT_ACTION_REQUIRED',
  'ACCOUNT_ASSET_ACTIVATED',
  'ACCOUNT_ASSET_FAILED',
  'BENEFICIARY_INSTRUCTION_CREATED',
  'BENEFICIARY_INSTRUCTION_APPROVED',
  'BENEFICIARY_INSTRUCTION_REJECTED',
  'BENEFICIARY_INSTRUCTION_ACTION_REQUIRED',
  'OPERATION_REQUESTED',
  'OPERATION_COMPLETED',
  'OPERATION_FAILED',
  'OPERATION_ACTION_REQUIRED',
] as const;

export const EXECUTION_LOG_STATUSES = ['SUCCESS', 'FAILED'] as const;

export const EXECUTION_LOG_FIELDS = {
  status: { type: 'enum', values: EXECUTION_LOG_STATUSES },
  eventType: { type: 'enum', values: WEBHOOK_EVENT_TYPES },
  httpStatus: { type: 'integer' },
  messageId: { type: 'string' },
  retryAttempts: { type: 'integer' },
  createdAt: { type: 'date-time' },
} as const satisfies FieldTable;
