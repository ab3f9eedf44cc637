// Seed: "Every response, success or error, carries X-Request-Id (uuid)".
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

/** Per-request values kept on the response (Express's res.locals, or the same object on a plain response). */
export function localsOf(res: ServerResponse): Record<string, unknown> {
  const holder = res as ServerResponse & { locals?: Record<string, unknown> };
  return (holder.locals ??= Object.create(null) as Record<string, unknown>);
}

/** Gives the request its id: on the answer's X-Request-Id header and in the response's locals. */
export function assignRequestId(res: ServerResponse): string {
  const id = randomUUID();
  localsOf(res).requestId = id;
  res.setHeader('X-Request-Id', id);
  return id;
}

export function requestIdOf(res: ServerResponse): string | undefined {
  return localsOf(res).requestId as string | undefined;
}

export function requestId(_req: Request, res: Response, next: NextFunction): void {
  assignRequestId(res);
  next();
}
