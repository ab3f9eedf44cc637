// Small pieces every view uses: labelled fields, error notes, state badges, times, short ids, JSON blocks and the
// outcome line of an action (what a control call answered, or its Error body's message).
import { cloneElement, type ComponentChildren, type VNode } from 'preact';
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api';
import { dateTime, shortId, timeOfDay, tone } from './format';

/**
 * A labelled form control: the label above it, tied by `for`/`id`, so the control's accessible
 * name is the label's text alone (a wrapping label would add a select's current option to it).
 */
export function Field({ label, class: className, children }: { label: string; class?: string; children: VNode<{ id?: string }> }) {
  const id = useId();
  return (
    <div class={className ? `field ${className}` : 'field'}>
      <label for={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}

export function ErrorNote({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" class="note note-error">
      {message}
    </p>
  );
}

export function Badge({ status, label }: { status: string | undefined; label?: string }) {
  return <span class={`badge badge-${tone(status)}`}>{label ?? status ?? '—'}</span>;
}

export function Time({ iso, precise }: { iso: string | null | undefined; precise?: boolean }) {
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={iso}>
      {precise ? timeOfDay(iso) : dateTime(iso)}
    </time>
  );
}

export function ShortId({ id }: { id: string | null | undefined }) {
  if (!id) return <span>—</span>;
  return (
    <code class="id" title={id}>
      {shortId(id)}
    </code>
  );
}

/** Preformatted text that may scroll: focusable, so a keyboard can scroll it. */
export function Block({ label, text }: { label: string; text: string }) {
  return (
    <pre class="block" role="region" tabIndex={0} aria-label={label}>
      {text}
    </pre>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** How to make a view's first record: a note naming the call, shown where the records would be. */
export function FirstCall({ children }: { children: ComponentChildren }) {
  return <p class="first-call">{children}</p>;
}

/**
 * A table that may be wider than the screen: it scrolls sideways inside its own box, never the
 * page. Only while it does is the box a named, focusable region (so a keyboard can scroll it).
 */
export function Wide({ label, children }: { label: string; children: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return undefined;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={box}
      class="wide"
      role={scrolls ? 'region' : undefined}
      aria-label={scrolls ? label : undefined}
      tabIndex={scrolls ? 0 : undefined}
    >
      {children}
    </div>
  );
}

interface Outcome {
  ok: boolean;
  text: string;
}

/**
 * An action's runner and outcome line: `run(fn)` calls the control API through `fn`, whose
 * resolved text is shown as the outcome; a refusal shows the Error body's code and message.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    try {
      setOutcome({ ok: true, text: await action() });
    } catch (error) {
      setOutcome({ ok: false, text: describeError(error) });
    } finally {
      setBusy(false);
    }
  };
  const line = (
    <p role="status" class={outcome ? `outcome ${outcome.ok ? 'outcome-ok' : 'outcome-error'}` : 'outcome'}>
      {outcome ? (outcome.ok ? outcome.text : `Failed: ${outcome.text}`) : ''}
    </p>
  );
  return { busy, run: (action: () => Promise<string>) => void run(action), line };
}
