// The recording session of `fos-mock record` (record.ts registers the command and loads this on
// first use): the proxy until interrupted, then the scenario and HAR files, with no credential or
// token in either (record-secrets.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { dump } from 'js-yaml';
import { projectPath } from '../../spec/project-root';
import { checkScenario } from '../scenarios/loader';
import { UserError } from '../scenarios/errors';
import { normaliseBaseUrl } from '../scenarios/http';
import type { Credentials } from '../scenarios/setup';
import { startRecorder, type Exchange } from './record-proxy';
import { harOf } from './record-har';
import { scenarioFrom, type RecordOptions } from './record-scenario';
import { encodedBodyScrubber, scrub, secretValues } from './record-secrets';
import { out } from './target';

export interface RecordFlags {
  target: string;
  port: string;
  host: string;
  out: string;
  har?: string;
  name?: string;
  customer: string;
}

/** What is known of the target: whether it is a fos-mock (it serves the control API). */
export interface TargetFacts {
  fosMock: boolean;
}

const CUSTOMERS = ['recorded', 'demo', 'fresh'];

/** How long the probe of the target waits: a target that does not answer is taken for one without /_mock. */
const PROBE_MS = 5_000;

/** Whether the target serves GET /_mock/health (a fos-mock); undefined when it cannot be reached. */
export async function probeFosMock(target: string): Promise<boolean | undefined> {
  try {
    const answer = await fetch(`${target}/_mock/health`, { signal: AbortSignal.timeout(PROBE_MS) });
    await answer.arrayBuffer();
    return answer.status === 200;
  } catch {
    return undefined;
  }
}

/** The demo data's clients: their secrets are public (the README prints them). */
function demoClients(): Credentials[] {
  const demo = JSON.parse(readFileSync(projectPath('fixtures', 'demo.json'), 'utf8')) as { customers: Credentials[] };
  return demo.customers.map(({ clientId, clientSecret }) => ({ clientId, clientSecret }));
}

/** Writes the scenario (checked against its schema) and the HAR file; returns the notes for the user. */
export function writeRecording(
  exchanges: Exchange[],
  flags: RecordFlags,
  version: string,
  target: TargetFacts = { fosMock: false },
): string[] {
  const options: RecordOptions = {
    name: flags.name ?? `session recorded against ${new URL(flags.target).host}`,
    description: `Recorded by fos-mock record from ${flags.target} (${exchanges.length} exchanges).`,
    customer: flags.customer as RecordOptions['customer'],
    publicClients: target.fosMock ? demoClients() : [],
  };
  const { scenario, notes } = scenarioFrom(exchanges, options);
  const secrets = secretValues(exchanges);
  // `customer:` is written unscrubbed: it holds a public secret only (the demo data's, or fos-mock-local).
  const { customer, steps, ...head } = scenario;
  const yaml = [scrub(yamlOf(head), secrets), yamlOf({ customer }), scrub(yamlOf({ steps }), secrets)].join('');
  writeFileSync(flags.out, yaml);
  if (scenario.steps.length > 0) checkScenario(scenario, flags.out);
  if (flags.har) {
    const har = harOf(exchanges.map(encodedBodyScrubber(secrets)), flags.target, version);
    writeFileSync(flags.har, `${scrub(JSON.stringify(har, null, 2), secrets)}\n`);
  }
  return notes;
}

function yamlOf(value: object): string {
  return dump(value, { lineWidth: 140, noRefs: true });
}

/** Resolves on the first SIGINT or SIGTERM (and stops listening for them). */
function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** The command's body: checks the flags, records until interrupted, writes the files. */
export async function recordSession(flags: RecordFlags, version: string): Promise<void> {
  const target = normaliseBaseUrl(flags.target, { kind: 'target', flag: '--target' });
  if (!CUSTOMERS.includes(flags.customer)) throw new UserError(`--customer must be one of ${CUSTOMERS.join(', ')}`);
  const port = Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UserError(`--port ${flags.port} is not a port (0-65535)`);
  const recorder = await startRecorder({ target, port, host: flags.host }).catch((error: NodeJS.ErrnoException) => {
    throw new UserError(`cannot listen on ${flags.host}:${port}: ${error.code ?? error.message}`);
  });
  // Asked as the session starts; asked again at the end when the target could not be reached then.
  const probed = probeFosMock(target);
  out(`fos-mock record: point your client at ${recorder.url} (forwarded to ${target}); Ctrl-C writes ${flags.out}`);
  await interrupted();
  await recorder.close();
  const fosMock = (await probed) ?? (await probeFosMock(target)) ?? false;
  const notes = writeRecording(recorder.exchanges, { ...flags, target }, version, { fosMock });
  out(`fos-mock record: ${recorder.exchanges.length} exchanges written to ${flags.out}${flags.har ? ` and ${flags.har}` : ''}`);
  for (const note of notes) out(`  note: ${note}`);
}
