// The Requests view: the journal, newest first, live; filters by status class, path and customer;
// a row opens (click, or Enter on its path) the request's detail beside the list.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { customerLabel, useCustomers } from './customers';
import { latency, shortId, statusClass, type StatusClass } from './format';
import { useResource } from './live';
import { RequestDetail } from './request-detail';
import type { CustomerSummary, Journal, JournalEntry } from './types';
import { Empty, ErrorNote, Field, FirstCall, ShortId, Time } from './ui';

const LIMIT = 300;
const ANY = '';
const NO_CUSTOMER = 'none';

interface Filters {
  status: StatusClass | typeof ANY;
  path: string;
  customer: string;
  ownReads: boolean;
}

/** The page's own reads (GET /_mock/...), hidden unless asked for: they would crowd out the rest. */
const isOwnRead = (entry: JournalEntry) => entry.method === 'GET' && entry.path.startsWith('/_mock/');
/** A call of the service API (not of the control API, /_mock and below). */
const isServiceCall = (entry: JournalEntry) => entry.path !== '/_mock' && !entry.path.startsWith('/_mock/');

const TOKEN_EXAMPLE = '{"clientId": "demo-client", "clientSecret": "demo-secret"}';

/** Before any call to the service API: how to make the first, the token. */
function FirstCallHint() {
  return (
    <FirstCall>
      No call to the service API yet. The first is the token: <code>POST /api/oauth/client/token</code> with a client's id and secret (
      <code>{TOKEN_EXAMPLE}</code> with the demo fixtures); then send its <code>accessToken</code> as <code>Authorization: Bearer …</code>,
      for example to <code>GET /api/accounts</code>. Each request appears here as it is answered.
    </FirstCall>
  );
}

function matches(entry: JournalEntry, filters: Filters): boolean {
  if (!filters.ownReads && isOwnRead(entry)) return false;
  if (filters.status !== ANY && statusClass(entry.status) !== filters.status) return false;
  if (filters.path && !entry.path.toLowerCase().includes(filters.path.toLowerCase())) return false;
  if (filters.customer === NO_CUSTOMER) return entry.customerId === undefined;
  return filters.customer === ANY || entry.customerId === filters.customer;
}

function faultText(fault: NonNullable<JournalEntry['fault']>): string {
  if (fault.drop) return 'dropped';
  if (fault.error !== undefined) return `error ${fault.error}`;
  if (fault.latencyMs !== undefined) return `+${fault.latencyMs} ms`;
  return 'acted';
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A path with its uuids cut to their first block, free to wrap after each slash (and nowhere else). */
function BreakablePath({ path }: { path: string }) {
  const parts = path.replace(UUID, (id) => `${id.slice(0, 8)}…`).split('/');
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && (
            <>
              /<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
    </>
  );
}

function moveFocus(event: KeyboardEvent) {
  const row = (event.currentTarget as HTMLElement).closest('tr');
  const target = event.key === 'ArrowDown' ? row?.nextElementSibling : event.key === 'ArrowUp' ? row?.previousElementSibling : null;
  const button = target?.querySelector('button');
  if (!button) return;
  event.preventDefault();
  button.focus();
}

export function RequestsView() {
  const journal = useResource<Journal>(`/_mock/journal?limit=${LIMIT}`, ['requests']);
  const entries = journal.data?.data ?? [];
  const { byId, customers } = useCustomers(
    [],
    entries.map((entry) => entry.customerId),
  );
  const [filters, setFilters] = useState<Filters>({ status: ANY, path: '', customer: ANY, ownReads: false });
  const [open, setOpen] = useState<string | undefined>();
  const set = (change: Partial<Filters>) => setFilters((previous) => ({ ...previous, ...change }));
  const shown = entries.filter((entry) => matches(entry, filters));
  const filtered = filters.status !== ANY || filters.path !== '' || filters.customer !== ANY;
  const who = (id: string | undefined) => {
    if (!id) return '—';
    const customer: CustomerSummary | undefined = byId.get(id);
    return customer ? customer.clientId : shortId(id);
  };

  return (
    <div class={open ? 'split' : ''}>
      <section aria-labelledby="requests-title" class="pane">
        <h2 id="requests-title">Requests</h2>
        <form class="filters" role="search" aria-label="Filter requests" onSubmit={(event) => event.preventDefault()}>
          <Field label="Status">
            <select value={filters.status} onChange={(event) => set({ status: event.currentTarget.value as Filters['status'] })}>
              <option value={ANY}>Any status</option>
              <option value="2xx">2xx</option>
              <option value="3xx">3xx</option>
              <option value="4xx">4xx</option>
              <option value="5xx">5xx</option>
              <option value="dropped">Dropped (0)</option>
            </select>
          </Field>
          <Field label="Path contains">
            <input type="search" value={filters.path} onInput={(event) => set({ path: event.currentTarget.value })} />
          </Field>
          <Field label="Customer">
            <select value={filters.customer} onChange={(event) => set({ customer: event.currentTarget.value })}>
              <option value={ANY}>Any customer</option>
              <option value={NO_CUSTOMER}>No customer (control API, unauthenticated)</option>
              {customers.map((customer) => (
                <option key={customer.id} value={customer.id}>
                  {customerLabel(customer)}
                </option>
              ))}
            </select>
          </Field>
          <label class="check">
            <input type="checkbox" checked={filters.ownReads} onChange={(event) => set({ ownReads: event.currentTarget.checked })} />
            Show control API reads (GET /_mock)
          </label>
        </form>
        <ErrorNote message={journal.error} />
        {journal.data && !entries.some(isServiceCall) && <FirstCallHint />}
        {entries.length > 0 && (
          <p class="hint">
            {shown.length} of the newest {entries.length} requests. Select a path to see the request whole.
          </p>
        )}
        {shown.length === 0 ? (
          <Empty>{journal.loading ? 'Loading…' : filtered ? 'No request matches the filters.' : 'No request yet.'}</Empty>
        ) : (
          <div class="scroll" role="region" tabIndex={0} aria-label="Requests list">
            <table class="list">
              <caption class="visually-hidden">Requests, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Mock time</th>
                  <th scope="col">Method</th>
                  <th scope="col">Path</th>
                  <th scope="col">Status</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Fault</th>
                  <th scope="col">Request id</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((entry) => (
                  <tr
                    key={entry.requestId}
                    class={entry.requestId === open ? 'row selected' : 'row'}
                    data-request-id={entry.requestId}
                    onClick={() => setOpen(entry.requestId)}
                  >
                    <td>
                      <Time iso={entry.at} precise />
                    </td>
                    <td>{entry.method}</td>
                    <td>
                      <button
                        type="button"
                        class="linkish"
                        title={entry.path}
                        aria-current={entry.requestId === open ? 'true' : undefined}
                        onKeyDown={moveFocus}
                      >
                        <BreakablePath path={entry.path} />
                      </button>
                    </td>
                    <td>
                      <span class={`code code-${statusClass(entry.status)}`}>{entry.status === 0 ? '0 dropped' : entry.status}</span>
                    </td>
                    <td class="num">{latency(entry.latencyMs)}</td>
                    <td class="nowrap">{who(entry.customerId)}</td>
                    <td>
                      {entry.fault ? (
                        <span class="fault">
                          Fault {shortId(entry.fault.id)}: {faultText(entry.fault)}
                        </span>
                      ) : (
                        ''
                      )}
                    </td>
                    <td>
                      <ShortId id={entry.requestId} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {open && <RequestDetail key={open} requestId={open} customers={byId} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
