export { explore, type ExploreOptions, type ExploreReport } from './explore';
export { CHECKS, CHECK_NAMES, CheckFailure, type CheckName } from './checks';
export { readAllowances, type Allowance } from './allow-list';
export { UnusableTarget } from './target';
export { formatReport, markdownReport, junitReport } from './report';
