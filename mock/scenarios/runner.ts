// Runs a scenario against a mock: prepares the customer and the receivers, then each step in
// order - send, check, save - stopping at the first step that fails and saying what differed.
import { performance } from 'node:perf_hooks';
import { startReceiver, type Endpoint, type Receiver } from '../receiver/receiver';
import { controlOff, type TargetRole } from './errors';
import { describeAnswer, MockClient } from './http';
import { checkScenario, loadScenarioFile } from './loader';
import { needsControlApi, prepareSession, SetupError } from './setup';
import { runStep, type StepObservation } from './step';
import type { TemplateContext } from './template';
import type { Scenario, ScenarioResult, Step, StepProgress, StepResult } from './types';

export interface RunOptions {
  /** The mock's base URL, e.g. http://127.0.0.1:4010. */
  baseUrl: string;
  /** What `baseUrl` names, for its messages (the mock unless said). */
  role?: TargetRole;
  /** Called when each step starts (`running`) and ends (`passed` / `failed`). */
  onStep?(progress: StepProgress): void;
  /** Called after each step with what its call answered and the events it saw (`--compare-with` compares them). */
  onObservation?(index: number, observation: StepObservation): void;
  /** Run every step even after one fails: a comparison reports each difference, not only the first. */
  keepGoing?: boolean;
}

/** The step's action as written (templates unresolved): `POST /v1/quotes`, `control POST /...`, `clock 5m`. */
export function stepTitle(step: Step): string {
  if (step.call !== undefined) return step.call;
  if (step.control !== undefined) return `control ${step.control}`;
  if (step.clock !== undefined) return `clock ${step.clock}`;
  if (step.webhooks !== undefined) return `webhooks ${step.webhooks}`;
  return `events of ${step['expect-events']?.receiver ?? '?'}`;
}

/**
 * Runs one scenario: a file path, or a scenario object (validated like a file). Problems of the
 * file or the set-up (no mock there, control API off, refused credentials) throw a UserError;
 * a failing step is reported in the result.
 */
export async function runScenario(input: string | Scenario, options: RunOptions): Promise<ScenarioResult> {
  let scenario: Scenario;
  if (typeof input === 'string') scenario = loadScenarioFile(input);
  else {
    const { file, ...data } = input;
    scenario = checkScenario(data, file);
  }
  const started = performance.now();
  const client = new MockClient(options.baseUrl, options.role);
  let server: Receiver | undefined;
  const receivers = new Map<string, Endpoint>();
  const steps: StepResult[] = [];
  try {
    const control = await client.hasControlApi();
    if (!control && needsControlApi(scenario)) throw controlOff(client.baseUrl);
    if (scenario.reset) {
      const answer = await client.control('POST', '/reset');
      if (answer.status !== 200) throw new SetupError(`POST /_mock/reset answered ${describeAnswer(answer)}`);
    }
    const session = await prepareSession(client, scenario, control);
    // One loopback server; each declared receiver is an endpoint of it (/hooks/<name>) with its
    // script. A request to any other path is answered 404, so a stray URL fails visibly.
    const declared = Object.entries(scenario.receivers ?? {});
    if (declared.length > 0) {
      server = await startReceiver({ fallback: 404 });
      for (const [name, spec] of declared) receivers.set(name, server.endpoint({ name, script: spec?.script, fallback: spec?.fallback }));
    }
    const saved: Record<string, unknown> = {};
    const total = scenario.steps.length;
    for (const [i, step] of scenario.steps.entries()) {
      const index = i + 1;
      const title = stepTitle(step);
      const name = step.name;
      options.onStep?.({ index, total, title, name, state: 'running' });
      const t0 = performance.now();
      let status: number | undefined;
      let error: string | undefined;
      const observation: StepObservation = {};
      try {
        const context: TemplateContext = {
          ...saved,
          customer: session.customer,
          accounts: session.accounts,
          receivers: receiverUrls(receivers),
        };
        status = await runStep(step, { client, session, context, saved, receivers, control, observation });
      } catch (caught) {
        status = (caught as { status?: number }).status ?? status;
        error = (caught as Error).message;
      }
      const ms = Math.round(performance.now() - t0);
      const result: StepResult = {
        index,
        title,
        ok: error === undefined,
        ms,
        ...(name ? { name } : {}),
        ...(status !== undefined ? { status } : {}),
        ...(error ? { error } : {}),
      };
      steps.push(result);
      options.onStep?.({ index, total, title, name, state: result.ok ? 'passed' : 'failed', ms, status, error });
      options.onObservation?.(index, observation);
      if (!result.ok && !options.keepGoing) break;
    }
    return {
      name: scenario.name,
      ...(scenario.file ? { file: scenario.file } : {}),
      passed: steps.every((s) => s.ok) && steps.length === total,
      steps,
      total,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await server?.close();
    await client.close();
  }
}

function receiverUrls(receivers: Map<string, Endpoint>): Record<string, { url: string }> {
  return Object.fromEntries([...receivers].map(([name, r]) => [name, { url: r.url }]));
}
