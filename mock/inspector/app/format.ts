// Formatting shared by the views: mock times (shown in UTC, as the mock keeps them), durations,
// amounts, short ids and HTTP status classes.
import type { Amount } from './types';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "2026-11-21 12:00:05" (UTC); "—" for a missing or unreadable instant. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${clockTime(d)}`;
}

/** "12:00:05.123" (UTC): a time of day to the millisecond, for lists. */
export function timeOfDay(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${clockTime(d)}.${pad(d.getUTCMilliseconds(), 3)}`;
}

function clockTime(d: Date): string {
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** "250 ms", "30 s", "2 min 5 s", "1 h 30 min", "2 d 3 h". */
export function duration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1000) return `${Math.round(abs)} ms`;
  const s = Math.floor(abs / 1000);
  const [d, h, m, sec] = [Math.floor(s / 86400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60];
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return sec > 0 ? `${m} min ${sec} s` : `${m} min`;
  return `${sec} s`;
}

/** "in 30 s", "5 s ago", "now", relative to the mock clock's `now` (ms). */
export function relative(iso: string | null | undefined, now: number | undefined): string {
  if (!iso || now === undefined) return '';
  const delta = new Date(iso).getTime() - now;
  if (Number.isNaN(delta)) return '';
  if (Math.abs(delta) < 1000) return 'now';
  return delta > 0 ? `in ${duration(delta)}` : `${duration(delta)} ago`;
}

/** Latency as measured: "3.4 ms", "1.2 s". */
export function latency(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function amount(value: Amount | undefined): string {
  return value ? `${value.value} ${value.asset}` : '—';
}

/** The first block of a uuid, enough to tell records apart on screen. */
export function shortId(id: string | null | undefined): string {
  if (!id) return '—';
  return id.length > 8 ? id.slice(0, 8) : id;
}

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'dropped' | 'other';

export function statusClass(status: number): StatusClass {
  if (status === 0) return 'dropped';
  if (status >= 200 && status < 600) return `${Math.floor(status / 100)}xx` as StatusClass;
  return 'other';
}

/** "COMPLETED" → "completed": the CSS modifier of a state badge. */
export function tone(status: string | undefined): 'good' | 'bad' | 'wait' | 'plain' {
  switch (status) {
    case 'COMPLETED':
    case 'APPROVED':
    case 'ACTIVE':
    case 'SUCCESS':
    case 'LIVE':
      return 'good';
    case 'FAILED':
    case 'REJECTED':
    case 'EXPIRED':
      return 'bad';
    case 'REQUESTED':
    case 'ACTION_REQUIRED':
    case 'UNDER_REVIEW':
    case 'CREATED':
    case 'ONBOARDING':
    case 'PENDING':
      return 'wait';
    default:
      return 'plain';
  }
}

/** JSON as the page shows it: two-space indented; strings (a cut body) as they are. */
export function pretty(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A delivered payload (a JSON string) indented when it parses. */
export function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}
