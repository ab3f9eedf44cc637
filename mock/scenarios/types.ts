// The shape of a scenario file once parsed and validated (spec/scenario.schema.json is the
// authority; these types follow it).
import type { Answer as ReceiverAnswer } from '../receiver/receiver';

/** A receiver's answer as a scenario writes it: a status, `hang` (no answer) or `reset` (the receiver's words). */
export type Answer = Extract<ReceiverAnswer, number | string>;

export interface ReceiverSpec {
  script?: Answer[];
  fallback?: Answer;
}

export type CustomerSpec = 'fresh' | 'demo' | { clientId: string; clientSecret: string };

/** A clock of the fresh customer's own, which `clock` steps move (POST /_mock/customers {clock}). */
export type ClockSpec = 'own' | { start?: string; frozen?: boolean };

export interface EventExpectation {
  receiver: string;
  /** Exactly these X-Event-Type values, in this order. */
  types?: string[];
  /** At least these (as many times as listed), in any order. */
  contains?: string[];
}

export interface Step {
  name?: string;
  call?: string;
  control?: string;
  clock?: string | number;
  webhooks?: 'idle';
  body?: unknown;
  headers?: Record<string, string | number | boolean>;
  auth?: boolean;
  /** `conforms: true`: the answer of a `call` must conform to spec/openapi.yaml (conformance.ts). */
  expect?: { status?: number; body?: unknown; headers?: Record<string, string>; conforms?: boolean };
  save?: Record<string, string>;
  'expect-events'?: EventExpectation;
}

export interface Scenario {
  name: string;
  description?: string;
  reset?: boolean;
  customer?: CustomerSpec;
  clock?: ClockSpec;
  receivers?: Record<string, ReceiverSpec | null>;
  steps: Step[];
  /** Where it was read from, for messages (absent for a scenario given as an object). */
  file?: string;
}

/** One line of progress, given to `onStep` when a step starts and when it ends. */
export interface StepProgress {
  /** 1-based. */
  index: number;
  total: number;
  title: string;
  /** The step's `name`, when it has one. */
  name?: string;
  state: 'running' | 'passed' | 'failed';
  /** The HTTP status the step's call answered, when it made one. */
  status?: number;
  ms?: number;
  error?: string;
}

export interface StepResult {
  index: number;
  title: string;
  name?: string;
  ok: boolean;
  status?: number;
  error?: string;
  ms: number;
}

export interface ScenarioResult {
  name: string;
  file?: string;
  passed: boolean;
  /** The steps that ran: the run stops at the first failing one. */
  steps: StepResult[];
  /** How many steps the scenario has. */
  total: number;
  ms: number;
}
