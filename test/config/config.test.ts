// One configuration, checked before listening: every variable and flag of `fos-mock serve` is
// read by configFrom, and a value of the wrong form is refused with its name, the value and the
// accepted form.
import { describe, expect, it } from '@jest/globals';
import { checkedConfig, ConfigError, configFrom, defaultConfig, SETTINGS, type Config } from '../../mock/config';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../../spec/project-root';

const fixtures = projectPath('fixtures', 'demo.json');
/** A state file not written yet, in a folder that exists. */
const stateFile = join(tmpdir(), `fos-config-state-${process.pid}.json`);

/** For each setting: values it accepts (with what they become) and values it refuses. */
const CASES: Record<string, { good: Array<[string, unknown]>; bad: string[] }> = {
  PORT: {
    good: [
      ['0', 0],
      ['4010', 4010],
      ['65535', 65535],
    ],
    bad: ['abc', '', '-1', '65536', '80.5', '0x50'],
  },
  HOST: {
    good: [
      ['0.0.0.0', '0.0.0.0'],
      ['localhost', 'localhost'],
      ['::1', '::1'],
    ],
    bad: ['', 'two words', 'http://x/'],
  },
  QUOTE_LIFETIME_MS: {
    good: [
      ['1', 1],
      ['60000', 60000],
    ],
    bad: ['0', '30s', 'soon'],
  },
  STRICT_RESPONSES: {
    good: [
      ['on', true],
      ['OFF', false],
      ['True', true],
      ['0', false],
      ['yes', true],
    ],
    bad: ['maybe', '', '2'],
  },
  BODY_LIMIT_BYTES: {
    good: [
      ['1', 1],
      ['2097152', 2097152],
    ],
    bad: ['0', '1MB'],
  },
  MAX_HEADER_BYTES: {
    good: [
      ['1024', 1024],
      ['65536', 65536],
    ],
    bad: ['512', 'lots'],
  },
  REQUEST_TIMEOUT_MS: {
    good: [
      ['0', 0],
      ['5000', 5000],
    ],
    bad: ['-1', '1.5', '2147483648'],
  },
  HEADERS_TIMEOUT_MS: {
    good: [
      ['0', 0],
      ['1000', 1000],
    ],
    bad: ['1.5', 'never'],
  },
  RATE_LIMIT: {
    good: [
      ['off', null],
      ['OFF', null],
      ['100/1s', { requests: 100, perMs: 1000 }],
    ],
    bad: ['on', '100', '0/1s'],
  },
  AUTO_SETTLE_MS: {
    good: [
      ['off', null],
      ['OFF', null],
      ['0', 0],
      ['750', 750],
    ],
    bad: ['never', '-5', '5s'],
  },
  FOS_MOCK_SECRET: { good: [['s3cret-shared-by-replicas', 's3cret-shared-by-replicas']], bad: ['', '   '] },
  REDIS_URL: {
    good: [
      ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
      ['rediss://user:pw@cache.internal:6380/2', 'rediss://user:pw@cache.internal:6380/2'],
      ['redis://localhost', 'redis://localhost'],
    ],
    bad: ['', 'localhost:6379', 'http://127.0.0.1:6379', 'redis://', 'redis://host:6379/db'],
  },
  REDIS_PREFIX: {
    good: [
      ['qa:', 'qa:'],
      ['team-a.mock_1:', 'team-a.mock_1:'],
    ],
    bad: ['', 'fos*', 'a b', 'x'.repeat(65)],
  },
  JOB_LEASE_MS: {
    good: [
      ['100', 100],
      ['30000', 30000],
      ['3600000', 3600000],
    ],
    bad: ['99', '3600001', '1.5', 'soon'],
  },
  CONTROL_API: {
    good: [
      ['off', false],
      ['On', true],
    ],
    bad: ['disabled'],
  },
  FIXTURES: { good: [[fixtures, fixtures]], bad: ['', projectPath('fixtures', 'no-such-file.json'), projectPath('fixtures')] },
  URL_POLICY: {
    good: [
      ['production', 'production'],
      ['Development', 'development'],
    ],
    bad: ['strict', ''],
  },
  WEBHOOK_TIMEOUT_MS: {
    good: [
      ['1', 1],
      ['10000', 10000],
    ],
    bad: ['0', 'ten'],
  },
  WEBHOOK_SIGNING: {
    good: [
      ['on', true],
      ['FALSE', false],
    ],
    bad: ['sometimes'],
  },
  CLOCK_START: {
    good: [
      ['2026-01-15T09:00:00Z', '2026-01-15T09:00:00.000Z'],
      ['2026-01-15T09:00:00.250+02:00', '2026-01-15T07:00:00.250Z'],
    ],
    bad: ['garbage', '2026-01-15', '2026-13-40T99:00:00Z', 'tomorrow', ''],
  },
  LOG_LEVEL: {
    good: [
      ['silent', 'silent'],
      ['DEBUG', 'debug'],
    ],
    bad: ['loud', ''],
  },
  ALLOWED_HOSTS: {
    good: [
      ['mock', ['mock']],
      ['mock, QA.internal,10.0.0.5', ['mock', 'qa.internal', '10.0.0.5']],
      ['*', ['*']],
      ['', []],
    ],
    bad: ['http://mock', 'mock:4010', 'mock/x', 'a b'],
  },
  STATE_FILE: {
    good: [[stateFile, stateFile]],
    bad: ['', join(tmpdir(), 'no-such-folder-of-fos', 'state.json'), tmpdir(), fixtures.replace('demo.json', 'demo.json/state.json')],
  },
  LOG_FORMAT: {
    good: [
      ['auto', 'auto'],
      ['TEXT', 'text'],
      ['json', 'json'],
    ],
    bad: ['pretty', ''],
  },
};

const keyOf = (env: string): keyof Config => SETTINGS.find((s) => s.env === env)!.key;

describe('every setting of the mock', () => {
  it('has a case here, so none is left unchecked', () => {
    expect(Object.keys(CASES).sort()).toEqual(SETTINGS.map((s) => s.env).sort());
  });

  it('keeps the defaults when the environment says nothing', () => {
    const base = defaultConfig();
    expect({ ...configFrom({}, {}, base) }).toEqual(base);
  });
});

describe.each(Object.entries(CASES))('%s', (env, { good, bad }) => {
  it.each(good)(`${env}=%s is accepted`, (raw, expected) => {
    expect(configFrom({ [env]: raw })[keyOf(env)]).toEqual(expected);
  });

  it.each(bad)(`${env}=%j stops start-up naming ${env}, the value and the accepted form`, (raw) => {
    let refused: unknown;
    try {
      configFrom({ [env]: raw });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ConfigError);
    const error = refused as ConfigError;
    expect(error.setting).toBe(env);
    expect(error.value).toBe(raw);
    expect(error.message).toBe(`${env} must be ${error.accepted}, got ${JSON.stringify(raw)}`);
    expect(error.message).not.toContain('\n');
  });
});

describe('flags of fos-mock serve', () => {
  it('override the environment', () => {
    const config = configFrom(
      { PORT: '4010', AUTO_SETTLE_MS: '5000', CLOCK_START: '2026-01-01T00:00:00Z' },
      { port: '4020', autoSettle: 'off', clockStart: '2026-02-01T00:00:00Z' },
    );
    expect(config).toMatchObject({ port: 4020, autoSettleMs: null, clockStart: '2026-02-01T00:00:00.000Z' });
  });

  it('--no-strict and --no-control-api switch their settings off', () => {
    expect(configFrom({ STRICT_RESPONSES: 'on' }, { strict: false, controlApi: false })).toMatchObject({
      strictResponses: false,
      controlApi: false,
    });
  });

  it.each([
    ['port', 'abc', '--port'],
    ['autoSettle', 'later', '--auto-settle'],
    ['clockStart', 'garbage', '--clock-start'],
    ['host', '', '--host'],
    ['fixtures', '/no/such/fixtures.json', '--fixtures'],
  ])('a bad --%s is refused naming the flag', (name, raw, text) => {
    expect(() => configFrom({}, { [name]: raw })).toThrow(
      new ConfigError(text, raw, SETTINGS.find((s) => s.flag?.name === name)!.accepted),
    );
  });
});

describe('STATE_FILE beside REDIS_URL', () => {
  it.each([
    [{ STATE_FILE: stateFile, REDIS_URL: 'redis://127.0.0.1:6379' }, {}, 'STATE_FILE'],
    [{ REDIS_URL: 'redis://127.0.0.1:6379' }, { stateFile }, '--state-file'],
    [{ STATE_FILE: stateFile }, { redis: 'redis://127.0.0.1:6379' }, 'STATE_FILE'],
  ])('%j %j is refused naming %s: Redis keeps the state itself', (env, flags, name) => {
    expect(() => configFrom(env, flags)).toThrow(
      new ConfigError(name, stateFile, 'unset when REDIS_URL or --redis is set (Redis keeps the state across restarts itself)'),
    );
  });

  it('startMock-style options are refused the same way, naming stateFile', () => {
    expect(() => checkedConfig({ stateFile, redisUrl: 'redis://127.0.0.1:6379' })).toThrow(
      new ConfigError('stateFile', stateFile, 'unset when redisUrl is set (Redis keeps the state across restarts itself)'),
    );
  });
});
