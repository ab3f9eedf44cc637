// The Clock and faults view: the mock time, advance / freeze / unfreeze, the pending jobs with
// their due times (a job's group, which runs one job at a time, in its tooltip), and the faults
// (faults-panel.tsx). A customer picked shows that customer's clock (its own, moved here, or the
// mock's it follows), its jobs and the faults that act on its requests.
import { useState } from 'preact/hooks';
import { post, seg } from './api';
import { useMockClock } from './clock';
import { customerLabel, useCustomers } from './customers';
import { FaultsPanel } from './faults-panel';
import { relative, shortId } from './format';
import { useResource } from './live';
import type { ClockState, CustomerSummary, JobList, PendingJob } from './types';
import { Empty, ErrorNote, Field, Time, useAction, Wide } from './ui';

/** The customer last picked, kept while the page lives (the view is rebuilt on each visit). */
const remembered = { customer: '' };

function subject(job: PendingJob): string {
  const s = job.subject;
  if (s.operationId) return `operation ${shortId(s.operationId)}`;
  const parts = [
    s.eventType,
    s.messageId && `message ${shortId(s.messageId)}`,
    s.subscriptionId && `to subscription ${shortId(s.subscriptionId)}`,
  ];
  return parts.filter(Boolean).join(' ') || '—';
}

/** The clock shown: the mock's, or the picked customer's own (read from its endpoint, moved through it). */
function useShownClock(own: CustomerSummary | undefined) {
  const mock = useMockClock();
  const path = own ? `/_mock/customers/${seg(own.id)}/clock` : null;
  const ownClock = useResource<ClockState>(path, ['clock', 'state']);
  if (!own) return { base: '/_mock/clock', title: 'Mock clock', state: mock.state, now: mock.now, error: mock.error, what: 'mock time' };
  const now = ownClock.data ? new Date(ownClock.data.now).getTime() : undefined;
  const who = own.clientId;
  return {
    base: path as string,
    title: `Clock of ${who} (its own)`,
    state: ownClock.data,
    now,
    error: ownClock.error,
    what: `${who}'s time`,
  };
}

function ClockPanel({ customer }: { customer?: CustomerSummary }) {
  const own = customer?.clock ? customer : undefined;
  const { base, title, state, now, error, what } = useShownClock(own);
  const [by, setBy] = useState('30s');
  const action = useAction();
  const move = (path: string, body?: unknown, verb = 'Clock') =>
    action.run(async () => {
      const after = await post<ClockState>(path, body);
      return `${verb}: ${what} is ${new Date(after.now).toISOString()}${after.frozen ? ', frozen' : ', running'}.`;
    });
  const advance = (event: Event) => {
    event.preventDefault();
    const value = by.trim();
    move(`${base}/advance`, { by: /^\d+$/.test(value) ? Number(value) : value }, `Advanced by ${value}`);
  };

  return (
    <section aria-labelledby="clock-title" class="group">
      <h3 id="clock-title">{title}</h3>
      <ErrorNote message={error} />
      {customer && !own && <p class="hint">{customer.clientId} follows the mock clock.</p>}
      <p class="big">
        {now !== undefined ? <Time iso={new Date(now).toISOString()} /> : 'Loading…'} <span class="muted">UTC</span>{' '}
        {state && <span class={`badge badge-${state.frozen ? 'wait' : 'good'}`}>{state.frozen ? 'frozen' : 'running'}</span>}
      </p>
      <form class="inline-form" onSubmit={advance}>
        <Field label="Advance by">
          <input type="text" value={by} required aria-describedby="advance-hint" onInput={(event) => setBy(event.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={action.busy}>
          Advance
        </button>
        <button type="button" disabled={action.busy} onClick={() => move(`${base}/freeze`, {}, 'Frozen')}>
          Freeze
        </button>
        <button type="button" disabled={action.busy} onClick={() => move(`${base}/unfreeze`, undefined, 'Unfrozen')}>
          Unfreeze
        </button>
      </form>
      <p id="advance-hint" class="hint">
        A duration: 250ms, 30s, 5m, 1h30m, 2d, or a number of milliseconds. Jobs that fall due run before the clock answers.
      </p>
      {action.line}
    </section>
  );
}

function JobsPanel({ customer, byId }: { customer?: CustomerSummary; byId: Map<string, CustomerSummary> }) {
  const { now } = useMockClock();
  const jobs = useResource<JobList>(customer ? `/_mock/jobs?customerId=${seg(customer.id)}` : '/_mock/jobs', ['jobs', 'clock']);
  const who = (job: PendingJob) => (job.customerId ? (byId.get(job.customerId)?.clientId ?? shortId(job.customerId)) : '—');
  const data = jobs.data?.data ?? [];
  return (
    <section aria-labelledby="jobs-title" class="group">
      <h3 id="jobs-title">Pending jobs ({jobs.data?.total ?? 0})</h3>
      <ErrorNote message={jobs.error} />
      {data.length === 0 ? (
        <Empty>
          {jobs.loading
            ? 'Loading…'
            : 'No job pending. An operation waiting for auto-settlement and a webhook to deliver (or retry) are jobs, due in mock time.'}
        </Empty>
      ) : (
        <Wide label="Pending jobs">
          <table class="list">
            <caption class="visually-hidden">Pending jobs by due time</caption>
            <thead>
              <tr>
                <th scope="col">Kind, customer</th>
                <th scope="col">Subject</th>
                <th scope="col">Due (mock time)</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {data.map((job) => (
                <tr key={job.id}>
                  <td>
                    {job.kind}
                    <br />
                    <span class="muted">{who(job)}</span>
                  </td>
                  <td title={`group ${job.group}`}>{subject(job)}</td>
                  <td>
                    {job.dueAt ? (
                      <>
                        <Time iso={job.dueAt} precise /> {/* A job of an own clock falls due by that clock: no "in 5 s" by the mock's. */}
                        <span class="muted">{job.ownClock ? 'its own clock' : relative(job.dueAt, now)}</span>
                      </>
                    ) : (
                      'at once'
                    )}
                  </td>
                  <td>{job.running ? 'running' : 'waiting'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Wide>
      )}
    </section>
  );
}

export function ClockView() {
  const { customers, byId } = useCustomers(['state', 'clock']);
  const [picked, setPicked] = useState(remembered.customer);
  const customer = byId.get(picked);
  const pick = (id: string) => {
    remembered.customer = id;
    setPicked(id);
  };
  return (
    <section aria-labelledby="clock-view-title">
      <h2 id="clock-view-title">Clock and faults</h2>
      <div class="toolbar">
        <Field label="Customer">
          <select value={customer ? picked : ''} onChange={(event) => pick(event.currentTarget.value)}>
            <option value="">All customers (the mock clock)</option>
            {customers.map((c) => (
              <option key={c.id} value={c.id}>
                {customerLabel(c)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div class="columns columns-clock">
        <div>
          <ClockPanel key={customer?.id ?? ''} customer={customer} />
          <JobsPanel customer={customer} byId={byId} />
        </div>
        <FaultsPanel customerId={customer?.id} byId={byId} />
      </div>
    </section>
  );
}
