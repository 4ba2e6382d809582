/**
 * The OpenTelemetry API, an optional peer dependency, loaded once for every module of this entry
 * point: without it, importing `a2a-kit/server/otel` fails with a message that names the package and
 * the command that installs it, rather than Node's error about a file inside a2a-kit.
 */
import { importPeer } from '../../protocol/peer.js';

const api = await importPeer(
  () => import('@opentelemetry/api'),
  '@opentelemetry/api',
  'a2a-kit/server/otel',
);

export const {
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  createNoopMeter,
  metrics,
  propagation,
  trace,
} = api;
