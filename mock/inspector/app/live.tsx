// The push channel: one EventSource on GET /_mock/live for the whole page. Its `change` events
// name topics; each view subscribes to the topics it shows and refetches only those (no polling).
// After the stream breaks and comes back, every topic counts as changed (events were missed).
import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { describeError, get } from './api';
import { TOPICS, type Topic } from './types';

type Listener = (topics: ReadonlySet<Topic>) => void;
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'closed' | 'unsupported';

interface Live {
  status: LiveStatus;
  subscribe: (listener: Listener) => () => void;
  /** Tells every view that everything changed (the header's "Refresh" button). */
  refreshAll: () => void;
}

const LiveContext = createContext<Live>({ status: 'connecting', subscribe: () => () => undefined, refreshAll: () => undefined });

function parseTopics(data: unknown): Set<Topic> {
  try {
    const parsed = JSON.parse(String(data)) as { topics?: unknown };
    const named = Array.isArray(parsed.topics) ? parsed.topics : [];
    return new Set(TOPICS.filter((topic) => named.includes(topic)));
  } catch {
    return new Set(TOPICS);
  }
}

export function LiveProvider({ url, children }: { url: string; children: ComponentChildren }) {
  const listeners = useRef(new Set<Listener>());
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const notify = (topics: ReadonlySet<Topic>) => {
    for (const listener of [...listeners.current]) listener(topics);
  };

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      setStatus('unsupported');
      return undefined;
    }
    const source = new EventSource(url);
    let broken = false;
    source.addEventListener('open', () => {
      setStatus('live');
      if (broken) notify(new Set(TOPICS));
      broken = false;
    });
    source.addEventListener('error', () => {
      broken = true;
      setStatus(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
    });
    source.addEventListener('change', (event) => notify(parseTopics(event.data)));
    return () => source.close();
  }, [url]);

  // Stable functions: a view's subscription outlives changes of the status shown.
  const stable = useMemo(
    () => ({
      subscribe(listener: Listener) {
        listeners.current.add(listener);
        return () => void listeners.current.delete(listener);
      },
      refreshAll: () => notify(new Set(TOPICS)),
    }),
    [],
  );
  const live = useMemo<Live>(() => ({ status, ...stable }), [status, stable]);
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}

export const useLive = () => useContext(LiveContext);

export interface Resource<T> {
  data?: T;
  /** The last failure, as a line for the user (the Error body's code and message). */
  error?: string;
  loading: boolean;
  reload: () => void;
}

/**
 * GETs `path` now and again whenever the live stream names one of `topics`; at most one request
 * in flight, changes arriving meanwhile fold into one more. `path` null: nothing to show.
 */
export function useResource<T>(path: string | null, topics: readonly Topic[]): Resource<T> {
  const live = useLive();
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: path !== null });
  const reload = useRef<() => void>(() => undefined);
  const topicKey = topics.join(',');

  useEffect(() => {
    setState({ loading: path !== null });
    if (path === null) return undefined;
    let alive = true;
    let inFlight = false;
    let again = false;
    const load = async () => {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      do {
        again = false;
        try {
          const data = await get<T>(path);
          if (alive) setState({ data, loading: false });
        } catch (error) {
          if (alive) setState((previous) => ({ ...previous, error: describeError(error), loading: false }));
        }
      } while (again && alive);
      inFlight = false;
    };
    reload.current = () => void load();
    void load();
    const off = live.subscribe((changed) => {
      if (topicKey.split(',').some((topic) => changed.has(topic as Topic))) void load();
    });
    return () => {
      alive = false;
      off();
    };
  }, [path, topicKey, live.subscribe]);

  return { ...state, reload: () => reload.current() };
}
