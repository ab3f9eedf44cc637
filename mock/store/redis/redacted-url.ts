// A Redis URL for messages and logs, in a file of its own: the configuration page and start-up
// messages use it without loading the Redis client.

/** The URL without its password, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
