// The documented operations as a route table compiled once: a request's method and path find
// their operation with a map look-up (concrete paths) or a few anchored patterns (templated
// ones), instead of a walk through a router's layers. The same table says which methods a path
// has, so the 404 and 405 answers (unmatched-route.ts) follow the very rules that match:
// case-insensitive, an optional trailing slash, HEAD served by GET, and a concrete path owning
// its URL (GET /v1/operations/deposits is not getOperation, and answers 405).
import type { Contract, OperationContract } from '../../spec/contract';

export interface RouteMatch<T> {
  op: OperationContract;
  target: T;
  /** Path parameters, still percent-encoded. */
  params: Record<string, string>;
}

interface Templated<T> {
  op: OperationContract;
  target: T;
  pattern: RegExp;
  names: string[];
}

function escape(text: string): string {
  return text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
}

/** `/api/accounts/` and `/API/Accounts` are `/api/accounts`, as Express's router sees them. */
function normalise(path: string): string {
  // The table's paths and the looked-up ones go through this same function, so how '/' and the case
  // are folded does not matter as long as both sides fold alike.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  // Stryker disable next-line MethodExpression: equivalent, see above
  return trimmed.toLowerCase();
}

export class RouteTable<T> {
  private readonly concrete = new Map<string, Map<string, { op: OperationContract; target: T }>>();
  private readonly templated = new Map<string, Array<Templated<T>>>();

  constructor(entries: Array<{ op: OperationContract; target: T }>) {
    for (const { op, target } of entries) {
      const method = op.method.toUpperCase();
      if (!op.path.includes('{')) {
        const path = normalise(op.path);
        const byMethod = this.concrete.get(path) ?? new Map<string, { op: OperationContract; target: T }>();
        byMethod.set(method, { op, target });
        this.concrete.set(path, byMethod);
        continue;
      }
      const names: string[] = [];
      const source = op.path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          // The split leaves a parameter as a part of its own, so the anchors change no match.
          // Stryker disable next-line Regex: equivalent, see above
          const name = /^\{([^}]+)\}$/.exec(part)?.[1];
          if (name === undefined) return escape(part);
          names.push(name);
          return '([^/]+)';
        })
        .join('');
      const list = this.templated.get(method) ?? [];
      list.push({ op, target, names, pattern: new RegExp(`^${source}/?$`, 'i') });
      this.templated.set(method, list);
    }
  }

  /** The methods documented for a raw path (no query), in the document's order; none for an unknown path. */
  methodsAt(path: string): string[] {
    const concrete = this.concrete.get(normalise(path));
    if (concrete) return [...concrete.keys()];
    const methods: string[] = [];
    for (const [method, routes] of this.templated) if (routes.some((route) => route.pattern.test(path))) methods.push(method);
    return methods;
  }

  /** The operation for a method and a raw path (no query), or undefined. */
  match(method: string, path: string): RouteMatch<T> | undefined {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const concrete = this.concrete.get(normalise(path));
    if (concrete) {
      const hit = concrete.get(wanted);
      return hit ? { ...hit, params: {} } : undefined;
    }
    for (const route of this.templated.get(wanted) ?? []) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => (params[name] = found[i + 1] as string));
      return { op: route.op, target: route.target, params };
    }
    return undefined;
  }
}

/** The mock's routes exist for exactly the operations in the document: none missing, none extra. */
export function assertHandlersMatchDocument(contract: Contract, handlers: Record<string, unknown>): void {
  const documented = new Set(contract.operations.map((op) => op.operationId));
  const missing = [...documented].filter((id) => !handlers[id]);
  const extra = Object.keys(handlers).filter((id) => !documented.has(id));
  if (missing.length || extra.length) {
    throw new Error(
      `fos-mock: handlers and document differ. No handler for: ${missing.join(', ') || '-'}. ` +
        `Not in the document: ${extra.join(', ') || '-'}.`,
    );
  }
}
