// Scenarios: YAML files of QA steps run against a mock (see README "Scenarios and the command line").
export { runScenario, stepTitle, type RunOptions } from './runner';
export { loadScenarioFile, parseScenario, checkScenario } from './loader';
export { partialMatch, describeDifferences, type Difference } from './match';
export { render, renderString, lookup, TemplateError } from './template';
export { progressPrinter, formatStep, formatHeader, formatResult, formatTotals, type Output } from './reporter';
export { MockClient, type HttpAnswer } from './http';
export { conformanceFailure, conformanceErrors } from './conformance';
export { UserError, ScenarioFileError, MockTargetError } from './errors';
export type { Scenario, Step, ScenarioResult, StepResult, StepProgress } from './types';
