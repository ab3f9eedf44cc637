// Writes spec/generated/lifecycles.ts from the x-lifecycle declarations of spec/openapi.yaml.
//   npm run generate:lifecycles   write the file (npm run check:generated fails when it is stale)
import { writeFileSync } from 'node:fs';
import { loadDocument } from '../spec/contract/document';
import { LIFECYCLES_MODULE, readLifecycles, renderLifecycles } from '../spec/contract/lifecycle-declarations';
import { projectPath } from '../spec/project-root';

const lifecycles = readLifecycles(loadDocument());
writeFileSync(projectPath(...LIFECYCLES_MODULE.split('/')), renderLifecycles(lifecycles));
console.log(`wrote ${LIFECYCLES_MODULE} (${lifecycles.map((l) => l.name).join(', ')})`);
