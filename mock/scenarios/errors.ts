// Errors that are the user's to fix (a bad file, a mock that is not running): the CLI prints
// their message alone, never a stack trace.
export class UserError extends Error {
  override name = 'UserError';
}

/** A scenario file that does not parse or does not follow spec/scenario.schema.json. */
export class ScenarioFileError extends UserError {
  override name = 'ScenarioFileError';
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(
      `${file}: ${problems.length === 1 ? problems[0] : `${problems.length} problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`}`,
    );
  }
}

/** The mock (or its control API) is not where we were told. */
export class MockTargetError extends UserError {
  override name = 'MockTargetError';
}

/**
 * What a base URL names, for messages: the mock (`fos-mock serve`, whose help is `npm start`), or
 * another target (a sandbox, a second mock) given by `flag`.
 */
export type TargetRole = { kind: 'mock' } | { kind: 'target'; flag: string };

export function unreachable(baseUrl: string, cause: unknown, role: TargetRole): MockTargetError {
  const code = (cause as { code?: string; cause?: { code?: string } }).code ?? (cause as { cause?: { code?: string } }).cause?.code;
  const why = code ? ` (${code})` : '';
  if (role.kind === 'target') return new MockTargetError(`cannot reach ${baseUrl}${why}: is it up, and is ${role.flag} its base URL?`);
  return new MockTargetError(`cannot reach the mock at ${baseUrl}${why}: is \`npm start\` running? (or pass --url, or set FOS_MOCK_URL)`);
}

export function controlOff(baseUrl: string): MockTargetError {
  return new MockTargetError(
    `the control API is off at ${baseUrl} (GET /_mock/health answers 404): start the mock without --no-control-api / CONTROL_API=off`,
  );
}
