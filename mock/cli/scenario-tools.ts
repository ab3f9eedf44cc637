// What `fos-mock scenario run` needs and `serve` does not; scenario.ts loads it on first use.
export { formatHeader, formatResult, formatTotals, progressPrinter } from '../scenarios/reporter';
export { loadScenarioFile } from '../scenarios/loader';
export { runScenario } from '../scenarios/runner';
export { compareTargets } from '../scenarios/compare';
export { applyAllowList, readAllowList, unallowed } from '../scenarios/allow-list';
export { formatComparison, junitReport, markdownReport } from '../scenarios/fidelity-report';
export { startLocalMock } from './local-mock';
