// Preloaded into the soak's mock (`node --expose-gc --require`): on SIGUSR2 it collects garbage
// fully and appends the heap in use to the file HEAP_PROBE_FILE names, so the bench reads the live
// heap after a reset. RSS alone says little there: V8 hands memory back to the system slowly.
// Array buffers count with the heap: the memory store keeps its records' bytes in them
// (mock/store/byte-arena.ts), as the scaling benchmark counts them (bench/servers/seeded-mock.ts).
// Each line is "heapUsed arrayBuffers" in bytes.
//
// Two collections 250 ms apart: V8 frees the memory of dead array buffers after a full
// collection, on a thread of its own, so a level read right after one can still count buffers
// that are already garbage (seen in the soak of 2026-11-26 11:44: two resets read 70 to 90 MB
// above the others, the store's segments of the period before).
const { appendFileSync } = require('node:fs');
const { setTimeout } = require('node:timers');

process.on('SIGUSR2', () => {
  global.gc();
  setTimeout(() => {
    global.gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    appendFileSync(process.env.HEAP_PROBE_FILE, `${heapUsed} ${arrayBuffers}\n`);
  }, 250);
});
