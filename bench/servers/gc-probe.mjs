/**
 * Preloaded (`node --expose-gc --import bench/servers/gc-probe.mjs <program>`) into a program the bench
 * did not write, such as the kit's agents CLI, to measure its memory the way the bench servers do:
 * on `{ cmd: 'mem' }` over IPC it forces a full GC and answers `process.memoryUsage()` and how long the
 * collection took, and the longest event-loop delay since the previous probe. The program itself is not changed. When the bench goes away (the IPC channel closes)
 * the program is sent SIGTERM, so a crashed bench leaves no agents behind.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

if (process.send) {
  // How long the event loop was blocked since the previous probe: a stall delays every agent at once.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on('message', (m) => {
    if (m?.cmd !== 'mem') return;
    const loopMaxMs = loop.max / 1e6;
    loop.reset();
    const t0 = performance.now();
    globalThis.gc?.();
    const gcMs = performance.now() - t0;
    process.send({
      cmd: 'mem',
      loopMaxMs,
      mem: process.memoryUsage(),
      gcMs,
      gc: typeof globalThis.gc === 'function',
    });
  });
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
