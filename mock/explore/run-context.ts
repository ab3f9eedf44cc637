// One generated run: its customer, the steps sent so far (scenario steps, so a failing run is
// written as a scenario as it is), what their answers saved, and the checks every answer gets
// (no 5xx, the document). A check that does not hold throws a CheckFailure.
import type { Endpoint } from '../receiver/receiver';
import { stepDifferences } from '../scenarios/compare';
import { UserError } from '../scenarios/errors';
import type { HttpAnswer } from '../scenarios/http';
import { getPath, parsePath } from '../scenarios/paths';
import type { Session } from '../scenarios/setup';
import { sendStep } from '../scenarios/step';
import { TemplateError } from '../scenarios/template';
import type { Step } from '../scenarios/types';
import { CheckFailure, type CheckName } from './checks';
import { documentFailures } from './document-check';
import type { ExploreTarget } from './target';

/** The receiver endpoint a run's subscription delivers to (a target that can reach this machine). */
export const RECEIVER = 'hook';
/** The name the id of the run's subscription to its receiver is saved under. */
export const HOOK_SUBSCRIPTION = 'hookSubscription';

/** Another customer's records, and `key`: an idempotency key it used (keys are kept per customer). */
export type ForeignKind = 'account' | 'quote' | 'operation' | 'beneficiary' | 'subscription' | 'key';
export type ForeignIds = Partial<Record<ForeignKind, string>>;

export class RunContext {
  readonly steps: Step[] = [];
  readonly answers: Array<HttpAnswer | undefined> = [];
  readonly saved: Record<string, unknown> = {};

  constructor(
    readonly target: ExploreTarget,
    readonly session: Session,
    readonly receiver?: Endpoint,
    /** Ids of another customer's records, by kind (tenancy checks); empty when there is none. */
    readonly foreign: ForeignIds = {},
    /** With --compare-with: the same run on the second target, each step sent there too and compared. */
    readonly twin?: RunContext,
  ) {}

  private names = 0;

  /** A name no step of this run saved yet (`page3`): for values a later step sends back, such as a cursor. */
  freshName(prefix: string): string {
    this.names += 1;
    return `${prefix}${this.names}`;
  }

  /** The 1-based index the next step will have. */
  get index(): number {
    return this.steps.length;
  }

  fail(check: CheckName, message: string): never {
    throw new CheckFailure(check, message, this.steps.length);
  }

  /** A template's value now (`{{q1}}` → the quote's id). */
  value(template: string): unknown {
    const name = /^\{\{(.+)\}\}$/.exec(template)?.[1];
    if (name === undefined) return template;
    const { found, value } = getPath(this.templateContext(), parsePath(name));
    return found ? value : undefined;
  }

  /** Sends a step, keeps it and its answer, saves what it names, and checks the answer. */
  async do(step: Step): Promise<HttpAnswer> {
    const answer = await this.send(step);
    // An answer a fault the run injected made is no finding; the second target still gets the step.
    if (!injected(answer)) {
      if (answer.status >= 500) this.fail('no-5xx', `${title(step)} answered ${answer.status}${code(answer)}`);
      if (step.call !== undefined) {
        const [method = 'GET', path = '/'] = step.call.split(' ');
        const found = documentFailures(method, this.render(path), answer);
        if (found) this.fail(found.check, `${step.call} answered ${answer.status}${code(answer)}: ${found.message}`);
      }
    }
    if (this.twin) await this.compareWithTwin(step, answer);
    return answer;
  }

  /**
   * --compare-with: the step sent to the second target too, on that target's own records (names
   * saved from its own answers), and the two answers compared in the fidelity report's kinds
   * (status, code, field, type, state), ids, times and amounts left aside; the first difference
   * is a failure named compare.<kind>, shrunk like any other.
   */
  private async compareWithTwin(step: Step, answer: HttpAnswer): Promise<void> {
    const twin = this.twin!;
    const what = title(step);
    let other: HttpAnswer;
    try {
      other = await twin.send(step);
    } catch (error) {
      // A name the second target never saved (it refused what made it on the first) or no answer.
      if (!(error instanceof TemplateError) && !(error instanceof CheckFailure)) throw error;
      return this.fail('compare.status', `${what}: the second target could not be sent it (${error.message})`);
    }
    const [first] = stepDifferences({ answer }, { answer: other });
    if (first)
      this.fail(`compare.${first.kind}` as CheckName, `${what}: ${first.path} is ${first.a} on the first target, ${first.b} on the second`);
  }

  /** Sends a step and keeps it, its answer and what it saves; no answer at all is a no-5xx failure. */
  async send(step: Step): Promise<HttpAnswer> {
    await this.target.pace();
    const receivers = new Map<string, Endpoint>(this.receiver ? [[RECEIVER, this.receiver]] : []);
    const context = { client: this.target.client, session: this.session, saved: this.saved, receivers, control: this.target.isMock };
    let answer: HttpAnswer | undefined;
    try {
      try {
        answer = await sendStep(step, { ...context, context: this.templateContext() });
      } catch (error) {
        // A kept-alive connection the server closed as the request left: sent again once, as
        // clients do. Safe for the service's calls: each write carries its own idempotency key.
        if (!resetConnection(error) || step.call === undefined) throw error;
        answer = await sendStep(step, { ...context, context: this.templateContext() });
      }
    } catch (error) {
      // Nothing listens any more: the target is gone (exit 2), not a finding.
      if (error instanceof UserError || error instanceof TemplateError) throw error;
      this.steps.push(step);
      this.answers.push(undefined);
      return this.fail('no-5xx', `${title(step)} got no answer: ${(error as Error).message}`);
    }
    if (!answer) throw new Error('explore: a step without a call');
    // A name is saved only from an answer that has it; the written scenario keeps only those.
    const kept: Record<string, string> = {};
    for (const [name, path] of Object.entries(step.save ?? {})) {
      const { found, value } = getPath({ status: answer.status, headers: answer.headers, body: answer.body }, parsePath(path));
      if (found && value !== undefined && value !== null) {
        this.saved[name] = value;
        kept[name] = path;
      }
    }
    const recorded: Step = { ...step };
    if (Object.keys(kept).length > 0) recorded.save = kept;
    else delete recorded.save;
    this.steps.push(recorded);
    this.answers.push(answer);
    return answer;
  }

  private render(path: string): string {
    return path.replace(/\{\{([^}]+)\}\}/g, (_, name: string) => {
      const value = this.value(`{{${name}}}`);
      return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    });
  }

  private templateContext(): Record<string, unknown> {
    return {
      ...this.saved,
      customer: this.session.customer,
      accounts: this.session.accounts,
      receivers: this.receiver ? { [RECEIVER]: { url: this.receiver.url } } : {},
    };
  }
}

/** An answer a fault the run injected made (the Error body's code INJECTED_FAULT). */
export function injected(answer: HttpAnswer): boolean {
  return (answer.body as { code?: unknown } | undefined)?.code === 'INJECTED_FAULT';
}

/** ` CODE` of an Error body, for messages. */
export function code(answer: HttpAnswer): string {
  const value = (answer.body as { code?: unknown } | undefined)?.code;
  return typeof value === 'string' ? ` ${value}` : '';
}

function title(step: Step): string {
  return (
    step.call ??
    (step.control !== undefined ? `control ${step.control}` : step.clock !== undefined ? `clock ${step.clock}` : 'webhooks idle')
  );
}

/** A connection reset under a request (ECONNRESET, or undici's closed socket). */
function resetConnection(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}
