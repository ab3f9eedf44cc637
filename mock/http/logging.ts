// The mock's log: pino, at LOG_LEVEL, written as JSON lines or as readable text (LOG_FORMAT; auto
// is text on a terminal, JSON lines otherwise). At info there is one line per answered request
// (time, method, path, status, ms, customer, request id) and one per webhook attempt; neither
// carries a header or a body, so no credential reaches the log.
//
//   14:03:07.412 GET    /api/accounts 200 1.9 ms customer 9a1c… request 0b7e…
//   14:03:07.530 webhook OPERATION_COMPLETED http://127.0.0.1:9000/hooks 500 FAILED attempt 1 (3.1 ms) message 5d2f…
//
// The service path is benchmarked, so a request's line costs next to nothing: it is written
// straight (not through pino's serialiser), and lines go out together every FLUSH_MS, one write
// for however many requests a busy mock answered meanwhile (a write per line costs a busy mock
// about a fifth of its throughput).
import { hostname } from 'node:os';
import pino, { type Logger } from 'pino';
import type { Config } from '../config';
import type { JournalEntry } from './journal';

/** What the log is written to: stdout by default; tests hand their own. */
export interface LogOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** How long a line may wait for others to go out with it. */
const FLUSH_MS = 50;

/** Lines gathered and written together, at most FLUSH_MS after the first of them. */
class LineSink {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly out: LogOutput) {}

  write(line: string): void {
    this.pending += line;
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.out.write(text);
  }
}

/** The sink of each logger made here, and whether it writes text. */
const sinks = new WeakMap<Logger, { sink: LineSink; text: boolean }>();
/** Sinks on the process's stdout: what they hold goes out when the process exits (stdout writes are synchronous on Linux). */
const onStdout = new Set<LineSink>();

/** The mock's logger for a configuration: silent, JSON lines, or text, on `out`. */
export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, out: LogOutput = process.stdout): Logger {
  if (config.logLevel === 'silent') return pino({ level: 'silent' });
  const text = config.logFormat === 'text' || (config.logFormat === 'auto' && out.isTTY === true);
  const sink = new LineSink(out);
  const logger = pino({ level: config.logLevel }, { write: (line: string) => sink.write(text ? textLine(line) : line) });
  sinks.set(logger, { sink, text });
  if (out === process.stdout) {
    if (onStdout.size === 0) process.once('exit', () => onStdout.forEach((s) => s.flush()));
    onStdout.add(sink);
  }
  return logger;
}

/** Writes now what a logger made here holds (tests, before they read what was written). */
export function flushLog(logger: Logger): void {
  sinks.get(logger)?.sink.flush();
}

/** The request's log line, or undefined when the level leaves it out (nothing is built per request then). */
export function requestLog(logger: Logger): ((entry: JournalEntry) => void) | undefined {
  if (!logger.isLevelEnabled('info')) return undefined;
  const own = sinks.get(logger);
  // A logger of the caller's (createApp's `logger` option): through pino.
  if (!own) return (entry) => logger.info(requestFields(entry), 'request');
  return own.text ? (entry) => own.sink.write(requestText(entry, Date.now())) : (entry) => own.sink.write(requestJson(entry, Date.now()));
}

/** What pino writes after the time on each line of this process. */
const PROCESS_FIELDS = `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

/** The line pino would write for `logger.info(requestFields(entry), 'request')`, built directly. */
function requestJson(entry: JournalEntry, time: number): string {
  const customer = entry.customerId === undefined ? '' : `,"customerId":${JSON.stringify(entry.customerId)}`;
  return (
    `{"level":30,"time":${time},${PROCESS_FIELDS},"msg":"request","method":${JSON.stringify(entry.method)},` +
    `"path":${JSON.stringify(entry.path)},"status":${entry.status},"ms":${entry.latencyMs}${customer},` +
    `"requestId":${JSON.stringify(entry.requestId)}}\n`
  );
}

function requestFields(entry: JournalEntry) {
  return {
    method: entry.method,
    path: entry.path,
    status: entry.status,
    ms: entry.latencyMs,
    customerId: entry.customerId,
    requestId: entry.requestId,
  };
}

function requestText(entry: JournalEntry, time: number): string {
  const status = entry.status === 0 ? 'dropped' : String(entry.status);
  const customer = entry.customerId === undefined ? '' : ` customer ${entry.customerId}`;
  const request = `${entry.method.padEnd(6)} ${entry.path} ${status} ${entry.latencyMs.toFixed(1)} ms`;
  return `${clock(time)} ${request}${customer} request ${entry.requestId}\n`;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's own fields, and the ones a line shows in its own words. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);

function clock(time: unknown): string {
  const at = new Date(typeof time === 'number' ? time : Date.now());
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** One pino JSON line as a line of text. */
export function textLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = clock(record.time);
  if (record.msg === 'webhook') {
    const error = record.error === undefined || record.error === null ? '' : ` - ${text(record.error)}`;
    return (
      `${time} webhook ${text(record.eventType)} ${text(record.url)} ${text(record.httpStatus)} ${text(record.status)} ` +
      `attempt ${text(record.attempt)} (${text(record.ms)} ms) message ${text(record.messageId)}${error}\n`
    );
  }
  const level = LEVELS[record.level as number] ?? text(record.level);
  const fields = Object.entries(record)
    .filter(([key]) => !SHOWN.has(key))
    .map(([key, value]) => ` ${key}=${text(value)}`)
    .join('');
  const err = record.err as { message?: unknown } | undefined;
  return `${time} ${level} ${text(record.msg ?? '')}${fields}${err?.message === undefined ? '' : `: ${text(err.message)}`}\n`;
}
