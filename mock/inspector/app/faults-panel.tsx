// Faults on the service routes: the list (GET /_mock/faults, refreshed on `faults` changes) with
// a Remove button each, and a form that adds one (method, path, an error status, a dropped
// connection or latency alone, and optionally added latency, times and percent). With a customer
// picked, only the faults that act on its requests: its own and those of no customer.
import { useState } from 'preact/hooks';
import { del, post, seg } from './api';
import type { CustomerSummary, Fault, FaultCreate, FaultList } from './types';
import { useResource } from './live';
import { Empty, ErrorNote, Field, ShortId, useAction, Wide } from './ui';

const METHODS: ReadonlyArray<NonNullable<FaultCreate['method']>> = ['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
type Effect = 'error' | 'drop' | 'latency';

function effectText(fault: Fault): string {
  const parts: string[] = [];
  if (fault.error) parts.push(`error ${fault.error.status} ${fault.error.code}`);
  if (fault.drop) parts.push('drop the connection');
  const latency = fault.latencyMs;
  if (typeof latency === 'number') parts.push(`latency ${latency} ms`);
  else if (latency) parts.push(`latency ${latency.min}-${latency.max} ms`);
  return parts.join(', ');
}

/** "250" → 250; "100-900" → {min, max}; "" → undefined; anything else throws. */
export function parseLatency(text: string): FaultCreate['latencyMs'] {
  const value = text.trim();
  if (value === '') return undefined;
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(value);
  if (range) return { min: Number(range[1]), max: Number(range[2]) };
  if (/^\d+$/.test(value)) return Number(value);
  throw new Error('Latency is a number of milliseconds (250) or a range (100-900).');
}

const optionalNumber = (text: string) => (text.trim() === '' ? undefined : Number(text));

function AddFaultForm() {
  const [method, setMethod] = useState<NonNullable<FaultCreate['method']>>('*');
  const [path, setPath] = useState('');
  const [effect, setEffect] = useState<Effect>('error');
  const [status, setStatus] = useState('503');
  const [code, setCode] = useState('');
  const [latency, setLatency] = useState('');
  const [times, setTimes] = useState('');
  const [percent, setPercent] = useState('');
  const action = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const body: FaultCreate = { method, path: path.trim() };
      const latencyMs = parseLatency(latency);
      if (latencyMs !== undefined) body.latencyMs = latencyMs;
      if (effect === 'error') body.error = code.trim() ? { status: Number(status), code: code.trim() } : { status: Number(status) };
      if (effect === 'drop') body.drop = true;
      if (effect === 'latency' && latencyMs === undefined) throw new Error('Give the latency to add.');
      const n = optionalNumber(times);
      if (n !== undefined) body.times = n;
      const p = optionalNumber(percent);
      if (p !== undefined) body.percent = p;
      const fault = await post<Fault>('/_mock/faults', body);
      return `Added fault ${fault.id.slice(0, 8)} on ${fault.method} ${fault.path}.`;
    });
  };

  return (
    <form class="stack" aria-labelledby="add-fault-title" onSubmit={submit}>
      <h4 id="add-fault-title">Add a fault</h4>
      <div class="row-fields">
        <Field label="Method">
          <select value={method} onChange={(event) => setMethod(event.currentTarget.value as typeof method)}>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {m === '*' ? 'Any method' : m}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Path" class="grow">
          <input
            type="text"
            value={path}
            required
            placeholder="/v1/quotes or /v1/operations/*"
            onInput={(event) => setPath(event.currentTarget.value)}
          />
        </Field>
      </div>
      <fieldset>
        <legend>Effect</legend>
        {(
          [
            ['error', 'Answer an error'],
            ['drop', 'Drop the connection'],
            ['latency', 'Latency only'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} class="check">
            <input type="radio" name="fault-effect" value={value} checked={effect === value} onChange={() => setEffect(value)} />
            {label}
          </label>
        ))}
      </fieldset>
      <div class="row-fields">
        {effect === 'error' && (
          <>
            <Field label="Error status">
              <input type="number" min={400} max={599} required value={status} onInput={(event) => setStatus(event.currentTarget.value)} />
            </Field>
            <Field label="Error code (optional)">
              <input type="text" value={code} placeholder="INJECTED_FAULT" onInput={(event) => setCode(event.currentTarget.value)} />
            </Field>
          </>
        )}
        <Field label={`Latency in ms${effect === 'latency' ? '' : ' (optional)'}`}>
          <input type="text" value={latency} placeholder="250 or 100-900" onInput={(event) => setLatency(event.currentTarget.value)} />
        </Field>
        <Field label="Times (optional)">
          <input type="number" min={1} value={times} onInput={(event) => setTimes(event.currentTarget.value)} />
        </Field>
        <Field label="Percent (optional)">
          <input type="number" min={0} max={100} value={percent} onInput={(event) => setPercent(event.currentTarget.value)} />
        </Field>
      </div>
      <div class="actions">
        <button type="submit" disabled={action.busy}>
          Add fault
        </button>
      </div>
      {action.line}
    </form>
  );
}

export function FaultsPanel({ customerId, byId }: { customerId?: string; byId: Map<string, CustomerSummary> }) {
  const faults = useResource<FaultList>('/_mock/faults', ['faults']);
  const remove = useAction();
  const all = faults.data?.data ?? [];
  const data = customerId === undefined ? all : all.filter((fault) => fault.customerId === undefined || fault.customerId === customerId);
  const whose = (fault: Fault) => (fault.customerId ? (byId.get(fault.customerId)?.clientId ?? fault.customerId.slice(0, 8)) : 'everyone');
  return (
    <section aria-labelledby="faults-title" class="group">
      <h3 id="faults-title">Faults ({data.length})</h3>
      <ErrorNote message={faults.error} />
      {data.length === 0 ? (
        <Empty>{faults.loading ? 'Loading…' : 'No fault: every service request is answered normally.'}</Empty>
      ) : (
        <Wide label="Faults">
          <table class="list">
            <caption class="visually-hidden">Faults, oldest first (the oldest that matches acts)</caption>
            <thead>
              <tr>
                <th scope="col">Fault</th>
                <th scope="col">Customer</th>
                <th scope="col">Method</th>
                <th scope="col">Path</th>
                <th scope="col">Effect</th>
                <th scope="col">Left</th>
                <th scope="col">Hits</th>
                <th scope="col">Remove</th>
              </tr>
            </thead>
            <tbody>
              {data.map((fault) => (
                <tr key={fault.id}>
                  <td title={`created ${fault.createdAt}`}>
                    <ShortId id={fault.id} />
                  </td>
                  <td class="nowrap">{whose(fault)}</td>
                  <td>{fault.method}</td>
                  <td>
                    <code>{fault.path}</code>
                  </td>
                  <td>
                    {effectText(fault)}
                    {fault.percent !== undefined && `, ${fault.percent}%`}
                  </td>
                  <td class="num">{fault.remaining ?? '∞'}</td>
                  <td class="num">{fault.hits}</td>
                  <td>
                    <button
                      type="button"
                      disabled={remove.busy}
                      aria-label={`Remove fault ${fault.id.slice(0, 8)}`}
                      onClick={() =>
                        remove.run(() => del(`/_mock/faults/${seg(fault.id)}`).then(() => `Removed fault ${fault.id.slice(0, 8)}.`))
                      }
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Wide>
      )}
      {remove.line}
      <AddFaultForm />
    </section>
  );
}
