// What a fault run found: for each rule it checks, the problems seen (none: the rule held), and
// the figures it measured. The rules of a run are fixed in advance (the jest file names one test
// after each), the problems are collected as the run looks at what happened, and the script
// prints the same findings as a table. Problem lists are capped (the first examples and a count),
// so a run that loses a thousand events says so in a readable failure.

export type Figures = Record<string, number | string>;

export interface RuleResult {
  id: string;
  rule: string;
  holds: boolean;
  /** How many problems were seen (the list below is capped). */
  count: number;
  problems: string[];
}

export interface RunResult {
  /** "1", "2", "3". */
  run: string;
  title: string;
  sizes: Figures;
  figures: Figures;
  rules: RuleResult[];
  elapsedMs: number;
}

const EXAMPLES = 12;

export class Findings<Id extends string> {
  private readonly seen = new Map<Id, { count: number; examples: string[] }>();

  constructor(readonly rules: Readonly<Record<Id, string>>) {
    for (const id of Object.keys(rules) as Id[]) this.seen.set(id, { count: 0, examples: [] });
  }

  /** A problem against one rule (the rule then does not hold). */
  problem(id: Id, text: string): void {
    const entry = this.seen.get(id)!;
    entry.count++;
    if (entry.examples.length < EXAMPLES) entry.examples.push(text);
  }

  count(id: Id): number {
    return this.seen.get(id)!.count;
  }

  results(): RuleResult[] {
    return (Object.keys(this.rules) as Id[]).map((id) => {
      const { count, examples } = this.seen.get(id)!;
      const problems = count > examples.length ? [...examples, `... and ${count - examples.length} more (${count} in all)`] : examples;
      return { id, rule: this.rules[id], holds: count === 0, count, problems };
    });
  }
}

/** The problems of one rule of a result: [] when it held (what a test expects). */
export function problemsOf(result: RunResult, id: string): string[] {
  const rule = result.rules.find((r) => r.id === id);
  if (!rule) throw new Error(`run ${result.run} has no rule ${id}`);
  return rule.problems;
}

/** One line for a test's output: the run, its sizes and its figures. */
export function summaryLine(result: RunResult): string {
  const facts = Object.entries({ ...result.sizes, ...result.figures }).map(([k, v]) => `${k}=${v}`);
  const broken = result.rules.filter((r) => !r.holds).map((r) => r.id);
  return `[faults] run ${result.run}: ${facts.join(' ')} elapsedMs=${Math.round(result.elapsedMs)} broken=${broken.join(',') || 'none'}`;
}

const cell = (value: string | number) => String(value).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The markdown report of the script: per run, its rules (held or broken, with the first problems) and its figures. */
export function markdown(results: RunResult[], heading: string[]): string {
  const lines = ['# Fault runs', '', ...heading, ''];
  lines.push('| run | rules held | elapsed s |', '|---|---|---|');
  for (const r of results)
    lines.push(
      `| ${r.run}. ${cell(r.title)} | ${r.rules.filter((x) => x.holds).length} of ${r.rules.length} | ${(r.elapsedMs / 1000).toFixed(1)} |`,
    );
  for (const r of results) {
    lines.push('', `## Run ${r.run}: ${r.title}`, '');
    lines.push(
      `Sizes: ${Object.entries(r.sizes)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`,
      '',
    );
    lines.push('| rule | verdict | problems (first ones) |', '|---|---|---|');
    for (const rule of r.rules)
      lines.push(
        `| ${cell(rule.rule)} | ${rule.holds ? 'holds' : `**broken** (${rule.count})`} | ${cell(rule.problems.slice(0, 3).join('; '))} |`,
      );
    lines.push('', '| figure | value |', '|---|---|');
    for (const [key, value] of Object.entries(r.figures)) lines.push(`| ${cell(key)} | ${cell(value)} |`);
  }
  return lines.join('\n') + '\n';
}

/** The result of a run that threw before it could judge its rules: one broken rule, saying why. */
export function unfinishedRun(run: string, title: string, error: unknown, elapsedMs: number): RunResult {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return {
    run,
    title,
    sizes: {},
    figures: {},
    rules: [{ id: 'finished', rule: 'the run finishes', holds: false, count: 1, problems: [message.split('\n').slice(0, 6).join('\n')] }],
    elapsedMs,
  };
}
