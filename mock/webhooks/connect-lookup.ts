// The resolver a delivery's connections use: the app's (the one its URL policy judges names with),
// refusing an address the policy refuses. The policy resolves a host name before each attempt,
// but the connection resolves it again: a name that answers otherwise the second time (DNS
// rebinding with a short time to live) must not reach a metadata address, nor under production a
// non-public one. An address literal is not resolved (the policy has judged it as written).
import type { LookupFunction } from 'node:net';
import type { HostLookup } from '../domain/url-policy';

/** The code of the error a refused address fails the connection with (deliver.ts words it). */
export const REFUSED_ADDRESS = 'ERR_FOS_MOCK_REFUSED_ADDRESS';

function failure(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** net.connect's `lookup`, answered by `resolve`; a name with any address `refused` does not connect. */
export function connectLookup(resolve: HostLookup, refused: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    resolve(hostname).then(
      (found) => {
        const bad = found.find(({ address }) => refused(address));
        if (bad) return callback(failure(REFUSED_ADDRESS, `${hostname} resolves to ${bad.address}, which the URL policy refuses`), '');
        const wanted = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
        const first = wanted[0];
        if (first === undefined) return callback(failure('ENOTFOUND', `getaddrinfo ENOTFOUND ${hostname}`), '');
        if (options.all)
          return callback(
            null,
            wanted.map(({ address, family: f }) => ({ address, family: f })),
          );
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
