// The HAR 1.2 file of `fos-mock record --har` (http://www.softwareishard.com/blog/har-12-spec/):
// every exchange with its headers and bodies, credentials replaced by a marker (record-secrets.ts).
import type { Exchange } from './record-proxy';
import { parseJson, redactHeaders, redactJson } from './record-secrets';

interface NameValue {
  name: string;
  value: string;
}

const pairs = (headers: Record<string, string>): NameValue[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

/** A body with its secret-named fields replaced, when it is JSON; as it is otherwise (base64 included). */
function redactedBody(text: string, encoding: 'base64' | undefined): string {
  const json = parseJson(text, encoding);
  return json === undefined ? text : JSON.stringify(redactJson(json));
}

/** The body's size in bytes, as sent. */
const bytesOf = (text: string, encoding: 'base64' | undefined) => Buffer.byteLength(text, encoding ?? 'utf8');

function queryString(url: URL): NameValue[] {
  return [...url.searchParams].map(([name, value]) => ({ name, value }));
}

export function harOf(exchanges: Exchange[], target: string, version: string): object {
  const entries = exchanges.map((e) => {
    const url = new URL(`${target.replace(/\/+$/, '')}${e.path}`);
    const requestBody = redactedBody(e.requestBody, e.requestEncoding);
    const responseBody = redactedBody(e.responseBody, e.responseEncoding);
    return {
      startedDateTime: e.started.toISOString(),
      time: e.ms,
      request: {
        method: e.method,
        url: url.toString(),
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: pairs(redactHeaders(e.requestHeaders)),
        queryString: queryString(url),
        ...(e.requestBody === ''
          ? {}
          : {
              postData: {
                mimeType: e.requestHeaders['content-type'] ?? 'application/json',
                text: requestBody,
                // HAR 1.2 has an encoding for a response's content only: a request's base64 is said in its comment.
                ...(e.requestEncoding && { comment: 'base64' }),
              },
            }),
        headersSize: -1,
        bodySize: bytesOf(requestBody, e.requestEncoding),
      },
      response: {
        status: e.status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: pairs(redactHeaders(e.responseHeaders)),
        content: {
          size: bytesOf(responseBody, e.responseEncoding),
          mimeType: e.responseHeaders['content-type'] ?? '',
          text: responseBody,
          ...(e.responseEncoding && { encoding: e.responseEncoding }),
        },
        redirectURL: e.responseHeaders.location ?? '',
        headersSize: -1,
        bodySize: bytesOf(responseBody, e.responseEncoding),
      },
      cache: {},
      timings: { send: 0, wait: e.ms, receive: 0 },
    };
  });
  return { log: { version: '1.2', creator: { name: 'fos-mock record', version }, entries } };
}
