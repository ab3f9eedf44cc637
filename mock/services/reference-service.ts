// Subscription reference look-ups (GET /v1/reference/resources and /eventTypes in the OpenAPI
// document): fixed lists, paginated like every other list.
import { EVENT_DESCRIPTIONS, EVENT_TYPES, RESOURCE_EVENTS, RESOURCE_NAMES, resourceOf } from '../domain/event-catalogue';
import { readPage, type PageParams } from '../domain/pagination/page';
import type { EventType } from '../domain/records';
import { arrayKeys, sliceSorted } from '../shared';
import type { Deps } from './deps';

const RESOURCES = RESOURCE_NAMES.map((name) => ({ name, events: [...RESOURCE_EVENTS[name]] }));
const EVENT_TYPE_ITEMS = EVENT_TYPES.map((name: EventType) => ({
  name,
  resource: resourceOf(name),
  description: EVENT_DESCRIPTIONS[name],
}));

export class ReferenceService {
  constructor(private readonly deps: Deps) {}

  resources(params: PageParams) {
    return this.fixedPage('reference:resources', RESOURCES, params);
  }

  eventTypes(params: PageParams) {
    return this.fixedPage('reference:eventTypes', EVENT_TYPE_ITEMS, params);
  }

  private fixedPage<T>(list: string, items: T[], params: PageParams) {
    const keys = arrayKeys(items.length);
    return readPage(
      this.deps.codec,
      list,
      params,
      (q) => {
        const slice = sliceSorted(keys, q);
        return Promise.resolve({
          items: slice.slots.map((slot) => ({ key: keys.keyAt(slot), record: items[slot] as T })),
          hasBefore: slice.hasBefore,
          hasAfter: slice.hasAfter,
        });
      },
      (item) => item,
    );
  }
}
