// The target explore runs against: reachable, this API, credentials it accepts, and what it
// allows. A fos-mock (its control API answers) gets a fresh customer of its own per run, with a
// frozen clock of its own; any other target is used only through the service's own calls, paced,
// and written to only with --allow-writes. A target that cannot be used is one line, exit code 2.
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError, type TargetRole } from '../scenarios/errors';
import { MockClient } from '../scenarios/http';
import { prepareSession, SetupError, type Credentials, type Session } from '../scenarios/setup';

/** Exit code 2: the target cannot be used (not reachable, not this API, credentials refused). */
export class UnusableTarget extends UserError {
  override name = 'UnusableTarget';
  readonly exitCode = 2;
}

export interface TargetOptions {
  url: string;
  role?: TargetRole;
  /** The customer to log in as; required when the target is not a fos-mock. */
  credentials?: Credentials;
  /** Another customer's credentials (tenancy checks) on a target that is not a fos-mock. */
  foreign?: Credentials;
  allowWrites?: boolean;
  /** Requests per second at most; 0: unpaced; negative: the default for the kind of target. */
  rate: number;
}

export class ExploreTarget {
  private next = 0;

  private constructor(
    readonly client: MockClient,
    /** Whether the control API answers: a fos-mock. */
    readonly isMock: boolean,
    readonly options: TargetOptions,
  ) {}

  get url(): string {
    return this.client.baseUrl;
  }

  /** POST, PATCH and DELETE: always on a fos-mock, only with --allow-writes elsewhere. */
  get writes(): boolean {
    return this.isMock || this.options.allowWrites === true;
  }

  static async open(options: TargetOptions): Promise<ExploreTarget> {
    const client = new MockClient(options.url, options.role ?? { kind: 'target', flag: '--url' });
    let isMock: boolean;
    try {
      isMock = await client.hasControlApi();
    } catch (error) {
      throw new UnusableTarget((error as Error).message);
    }
    // A negative rate: the default, unpaced on a fos-mock, 5 a second on anything else.
    const target = new ExploreTarget(client, isMock, { ...options, rate: options.rate < 0 ? (isMock ? 0 : 5) : options.rate });
    if (!isMock && !options.credentials)
      throw new UnusableTarget(
        `${client.baseUrl} is not a fos-mock (no control API): give the customer to log in as with --client-id and --client-secret`,
      );
    // One session now: credentials refused, or not this API, end here rather than in every run.
    await target.session('explore: probe');
    return target;
  }

  /**
   * A customer for one run: the given one, else (on a mock) a fresh one with its own frozen clock;
   * `fresh` asks for a fresh one even when --client-id was given (the other customer of tenancy checks).
   */
  async session(name: string, who: Credentials | 'fresh' | undefined = this.options.credentials): Promise<Session> {
    const customer = who ?? (this.isMock ? 'fresh' : undefined);
    if (!customer) throw new UnusableTarget('no customer to log in as');
    try {
      return await prepareSession(
        this.client,
        { name, steps: [], customer, ...(customer === 'fresh' ? { clock: 'own' as const } : {}) },
        this.isMock,
        // Explore names no `{{accounts.funded}}`: its balances are read at the start of each run.
        { funded: false },
      );
    } catch (error) {
      if (error instanceof SetupError || error instanceof UserError) throw new UnusableTarget(error.message);
      throw error;
    }
  }

  /** Waits for the next request's turn under --rate. */
  async pace(): Promise<void> {
    if (this.options.rate <= 0) return;
    const now = Date.now();
    const at = Math.max(now, this.next);
    this.next = at + 1000 / this.options.rate;
    if (at > now) await sleep(at - now);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
