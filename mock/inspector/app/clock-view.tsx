// The Clock and faults view: the mock time, advance / freeze / unfreeze, the pending jobs with
// their due times (a job's group, which runs one job at a time, in its tooltip), and the faults
// (faults-panel.tsx).
import { useState } from 'preact/hooks';
import { post } from './api';
import { useMockClock } from './clock';
import { FaultsPanel } from './faults-panel';
import { relative, shortId } from './format';
import { useResource } from './live';
import type { ClockState, JobList, PendingJob } from './types';
import { Empty, ErrorNote, Field, Time, useAction, Wide } from './ui';

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

function ClockPanel() {
  const { state, now, error } = useMockClock();
  const [by, setBy] = useState('30s');
  const action = useAction();
  const move = (path: string, body?: unknown, verb = 'Clock') =>
    action.run(async () => {
      const after = await post<ClockState>(path, body);
      return `${verb}: mock time is ${new Date(after.now).toISOString()}${after.frozen ? ', frozen' : ', running'}.`;
    });
  const advance = (event: Event) => {
    event.preventDefault();
    const value = by.trim();
    move('/_mock/clock/advance', { by: /^\d+$/.test(value) ? Number(value) : value }, `Advanced by ${value}`);
  };

  return (
    <section aria-labelledby="clock-title" class="group">
      <h3 id="clock-title">Mock clock</h3>
      <ErrorNote message={error} />
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
        <button type="button" disabled={action.busy} onClick={() => move('/_mock/clock/freeze', {}, 'Frozen')}>
          Freeze
        </button>
        <button type="button" disabled={action.busy} onClick={() => move('/_mock/clock/unfreeze', undefined, 'Unfrozen')}>
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

function JobsPanel() {
  const { now } = useMockClock();
  const jobs = useResource<JobList>('/_mock/jobs', ['jobs', 'clock']);
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
                <th scope="col">Kind</th>
                <th scope="col">Subject</th>
                <th scope="col">Due (mock time)</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {data.map((job) => (
                <tr key={job.id}>
                  <td>{job.kind}</td>
                  <td title={`group ${job.group}`}>{subject(job)}</td>
                  <td>
                    {job.dueAt ? (
                      <>
                        <Time iso={job.dueAt} precise /> <span class="muted">{relative(job.dueAt, now)}</span>
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
  return (
    <section aria-labelledby="clock-view-title">
      <h2 id="clock-view-title">Clock and faults</h2>
      <div class="columns columns-clock">
        <div>
          <ClockPanel />
          <JobsPanel />
        </div>
        <FaultsPanel />
      </div>
    </section>
  );
}
