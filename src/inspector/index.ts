/**
 * a2a-kit inspector: a local web page, served by its own small server, to look at any A2A agent —
 * its card laid out (the interface a client would choose and why, the signature's status, the
 * caching headers), a conversation with it (send, stream, answer, cancel, re-subscribe), its tasks,
 * every exchange on the wire (copyable as `curl`), and the kit's pipeline live. It is built on
 * `a2a-kit/client` like any other program; credentials stay on its server, masked in the page.
 *
 * @example
 * ```ts
 * import { startInspector } from 'a2a-kit/inspector';
 *
 * const inspector = await startInspector({ port: 41250 });
 * process.stdout.write(`open ${inspector.url}\n`);
 * ```
 * @packageDocumentation
 */
export { startInspector, type Inspector, type InspectorOptions } from './server.js';
export type { PipelineEvent, PipelineRecord, PipelineState } from './pipeline.js';
