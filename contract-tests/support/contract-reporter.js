// Jest reporter of the contract suite (plain CommonJS: jest loads reporters without a transform).
// It gives the run an id the test files share (CONTRACT_RUN_ID, inherited by the workers), and
// at the end reads what the test files recorded (each call's operationId and status, drift,
// violations, the target) to print the operation x status coverage table, write
// reports/contract-summary.md, and fail the run when an operation of the document was not
// exercised at all (only when the whole suite ran: a single file cannot cover everything).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const SKIP_MARK = ' [skipped: ';
const KNOWN_BUG_MARK = ' [known mock bug: ';
/** Record files older than this belong to runs that are over. */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

function testFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') out.push(...testFiles(full));
    else if (entry.isFile() && /\.test\.(ts|js)$/.test(entry.name)) out.push(full);
  }
  return out;
}

function readRecords(file) {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

function skipReason(test) {
  for (const title of [test.title, ...test.ancestorTitles].reverse()) {
    const at = title.indexOf(SKIP_MARK);
    if (at >= 0) return title.slice(at + SKIP_MARK.length, title.endsWith(']') ? -1 : undefined);
  }
  return 'skipped without a stated reason';
}

const cleanTitle = (title) => (title.includes(SKIP_MARK) ? title.slice(0, title.indexOf(SKIP_MARK)) : title);
const esc = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

class ContractReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.reportDir = process.env.CONTRACT_REPORT_DIR || path.join(this.rootDir, 'reports');
    this.summaryFile = options.summaryFile || path.join(this.reportDir, 'contract-summary.md');
    this.suiteDir = path.join(this.rootDir, 'contract-tests');
    // Set before any worker is forked, so every test file of this run records under this id.
    this.runId = `run-${process.pid}-${Date.now()}`;
    process.env.CONTRACT_RUN_ID = this.runId;
    this.error = undefined;
  }

  onRunStart() {
    // Only leftovers of old runs are removed: another jest run may be recording here right now
    // (its records carry its own run id), and deleting its files would lose its coverage.
    const dir = path.join(this.reportDir, 'contract');
    fs.mkdirSync(dir, { recursive: true });
    const staleBefore = Date.now() - STALE_AFTER_MS;
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (/^(records|probe)-.*\.(jsonl|json)$/.test(name) && fs.statSync(file).mtimeMs < staleBefore) fs.rmSync(file, { force: true });
    }
  }

  getLastError() {
    return this.error;
  }

  onRunComplete(_contexts, results) {
    const suiteResults = results.testResults.filter((r) => r.testFilePath.startsWith(this.suiteDir + path.sep));
    if (suiteResults.length === 0) return;
    const records = readRecords(path.join(this.reportDir, 'contract', `records-${this.runId}.jsonl`));
    const ranFiles = new Set(suiteResults.map((r) => r.testFilePath));
    const fullRun = testFiles(this.suiteDir).every((f) => ranFiles.has(f));
    // The operations as the shared contract module read them from the document (recorded by the test files).
    const documentRecord = records.filter((r) => r.kind === 'document').pop();
    if (!documentRecord) {
      process.stdout.write('Contract coverage: no test file reached the target, nothing to report.\n');
      if (fullRun) this.error = new Error('contract suite: no test file reached the target');
      return;
    }
    const operations = documentRecord.operations;

    const hits = new Map(operations.map((op) => [op.operationId, new Map()]));
    for (const r of records.filter((r) => r.kind === 'call')) {
      const row = hits.get(r.operationId);
      if (row) row.set(r.status, (row.get(r.status) || 0) + 1);
    }
    const columns = [
      ...new Set(operations.flatMap((op) => op.statuses).concat(records.filter((r) => r.kind === 'call').map((r) => r.status))),
    ].sort((a, b) => a - b);
    const cell = (op, status) => {
      const n = hits.get(op.operationId).get(status);
      const documented = op.statuses.includes(status);
      if (n) return documented ? String(n) : `!${n}`;
      return documented ? '·' : '';
    };
    const unexercised = operations.filter((op) => hits.get(op.operationId).size === 0);
    const documentedPairs = operations.reduce((n, op) => n + op.statuses.length, 0);
    const hitPairs = operations.reduce((n, op) => n + op.statuses.filter((s) => hits.get(op.operationId).has(s)).length, 0);

    // Console table.
    const idWidth = Math.max(...operations.map((op) => op.operationId.length));
    const totals =
      `${operations.length - unexercised.length}/${operations.length} operations exercised; ` +
      `${hitPairs}/${documentedPairs} documented (operation, status) pairs provoked.`;
    const lines = [
      '',
      'Contract coverage: operation x status (count of calls; · documented, not provoked; !n undocumented)',
      `${'operation'.padEnd(idWidth)}  ${columns.map((c) => String(c).padStart(4)).join(' ')}`,
      ...operations.map((op) => `${op.operationId.padEnd(idWidth)}  ${columns.map((c) => cell(op, c).padStart(4)).join(' ')}`),
      totals,
    ];
    if (unexercised.length)
      lines.push(`NOT EXERCISED: ${unexercised.map((op) => op.operationId).join(', ')}${fullRun ? '' : ' (partial run: not enforced)'}`);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (unexercised.length && fullRun) {
      const names = unexercised.map((op) => op.operationId).join(', ');
      this.error = new Error(`contract suite: ${unexercised.length} operation(s) of the document were not exercised: ${names}`);
    }

    // Markdown summary.
    const tests = suiteResults.flatMap((r) => r.testResults.map((t) => ({ ...t, file: path.relative(this.rootDir, r.testFilePath) })));
    const passed = tests.filter((t) => t.status === 'passed');
    const failed = tests.filter((t) => t.status === 'failed');
    const skipped = tests.filter((t) => t.status === 'pending' || t.status === 'skipped' || t.status === 'todo');
    const brokenFiles = suiteResults.filter((r) => r.testExecError);
    const targets = [...new Map(records.filter((r) => r.kind === 'target').map((r) => [r.label, r])).values()];
    const byReason = new Map();
    for (const t of skipped) {
      const reason = skipReason(t);
      if (!byReason.has(reason)) byReason.set(reason, []);
      byReason.get(reason).push(`${t.file}: ${[...t.ancestorTitles, t.title].map(cleanTitle).join(' › ')}`);
    }
    const drift = new Map();
    for (const r of records.filter((r) => r.kind === 'drift' || r.kind === 'webhook-drift')) {
      const where = r.kind === 'drift' ? `${r.operationId} ${r.status}` : `webhook ${r.eventType}`;
      const key = `${where}\u0000${r.field}\u0000${r.message}`;
      drift.set(key, { where, field: r.field, message: r.message, count: (drift.get(key)?.count || 0) + 1 });
    }
    const violations = records.filter((r) => r.kind === 'violation' && !r.knownBug);
    const knownBugs = new Map();
    for (const r of records.filter((r) => r.kind === 'violation' && r.knownBug)) {
      const key = `${r.operationId} ${r.status}`;
      knownBugs.set(key, { ...r, count: (knownBugs.get(key)?.count || 0) + 1 });
    }
    const knownBugTests = tests.filter((t) => t.title.includes(KNOWN_BUG_MARK));

    const md = [];
    md.push('# Contract suite summary', '');
    md.push(`Run: ${new Date().toISOString()}${fullRun ? '' : ' (partial run)'}`, '');
    md.push('## Target', '');
    if (targets.length === 0) md.push('- (no test file reached the target)');
    for (const t of targets) {
      const control = t.control ? 'control API present' : 'no control API';
      md.push(`- ${t.label}: ${control}; ${t.mock ? 'a mock (drift fails)' : 'not a mock (drift reported)'}`);
    }
    md.push('', '## Results', '');
    md.push(`| passed | of which known mock bugs | failed | skipped | files | files that failed to run |`, `|---|---|---|---|---|---|`);
    const knownBugsPassed = passed.filter((t) => t.title.includes(KNOWN_BUG_MARK)).length;
    md.push(
      `| ${[passed.length, knownBugsPassed, failed.length, skipped.length, suiteResults.length, brokenFiles.length].join(' | ')} |`,
      '',
    );
    if (failed.length || brokenFiles.length) {
      md.push('### Failed', '');
      for (const t of failed)
        md.push(`- ${esc(t.file)}: ${esc(t.fullName)} — ${esc((t.failureMessages[0] || '').split('\n').find((l) => l.trim()) || '')}`);
      for (const r of brokenFiles)
        md.push(`- ${esc(path.relative(this.rootDir, r.testFilePath))}: ${esc(r.testExecError.message.split('\n')[0])}`);
      md.push('');
    }
    if (skipped.length) {
      md.push('### Skipped, by reason', '');
      for (const [reason, names] of byReason) {
        md.push(`- **${esc(reason)}** (${names.length})`);
        for (const name of names) md.push(`  - ${esc(name)}`);
      }
      md.push('');
    }
    md.push('## Coverage: operation x status', '');
    md.push(
      'Counts of calls; `·` documented but not provoked; `!n` answered but not documented (a violation, or a known mock bug below).',
      '',
    );
    md.push(`| operation | method and path | ${columns.join(' | ')} |`);
    md.push(`|---|---|${columns.map(() => '---:').join('|')}|`);
    for (const op of operations)
      md.push(`| ${op.operationId} | \`${op.method} ${op.path}\` | ${columns.map((c) => cell(op, c)).join(' | ')} |`);
    md.push('', totals);
    if (unexercised.length) md.push('', `**Not exercised:** ${unexercised.map((op) => op.operationId).join(', ')}`);
    md.push('', '## Drift', '');
    if (drift.size === 0) md.push('None: every answer used only the fields and values the document knows.');
    else {
      md.push('| where | field | what | times |', '|---|---|---|---:|');
      for (const d of drift.values()) md.push(`| ${esc(d.where)} | \`${esc(d.field)}\` | ${esc(d.message)} | ${d.count} |`);
    }
    if (violations.length) {
      md.push('', '## Contract violations', '');
      for (const v of violations) md.push(`- ${esc(v.file)}: ${v.operationId} ${v.status}: ${esc(v.problems.join('; '))}`);
    }
    if (knownBugTests.length) {
      md.push('', '## Known mock bugs (expected to fail against a mock)', '');
      const reasons = new Map();
      for (const t of knownBugTests) {
        const reason = t.title.slice(t.title.indexOf(KNOWN_BUG_MARK) + KNOWN_BUG_MARK.length, -1);
        reasons.set(reason, (reasons.get(reason) || 0) + 1);
      }
      for (const [reason, n] of reasons) md.push(`- ${esc(reason)}: ${n} test(s)`);
      if (knownBugs.size)
        md.push(`- answers seen: ${[...knownBugs.values()].map((b) => `${b.operationId} ${b.status} (x${b.count})`).join(', ')}`);
    }
    fs.mkdirSync(path.dirname(this.summaryFile), { recursive: true });
    fs.writeFileSync(this.summaryFile, `${md.join('\n')}\n`);
    process.stdout.write(`Contract summary: ${path.relative(process.cwd(), this.summaryFile)}\n`);
    // This run's own records are read; nothing else needs them.
    for (const name of [`records-${this.runId}.jsonl`, `probe-${this.runId}.json`])
      fs.rmSync(path.join(this.reportDir, 'contract', name), { force: true });
  }
}

module.exports = ContractReporter;
