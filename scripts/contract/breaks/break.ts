// What a break is: which contract test files should notice it, and how it is applied to the mock
// without touching its source (createApp options, an app in front, changes to the running mock).
import type { RequestListener } from 'node:http';
import type { AppOptions, MockApp } from '../../../mock/app';
import type { RuleId } from '../../../contract-tests/rules/catalogue';

/** Puts another app in front of the mock's request listener. */
export type Wrap = (app: RequestListener, mock: MockApp) => RequestListener;

export interface Break {
  id: string;
  what: string;
  /** The rules of contract-tests/rules/catalogue.ts it breaks: a test tagged with one of them should fail. */
  rules: RuleId[];
  /** The test files that should notice (contract-tests/<name>.test.ts). */
  files: string[];
  /** createApp options; `mock()` is the app they end up in (for a handler that needs its store). */
  options?: (mock: () => MockApp) => AppOptions;
  wrap?: Wrap;
  /** Changes made to the running mock. */
  after?: (mock: MockApp) => void;
}
