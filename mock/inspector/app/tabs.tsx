// The views as tabs (WAI-ARIA tabs pattern): a tablist of buttons, one tabpanel each. Arrow keys
// move between tabs (and select them), Home and End jump to the ends. Only the selected panel
// holds its view, so only what is shown is fetched and refreshed.
import type { VNode } from 'preact';
import { useRef } from 'preact/hooks';

export interface TabDef<Id extends string> {
  id: Id;
  label: string;
  render: () => VNode;
}

interface TabsProps<Id extends string> {
  label: string;
  tabs: readonly TabDef<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
}

export function Tabs<Id extends string>({ label, tabs, selected, onSelect }: TabsProps<Id>) {
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const to: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const next = to[event.key];
    const tab = next === undefined ? undefined : tabs[next];
    if (next === undefined || !tab) return;
    event.preventDefault();
    onSelect(tab.id);
    buttons.current[next]?.focus();
  };

  return (
    <>
      <div role="tablist" aria-label={label} class="tabs">
        {tabs.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            class="tab"
            aria-selected={tab.id === selected}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`panel-${tab.id}`}
          aria-labelledby={`tab-${tab.id}`}
          class="panel"
          hidden={tab.id !== selected}
          tabIndex={0}
        >
          {tab.id === selected ? tab.render() : null}
        </div>
      ))}
    </>
  );
}
