// undici, loaded on its first use (about 50 ms of start-up): the webhook deliveries and the
// CLI's client of a running mock need it; `serve` answering its first request does not.
import type * as Undici from 'undici';

let lib: typeof Undici | undefined;

export function undici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
  return (lib ??= require('undici') as typeof Undici);
}
