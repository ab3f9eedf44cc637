// "Copy as curl": a journal entry as a curl command to replay it - method, the full URL (the
// page's origin, the path and the query as sent), every request header but host and
// content-length (curl sets those), and the JSON body, each quoted for a POSIX shell. The journal
// keeps no credentials: a bearer token is written as "$TOKEN", for the shell to fill in, and a
// secret in the body stays the journal's *** for the user to replace.
import type { JournalDetail } from './types';

const SKIPPED = new Set(['host', 'content-length']);

/** 'it'\''s': single quotes, safe for any content in sh, bash and zsh. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The command, or undefined when the request was not kept whole (its replica is gone, or its body was too large to keep). */
export function curlCommand(detail: JournalDetail, origin: string): string | undefined {
  const request = detail.request;
  if (!request || request.bodyTruncated) return undefined;
  const query = request.query ? `?${request.query}` : '';
  const first = detail.method === 'GET' ? 'curl' : `curl -X ${detail.method}`;
  const parts = [`${first} ${shellQuote(`${origin}${detail.path}${query}`)}`];
  for (const [name, value] of Object.entries(request.headers)) {
    if (SKIPPED.has(name.toLowerCase())) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      const bearer = name.toLowerCase() === 'authorization' && /^Bearer \*\*\*/.test(one);
      parts.push(bearer ? `-H "${name}: Bearer $TOKEN"` : `-H ${shellQuote(`${name}: ${one}`)}`);
    }
  }
  const body = request.body;
  if (body !== undefined) parts.push(`--data-raw ${shellQuote(JSON.stringify(body))}`);
  return parts.join(' \\\n  ');
}

/** Puts text on the clipboard: the Clipboard API, else the older copy command on a hidden field. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Refused (no permission, not a secure context): fall back below.
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.setAttribute('aria-hidden', 'true');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.append(field);
  field.select();
  // Deprecated, yet the one way left where the Clipboard API is refused.
  const copied = document.execCommand('copy');
  field.remove();
  if (!copied) throw new Error('The browser refused to copy; select the command below and copy it.');
}
