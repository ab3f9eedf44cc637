// Every break, in the order of the catch table (the # column): ids are listed there by this order.
import type { Break } from './break';
import { createQuote200, deleteIsANoOp, teapot418, tenancyLeak, totalCountsEverything } from './handlers';
import { keyNotRequired, replayUnmarked, requestIdMissing, requestIdNotUuid } from './headers';
import {
  accountDropsNullField,
  amountValueNumber,
  depositWithoutPayload,
  errorWithoutCode,
  jsonAsTextPlain,
  logStatusOk,
  nextCursorNeverNull,
  operationStatusPending,
  previousCursorOnFirstPage,
  quoteRoundsUp,
  unauthorizedAs403,
  unknownId200Empty,
} from './responses';
import { cursorNotVerified, signatureNotChecked, tokenLifetime3600, webhookNoAtTime, webhookNoEventType } from './services';
import { keyReusedOtherBody, quoteUsableTwice } from './stores';

export type { Break } from './break';

export const BREAKS: Break[] = [
  accountDropsNullField,
  amountValueNumber,
  requestIdMissing,
  requestIdNotUuid,
  createQuote200,
  quoteUsableTwice,
  totalCountsEverything,
  nextCursorNeverNull,
  previousCursorOnFirstPage,
  cursorNotVerified,
  tenancyLeak,
  replayUnmarked,
  keyReusedOtherBody,
  keyNotRequired,
  unauthorizedAs403,
  signatureNotChecked,
  tokenLifetime3600,
  unknownId200Empty,
  webhookNoEventType,
  webhookNoAtTime,
  logStatusOk,
  errorWithoutCode,
  depositWithoutPayload,
  operationStatusPending,
  quoteRoundsUp,
  teapot418,
  jsonAsTextPlain,
  deleteIsANoOp,
];
