// The mock's layers, top to bottom. A module may import from its own layer and the layers below
// it, never from a layer above; and no two folders may import each other, directly or round a
// longer loop. `npm run lint:layers` checks it on every `npm test`.
//
// The order is the request's own path: main (reads the environment, listens) → app (wires
// everything) → control (the /_mock API, which drives the pipeline below it) → cluster (the
// replicas as one service: control calls that act on all of them) → http (the service
// front door and pipeline, faults, journal) → resources (one thin handler per operation) →
// services (orchestration over store, clock, events and jobs) → webhooks (turns events into
// deliveries) → events and jobs (the event bus, due jobs in mock time) → config (one typed
// object) → store (what is kept, reached only through mock/store/index.ts) → domain (pure
// rules and the record types the store keeps; it imports no store) → base (shared helpers,
// errors, clock, the document's contract and types, deferred modules, the scripted receiver),
// which imports nothing above it.
const LAYERS = [
  { name: 'main', paths: ['^mock/main\\.ts$', '^mock/cli/', '^mock/package/'] },
  { name: 'app', paths: ['^mock/app\\.ts$', '^mock/server\\.ts$', '^mock/scenarios/', '^mock/explore/'] },
  { name: 'control', paths: ['^mock/control/', '^mock/inspector/'] },
  { name: 'cluster', paths: ['^mock/cluster/'] },
  { name: 'http', paths: ['^mock/http/'] },
  { name: 'resources', paths: ['^mock/resources/'] },
  { name: 'services', paths: ['^mock/services/'] },
  { name: 'webhooks', paths: ['^mock/webhooks/'] },
  { name: 'events and jobs', paths: ['^mock/events/', '^mock/jobs/'] },
  { name: 'config', paths: ['^mock/config(-parsers)?\\.ts$'] },
  { name: 'store', paths: ['^mock/store/'] },
  { name: 'domain', paths: ['^mock/domain/'] },
  {
    name: 'base',
    paths: ['^mock/shared/', '^mock/errors/', '^mock/clock\\.ts$', '^mock/lazy/', '^mock/receiver/', '^spec/', '^fixtures/types\\.ts$'],
  },
];

const upward = LAYERS.flatMap((layer, rank) =>
  rank === 0
    ? []
    : [
        {
          name: `no-upward-from-${layer.name.replace(/ /g, '-')}`,
          comment: `${layer.name} may import only from its own layer or below: ${LAYERS.slice(rank)
            .map((l) => l.name)
            .join(', ')}`,
          severity: 'error',
          from: { path: layer.paths },
          to: { path: LAYERS.slice(0, rank).flatMap((l) => l.paths) },
        },
      ],
);

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'inspector-page-apart',
      comment: 'the inspector page (browser code) uses only its own modules, preact and the generated types of the documents',
      severity: 'error',
      from: { path: '^mock/inspector/app/' },
      to: { pathNot: ['^mock/inspector/app/', '^spec/generated/', 'node_modules/preact/'] },
    },
    {
      name: 'store-through-its-index',
      comment: 'outside mock/store/, the store is reached only through mock/store/index.ts: its files are its own business',
      severity: 'error',
      from: { path: '^(mock|spec|fixtures)/', pathNot: '^mock/store/' },
      to: { path: '^mock/store/', pathNot: '^mock/store/index\\.ts$' },
    },
    {
      name: 'no-folder-cycles',
      comment: 'two folders never import each other, however long the loop',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(mock|spec)/' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycles',
      comment: 'no import loop between modules',
      severity: 'error',
      from: { path: '^(mock|spec)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|^spec/generated/validators/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
