// Calls of the service around the money: a new token (its lifetime), and the reference lists of
// resources and event types a subscription names.
import { Act } from './act';
import type { Model } from './model';
import { code, injected, type RunContext } from './run-context';

/** The seed's token lifetime: 23 hours. */
const LIFETIME_S = 82_800;

export class NewToken extends Act {
  check(): boolean {
    return true;
  }
  async run(_model: Model, run: RunContext): Promise<void> {
    // The customer's own credentials, as templates: the written scenario never holds the secret.
    const answer = await run.do({
      call: 'POST /api/oauth/client/token',
      auth: false,
      body: { clientId: '{{customer.clientId}}', clientSecret: '{{customer.clientSecret}}' },
    });
    if (injected(answer) || answer.status !== 200) return;
    const { accessToken, expiresIn } = answer.body as { accessToken?: unknown; expiresIn?: unknown };
    if (expiresIn !== LIFETIME_S) run.fail('token.lifetime', `the token call answered expiresIn ${String(expiresIn)}, not ${LIFETIME_S}`);
    const claims = typeof accessToken === 'string' ? decodeClaims(accessToken) : undefined;
    if (claims && typeof claims.iat === 'number' && typeof claims.exp === 'number' && claims.exp - claims.iat !== LIFETIME_S)
      run.fail('token.lifetime', `the token's exp is ${claims.exp - claims.iat} s after its iat, not ${LIFETIME_S}`);
  }
  toString(): string {
    return 'token()';
  }
}

function decodeClaims(token: string): { iat?: unknown; exp?: unknown } | undefined {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iat?: unknown; exp?: unknown };
  } catch {
    return undefined;
  }
}

export class ReadReference extends Act {
  constructor(readonly eventTypes: boolean) {
    super();
  }
  check(): boolean {
    return true;
  }
  async run(_model: Model, run: RunContext): Promise<void> {
    const answer = await run.do({ call: `GET /v1/reference/${this.eventTypes ? 'eventTypes' : 'resources'}` });
    if (!injected(answer) && answer.status !== 200 && answer.status < 500)
      run.fail(
        'document.status',
        `GET /v1/reference/${this.eventTypes ? 'eventTypes' : 'resources'} answered ${answer.status}${code(answer)}`,
      );
  }
  toString(): string {
    return `reference(${this.eventTypes ? 'eventTypes' : 'resources'})`;
  }
}
