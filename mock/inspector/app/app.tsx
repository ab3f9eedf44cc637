// The page: a header (the mock clock, the live stream's state, a refresh button) and the four
// views as tabs. The selected view is kept in the address (#requests, #state, …).
import { useEffect, useState } from 'preact/hooks';
import { ClockProvider, useMockClock } from './clock';
import { ClockView } from './clock-view';
import { DeliveriesView } from './deliveries-view';
import { LiveProvider, useLive, type LiveStatus } from './live';
import { RequestsView } from './requests-view';
import { StateView } from './state-view';
import { Tabs, type TabDef } from './tabs';
import { Time } from './ui';

type ViewId = 'requests' | 'state' | 'deliveries' | 'clock';

const VIEWS: readonly TabDef<ViewId>[] = [
  { id: 'requests', label: 'Requests', render: () => <RequestsView /> },
  { id: 'state', label: 'State', render: () => <StateView /> },
  { id: 'deliveries', label: 'Deliveries', render: () => <DeliveriesView /> },
  { id: 'clock', label: 'Clock and faults', render: () => <ClockView /> },
];

const LIVE_TEXT: Record<LiveStatus, string> = {
  connecting: 'Connecting to live updates…',
  live: 'Live updates on',
  reconnecting: 'Live updates lost; reconnecting…',
  closed: 'Live updates unavailable (GET /_mock/live failed); use Refresh',
  unsupported: 'This browser has no EventSource; use Refresh',
};

function viewFromHash(): ViewId {
  const id = location.hash.replace(/^#/, '');
  return VIEWS.find((view) => view.id === id)?.id ?? 'requests';
}

function Header() {
  const { state, now } = useMockClock();
  const live = useLive();
  return (
    <header class="top">
      <h1>fos-mock inspector</h1>
      <p class="top-clock">
        Mock time <strong>{now !== undefined ? <Time iso={new Date(now).toISOString()} /> : '…'}</strong> UTC
        {state?.frozen ? ' (frozen)' : ''}
      </p>
      <p role="status" class={`top-live live-${live.status}`}>
        {LIVE_TEXT[live.status]}
      </p>
      <button type="button" onClick={live.refreshAll}>
        Refresh
      </button>
    </header>
  );
}

export function App() {
  const [view, setView] = useState<ViewId>(viewFromHash);
  useEffect(() => {
    const onHash = () => setView(viewFromHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const select = (id: ViewId) => {
    setView(id);
    history.replaceState(null, '', `#${id}`);
  };

  return (
    <LiveProvider url="/_mock/live">
      <ClockProvider>
        <Header />
        <main>
          <Tabs label="Views" tabs={VIEWS} selected={view} onSelect={select} />
        </main>
      </ClockProvider>
    </LiveProvider>
  );
}
