// Templates: `{{name}}` in a string is replaced by a saved value or a built-in
// (`{{customer.accounts[0]}}`, `{{accounts.funded}}`, `{{receivers.hooks.url}}`). A string that
// is one template and nothing else takes the value itself (a number stays a number); inside a
// longer string the value is written as text.
import { getPath, parsePath } from './paths';

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;

export class TemplateError extends Error {
  override name = 'TemplateError';
}

export type TemplateContext = Record<string, unknown>;

export function lookup(expression: string, context: TemplateContext): unknown {
  let segments;
  try {
    segments = parsePath(expression);
  } catch (error) {
    throw new TemplateError(`{{${expression}}}: ${(error as Error).message}`);
  }
  const { found, value } = getPath(context, segments);
  if (!found || value === undefined) {
    const known = Object.keys(context).sort().join(', ') || 'none';
    throw new TemplateError(`{{${expression}}} has no value (known names: ${known})`);
  }
  return value;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The value with every template in its strings replaced (objects and arrays deeply; keys are left alone). */
export function render(value: unknown, context: TemplateContext): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(whole[1] as string, context);
    return value.replace(TEMPLATE, (_, expression: string) => text(lookup(expression, context)));
  }
  if (Array.isArray(value)) return value.map((item) => render(item, context));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, render(item, context)]));
  }
  return value;
}

export function renderString(value: string, context: TemplateContext): string {
  return value.replace(TEMPLATE, (_, expression: string) => text(lookup(expression, context)));
}

/** Every template expression in a value, with where it is (`body.quoteId`), for checks before a run. */
export function templateRefs(value: unknown, at = ''): Array<{ expression: string; at: string }> {
  if (typeof value === 'string') return [...value.matchAll(TEMPLATE)].map((m) => ({ expression: m[1] as string, at }));
  if (Array.isArray(value)) return value.flatMap((item, i) => templateRefs(item, `${at}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => templateRefs(item, at ? `${at}.${key}` : key));
  }
  return [];
}
