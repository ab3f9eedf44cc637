// `--allow <file>`: the failures explore accepts, by check name, optionally narrowed to those whose
// message contains a text. A YAML (or JSON) list: `- check: document.body` / `contains: ...` /
// `reason: ...`. An unknown check name is refused when the file is read.
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { UserError } from '../scenarios/errors';
import { CHECK_NAMES, type CheckFailure, type CheckName } from './checks';

export interface Allowance {
  check: CheckName;
  contains?: string;
  reason?: string;
}

export function readAllowances(file: string): Allowance[] {
  let data: unknown;
  try {
    data = yaml.load(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UserError(`--allow ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!Array.isArray(data)) throw new UserError(`--allow ${file}: expected a list of {check, contains?, reason?}`);
  return data.map((entry, i) => {
    const { check, contains, reason } = (entry ?? {}) as Record<string, unknown>;
    if (typeof check !== 'string' || !(CHECK_NAMES as string[]).includes(check))
      throw new UserError(`--allow ${file}: entry ${i + 1}: check must be one of ${CHECK_NAMES.join(', ')} (got ${JSON.stringify(check)})`);
    if (contains !== undefined && typeof contains !== 'string')
      throw new UserError(`--allow ${file}: entry ${i + 1}: contains must be a string`);
    return { check: check as CheckName, ...(contains ? { contains } : {}), ...(typeof reason === 'string' ? { reason } : {}) };
  });
}

export function isAllowed(allowances: Allowance[], failure: CheckFailure): boolean {
  return allowances.some((a) => a.check === failure.check && (a.contains === undefined || failure.message.includes(a.contains)));
}
