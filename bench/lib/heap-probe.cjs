// Preloaded into the soak's mock (`node --expose-gc --require`): on SIGUSR2 it collects garbage
// fully and appends the heap in use to the file HEAP_PROBE_FILE names, so the bench reads the live
// heap after a reset. RSS alone says little there: V8 hands memory back to the system slowly.
// Array buffers count with the heap: the memory store keeps its records' bytes in them
// (mock/store/byte-arena.ts), as the scaling benchmark counts them (bench/servers/seeded-mock.ts).
const { appendFileSync } = require('node:fs');

process.on('SIGUSR2', () => {
  global.gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  appendFileSync(process.env.HEAP_PROBE_FILE, `${heapUsed + arrayBuffers}\n`);
});
