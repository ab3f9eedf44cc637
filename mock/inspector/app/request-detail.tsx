// One request whole (GET /_mock/journal/{requestId}): what was sent and answered, the fields a
// VALIDATION_ERROR names, and "Copy as curl".
import { useEffect, useRef } from 'preact/hooks';
import { copyText, curlCommand } from './curl';
import { latency, pretty } from './format';
import { useResource } from './live';
import type { CustomerSummary, HeaderMap, JournalDetail } from './types';
import { Block, ErrorNote, Time, useAction } from './ui';

interface FieldFailure {
  field: string;
  message: string;
}

/** The `details.fields` of a VALIDATION_ERROR answer, else none. */
export function validationFailures(body: unknown): FieldFailure[] {
  if (typeof body !== 'object' || body === null) return [];
  const error = body as { code?: unknown; details?: { fields?: unknown } };
  if (error.code !== 'VALIDATION_ERROR' || !Array.isArray(error.details?.fields)) return [];
  return (error.details.fields as unknown[]).map((item) => {
    const one = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    return { field: typeof one.field === 'string' ? one.field : '', message: typeof one.message === 'string' ? one.message : pretty(item) };
  });
}

function Headers({ caption, headers }: { caption: string; headers: HeaderMap }) {
  const rows = Object.entries(headers);
  return (
    <table class="kv">
      <caption>{caption}</caption>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={2}>none</td>
          </tr>
        )}
        {rows.map(([name, value]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{Array.isArray(value) ? value.join(', ') : value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface Props {
  requestId: string;
  customers: ReadonlyMap<string, CustomerSummary>;
  onClose: () => void;
}

export function RequestDetail({ requestId, customers, onClose }: Props) {
  // A recorded request never changes: read once.
  const detail = useResource<JournalDetail>(`/_mock/journal/${encodeURIComponent(requestId)}`, []);
  const copy = useAction();
  const d = detail.data;
  const curl = d ? curlCommand(d, location.origin) : undefined;
  const failures = d?.response ? validationFailures(d.response.body) : [];
  const customer = d?.customerId ? customers.get(d.customerId) : undefined;
  // Below the list (a narrow screen), an opened request is brought into sight: once opened, and
  // again once read (the page may have been too short to scroll it up while it was loading).
  const section = useRef<HTMLElement>(null);
  const loaded = d !== undefined;
  useEffect(() => {
    const top = section.current?.getBoundingClientRect().top;
    if (top !== undefined && top > innerHeight / 2) section.current?.scrollIntoView({ block: 'start' });
  }, [loaded]);

  return (
    <section ref={section} class="pane detail" aria-labelledby="detail-title">
      <div class="detail-head">
        <h2 id="detail-title">{d ? `${d.method} ${d.path}` : 'Request'}</h2>
        <button type="button" onClick={onClose}>
          Close details
        </button>
      </div>
      <ErrorNote message={detail.error} />
      {!d && !detail.error && <p>Loading…</p>}
      {d && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>{d.status === 0 ? '0 (connection dropped)' : d.status}</dd>
            <dt>Latency</dt>
            <dd>{latency(d.latencyMs)}</dd>
            <dt>Mock time</dt>
            <dd>
              <Time iso={d.at} />
            </dd>
            <dt>Customer</dt>
            <dd>{customer ? `${customer.name} (${customer.clientId})` : (d.customerId ?? '—')}</dd>
            <dt>Request id</dt>
            <dd>
              <code>{d.requestId}</code>
            </dd>
            {d.fault && (
              <>
                <dt>Fault</dt>
                <dd>
                  <code>{d.fault.id}</code>
                  {d.fault.error !== undefined && ` answered ${d.fault.error}`}
                  {d.fault.drop && ' dropped the connection'}
                  {d.fault.latencyMs !== undefined && ` added ${d.fault.latencyMs} ms`}
                </dd>
              </>
            )}
          </dl>
          {failures.length > 0 && (
            <>
              <h3>Validation failures</h3>
              <table class="list">
                <caption class="visually-hidden">Validation failures, field by field</caption>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Problem</th>
                  </tr>
                </thead>
                <tbody>
                  {failures.map((failure, index) => (
                    <tr key={index}>
                      <td>
                        <code>{failure.field}</code>
                      </td>
                      <td>{failure.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          {curl !== undefined && (
            <>
              <div class="actions">
                <button
                  type="button"
                  disabled={copy.busy}
                  onClick={() => copy.run(() => copyText(curl).then(() => 'Copied the curl command.'))}
                >
                  Copy as curl
                </button>
                {copy.line}
              </div>
              <Block label="curl command" text={curl} />
            </>
          )}
          {d.request && d.response ? (
            <>
              <h3>Request</h3>
              {d.request.query && (
                <p>
                  Query: <code>?{d.request.query}</code>
                </p>
              )}
              <Headers caption="Request headers" headers={d.request.headers} />
              {d.request.bodyTruncated ? (
                <p class="note">The body was over 16 KiB and was not kept (no curl command either).</p>
              ) : d.request.body === undefined ? (
                <p>No body.</p>
              ) : (
                <Block label="Request body" text={pretty(d.request.body)} />
              )}
              <h3>Response</h3>
              <Headers caption="Response headers" headers={d.response.headers} />
              {d.response.bodyTruncated && <p class="note">The body was over 16 KiB: its first 16 KiB are shown.</p>}
              {d.response.body === undefined ? <p>No body.</p> : <Block label="Response body" text={pretty(d.response.body)} />}
            </>
          ) : (
            <p class="note">
              Only the summary is kept: the replica that answered this request keeps the headers and bodies of its last 1000 requests, and
              this one has left them (or its replica is gone).
            </p>
          )}
        </>
      )}
    </section>
  );
}
