// The mock's own error log as an oracle: every logger.error of the mock (an unhandled error, a
// response or webhook payload that breaks the document, a failed scheduled job or delivery) is a
// finding, even when the client saw a clean answer. Tests start the mock with this logger and
// check, last, that it stayed empty.
import pino, { type Logger } from 'pino';

export interface ErrorLog {
  logger: Logger;
  entries: Array<Record<string, unknown>>;
  /** One line per entry: its message and the most telling fields. */
  describe(): string[];
}

export function errorLog(): ErrorLog {
  const entries: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'error' },
    {
      write(line: string) {
        entries.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return {
    logger,
    entries,
    describe: () =>
      entries.map((e) => {
        const err = e.err as { message?: string; type?: string } | undefined;
        const fields = {
          url: e.url,
          operationId: e.operationId,
          eventType: e.eventType,
          violations: e.violations,
          err: err && { type: err.type, message: err.message },
        };
        return `${String(e.msg)} ${JSON.stringify(fields).slice(0, 600)}`;
      }),
  };
}
