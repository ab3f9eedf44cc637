// The record of a run of explore against every deliberate break (scripts/explore/break-catching.ts),
// committed beside the suite's (docs/rules/breaks-run.json): `npm run rules:table` puts explore's
// catch per rule beside the suite's.
import { join } from 'node:path';

export const EXPLORE_RECORD = join('docs', 'rules', 'explore-breaks-run.json');

export interface ExploreBreaksRecord {
  startedAt: string;
  commit: string;
  cores: number;
  seed: number;
  timePerBreakMs: number;
  durationMs?: number;
  baseline: { runs: number; steps: number };
  breaks: Array<{
    id: string;
    rules: string[];
    caught: boolean;
    check?: string;
    foundAfterMs?: number;
    steps?: number;
    shrunkSteps?: number;
    scenarioOnTarget?: string;
    scenarioOnOracle?: string;
  }>;
}
