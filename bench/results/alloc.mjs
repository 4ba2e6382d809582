// Allocation profile of the hot gRPC SendMessage path (sampling heap profiler, collected objects included).
import { Session } from 'node:inspector/promises';
const s = new Session(); s.connect();
const N = Number(process.argv[2] ?? 30000);
const mod = await import('./hot-one.mjs');
for (let i = 0; i < 20000; i++) await mod.one();
await s.post('HeapProfiler.enable');
await s.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
for (let i = 0; i < N; i++) await mod.one();
const { profile } = await s.post('HeapProfiler.stopSampling');
const self = new Map();
let total = 0;
(function walk(n) {
  const sz = n.selfSize;
  total += sz;
  const f = n.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*\/(dist|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + sz);
  for (const c of n.children) walk(c);
})(profile.head);
console.log(`~${Math.round(total / N)} bytes allocated per call`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(String(Math.round(v / N)).padStart(6), k);
